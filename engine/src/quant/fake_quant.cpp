#include "quant/fake_quant.h"

#include "kernels/fake_quant_slot.h"

namespace libreyolo::quant {

torch::Tensor fake_quant_fp8(const torch::Tensor& x, const torch::Tensor& scale) {
    return kernels::fake_quant_fp8_slot()(x, scale);
}

}  // namespace libreyolo::quant
