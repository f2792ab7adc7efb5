#pragma once
// Fine-grained distribution refinement (FDR), the numerical core of D-FINE's box regression
// (libreyolo/models/dfine/fdr.py): each box edge is a distribution over reg_max + 1 bins whose
// values W(n) grow non-uniformly away from the centre, and the edge offset is the expectation.
#include <torch/torch.h>

namespace libreyolo::models::dfine_network {

// W(n), reg_max + 1 values: ±2·|up|·|reg_scale| at the ends, 0 in the middle, and between them
// ±(step^i − 1) with step = (|up|·|reg_scale| + 1)^(2 / (reg_max − 2)). up and reg_scale are
// one-element tensors (the model's parameters); the result has their dtype and device.
torch::Tensor weighting_function(int64_t reg_max, const torch::Tensor& up, const torch::Tensor& reg_scale);

// corners (..., 4·(reg_max + 1)) logits → (..., 4): per edge, softmax over the bins · W(n).
torch::Tensor integral(const torch::Tensor& corners, const torch::Tensor& project, int64_t reg_max);

// Edge offsets (..., 4: left, top, right, bottom, in units of the reference box / reg_scale) from
// reference boxes (..., 4: cx, cy, w, h) to boxes (cx, cy, w, h).
torch::Tensor distance_to_box(const torch::Tensor& points, const torch::Tensor& distance,
                              const torch::Tensor& reg_scale);

// The fine-grained localisation targets of boxes (LibreYOLO's bbox2distance and translate_gt): each
// edge's offset from its reference box as a fractional bin of W(n), split into the bin at or left
// of it and the next one with weights by distance (an offset below W(0) goes to bin 0, one above
// W(reg_max − 1) to reg_max − 0.1, whole on the nearer side).
struct DistanceTargets {
    torch::Tensor bins;                       // (4N) float32: left bin index + fraction, in [0, reg_max − 0.1]
    torch::Tensor weight_right, weight_left;  // (4N) float32
};
// points (N, 4) cx, cy, w, h; boxes (N, 4) x1, y1, x2, y2.
DistanceTargets box_to_distance(const torch::Tensor& points, const torch::Tensor& boxes, int64_t reg_max,
                                const torch::Tensor& reg_scale, const torch::Tensor& up);

}  // namespace libreyolo::models::dfine_network
