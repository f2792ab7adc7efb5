#pragma once
// The fake_quant_fp8 slot: FP8 E4M3 fake quantization with straight-through gradients. Reference:
// kernels::fake_quant_fp8_reference. An implementation is admitted only with an exact forward match
// and gradients within 1e-6 of the straight-through estimator on the tested shapes (spec 003).
#include <torch/torch.h>

#include "kernels/slot.h"

namespace libreyolo::kernels {

constexpr double kE4M3Max = 448.0;
constexpr double kScaleEpsilon = 1e-12;

// Symmetric FP8 E4M3 fake quantization with a scale that broadcasts against x (a scalar tensor
// per tensor, or e.g. (C, 1, 1, 1) per output channel): x / scale clamped to ±448, rounded to the
// E4M3 grid, times scale, in float32. The gradient passes straight through to x.
torch::Tensor fake_quant_fp8_reference(const torch::Tensor& x, const torch::Tensor& scale);

using FakeQuantSignature = torch::Tensor(const torch::Tensor& x, const torch::Tensor& scale);

Slot<FakeQuantSignature>& fake_quant_fp8_slot();

}  // namespace libreyolo::kernels
