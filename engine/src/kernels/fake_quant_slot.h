#pragma once
// The fake_quant_fp8 slot: FP8 E4M3 fake quantization with straight-through gradients. Reference:
// quant::fake_quant_fp8_reference. An implementation is admitted only with an exact forward match
// and gradients within 1e-6 of the straight-through estimator on the tested shapes (spec 003).
#include <torch/torch.h>

#include "kernels/slot.h"

namespace libreyolo::kernels {

using FakeQuantSignature = torch::Tensor(const torch::Tensor& x, const torch::Tensor& scale);

Slot<FakeQuantSignature>& fake_quant_fp8_slot();

}  // namespace libreyolo::kernels
