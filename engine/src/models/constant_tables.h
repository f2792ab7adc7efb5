#pragma once
// Constant tables the DETR families build from a feature map's size rather than learn.
#include <torch/torch.h>

namespace libreyolo::models {

// The dtype of the constant tables (position embedding, anchors) for a model computing in `compute`:
// LibreYOLO builds them in float32 whatever the model's precision, and so do we, except that a
// float64 model builds them in float64, so its results do not hang on the CPU's float32 sin, cos and
// log kernels (which differ in the last bit between AVX-512, AVX2 and plain builds).
torch::Dtype constant_table_dtype(torch::Dtype compute);

// (1, w·h, embed_dim): sin and cos of the column, then of the row, at embed_dim / 4 frequencies.
// Built on `like`'s device, in constant_table_dtype(like's dtype).
torch::Tensor sincos_position_embedding(int64_t w, int64_t h, int64_t embed_dim, double temperature,
                                        const torch::Tensor& like);

}  // namespace libreyolo::models
