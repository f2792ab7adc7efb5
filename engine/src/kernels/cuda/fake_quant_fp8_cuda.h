#pragma once
// The CUDA implementation of the fake_quant_fp8 slot (provider "libreyolo-cuda"): one fused
// kernel for the forward, the straight-through gradient for the backward.
#include <torch/torch.h>

namespace libreyolo::kernels::cuda {

// Whether the kernel handles this call: x float32 CUDA, contiguous; scale float32 on x's device,
// broadcastable as one value or as one value per index of a single axis of x.
bool fake_quant_fp8_accepts(const torch::Tensor& x, const torch::Tensor& scale);
torch::Tensor fake_quant_fp8(const torch::Tensor& x, const torch::Tensor& scale);

}  // namespace libreyolo::kernels::cuda
