#pragma once
// The CUDA implementation of the ms_deform_attn slot (provider "libreyolo-cuda"): compiled forward
// and backward, so training benefits as well as prediction.
#include <torch/torch.h>

#include "kernels/deform/ms_deform_attn.h"

namespace libreyolo::kernels::cuda {

// Eligible (spec 003): value, locations and weights float32 on one CUDA device; eager (never under
// a trace or export); the classic layout (the same number of points on every level, bilinear
// sampling); at most kMaxDeformableLevels levels. Everything else takes the reference.
bool ms_deform_attn_accepts(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                            const torch::Tensor& attention_weights, const DeformableSampling& sampling);
torch::Tensor ms_deform_attn(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                             const torch::Tensor& attention_weights, const DeformableSampling& sampling);

}  // namespace libreyolo::kernels::cuda
