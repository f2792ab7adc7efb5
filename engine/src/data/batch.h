#pragma once
#include <torch/torch.h>

namespace libreyolo::data {

// One training batch as the loader hands it over.
struct Batch {
    torch::Tensor images;   // (B, 3, S, S) float32 in [0, 1]
    torch::Tensor targets;  // (B, T, 5): class, x1, y1, x2, y2 normalised; zero rows pad
};

}  // namespace libreyolo::data
