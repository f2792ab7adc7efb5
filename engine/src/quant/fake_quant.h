#pragma once
// Quantization arithmetic, simulated in float32 with straight-through gradients (spec 003: the
// numbers are defined by the fake_quant_fp8 slot's reference; kernels/ makes them fast).
#include <torch/torch.h>

namespace libreyolo::quant {

// FP8 E4M3 fake quantization through the kernel registry's fake_quant_fp8 slot (its reference,
// kernels::fake_quant_fp8_reference, unless an accelerated implementation applies).
torch::Tensor fake_quant_fp8(const torch::Tensor& x, const torch::Tensor& scale);

}  // namespace libreyolo::quant
