#include "quant/fake_quant.h"

#include "kernels/fake_quant_slot.h"

namespace libreyolo::quant {

torch::Tensor fake_quant_fp8_reference(const torch::Tensor& x, const torch::Tensor& scale) {
    const torch::Tensor s = scale.clamp_min(kScaleEpsilon);
    const torch::Tensor scaled = (x / s).clamp(-kE4M3Max, kE4M3Max);
    const torch::Tensor quantized = scaled.to(torch::kFloat8_e4m3fn).to(torch::kFloat32) * s;
    // Straight-through estimator: the forward value of quantized, the gradient of x.
    return x + (quantized - x).detach();
}

torch::Tensor fake_quant_fp8(const torch::Tensor& x, const torch::Tensor& scale) {
    return kernels::fake_quant_fp8_slot()(x, scale);
}

}  // namespace libreyolo::quant
