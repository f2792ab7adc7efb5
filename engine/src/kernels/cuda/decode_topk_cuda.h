#pragma once
// The decode_topk slot's CUDA implementation (provider libreyolo-cuda).
#include <torch/torch.h>

#include "kernels/decode_topk_slot.h"

namespace libreyolo::kernels::cuda {

// Level maps on a CUDA device in float32, float16 or bfloat16, at most six levels.
bool decode_topk_accepts(const std::vector<torch::Tensor>& levels, const DflHead& head, double conf);
torch::Tensor decode_topk(const std::vector<torch::Tensor>& levels, const DflHead& head, double conf);

}  // namespace libreyolo::kernels::cuda
