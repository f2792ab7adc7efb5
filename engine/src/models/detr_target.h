#pragma once
// The ground truth the DETR families train on (RT-DETR, D-FINE, DEIM): per image its labels and
// boxes as cx, cy, w, h in [0, 1].
#include <torch/torch.h>

#include <vector>

namespace libreyolo::models {

struct DetrTarget {
    torch::Tensor labels;  // (N) int64
    torch::Tensor boxes;   // (N, 4) cx, cy, w, h in [0, 1]
};

// The loader's targets (B, M, 5: class, x1, y1, x2, y2 in [0, 1], padding rows empty) as DETR
// ground truth: per image the rows with a positive width and height, their labels and cx, cy, w, h
// (LibreYOLO's convert_targets_for_detr).
std::vector<DetrTarget> detr_targets(const torch::Tensor& targets);

}  // namespace libreyolo::models
