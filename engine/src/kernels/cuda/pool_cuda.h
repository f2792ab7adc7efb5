#pragma once
// The pool slots' CUDA implementations (provider libreyolo-cuda): channels-last maps on a CUDA
// device, float32, float16 or bfloat16.
#include <torch/torch.h>

namespace libreyolo::kernels::cuda {

bool spp_max_pool_accepts(const torch::Tensor& buffer, int64_t channels);
torch::Tensor spp_max_pool(const torch::Tensor& buffer, int64_t channels);

bool avg_pool_2x2_accepts(const torch::Tensor& x);
torch::Tensor avg_pool_2x2(const torch::Tensor& x);

}  // namespace libreyolo::kernels::cuda
