#include "kernels/fake_quant_slot.h"

#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/fake_quant_fp8_cuda.h"
#include "kernels/in_tree_cuda.h"
#endif

namespace libreyolo::kernels {

torch::Tensor fake_quant_fp8_reference(const torch::Tensor& x, const torch::Tensor& scale) {
    const torch::Tensor s = scale.clamp_min(kScaleEpsilon);
    const torch::Tensor scaled = (x / s).clamp(-kE4M3Max, kE4M3Max);
    const torch::Tensor quantized = scaled.to(torch::kFloat8_e4m3fn).to(torch::kFloat32) * s;
    // Straight-through estimator: the forward value of quantized, the gradient of x.
    return x + (quantized - x).detach();
}

Slot<FakeQuantSignature>& fake_quant_fp8_slot() {
    static Slot<FakeQuantSignature>& slot = []() -> Slot<FakeQuantSignature>& {
        static Slot<FakeQuantSignature> s(
            "fake_quant_fp8",
            "FP8 E4M3 fake quantization: (x, broadcastable scale) -> x on the E4M3 grid, STE gradient",
            &kernels::fake_quant_fp8_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::fake_quant_fp8, &cuda::fake_quant_fp8_accepts);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
