#pragma once
// Quantization arithmetic, simulated in float32 with straight-through gradients (spec 003: quant/
// defines what the numbers mean; kernels/ only makes them fast). Same definitions as LibreYOLO's
// libreyolo/quant/fake_quant.py.
#include <torch/torch.h>

namespace libreyolo::quant {

constexpr double kE4M3Max = 448.0;
constexpr double kScaleEpsilon = 1e-12;

// Symmetric FP8 E4M3 fake quantization with a scale that broadcasts against x (a scalar tensor
// per tensor, or e.g. (C, 1, 1, 1) per output channel): x / scale clamped to ±448, rounded to the
// E4M3 grid, times scale, in float32. The gradient passes straight through to x.
torch::Tensor fake_quant_fp8_reference(const torch::Tensor& x, const torch::Tensor& scale);

// What callers use: the kernel registry's fake_quant_fp8 slot (the reference above unless an
// accelerated implementation applies).
torch::Tensor fake_quant_fp8(const torch::Tensor& x, const torch::Tensor& scale);

}  // namespace libreyolo::quant
