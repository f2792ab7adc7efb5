#pragma once
// Box conversions and pairwise IoU / generalized IoU as LibreYOLO's DETR families use them
// (libreyolo/models/rtdetr/box_ops.py: union + 1e-6 and area + 1e-6 in the denominators).
#include <torch/torch.h>

namespace libreyolo::models {

torch::Tensor cxcywh_to_xyxy(const torch::Tensor& boxes);
// log(x / (1 - x)) with x clipped to [0, 1] and both parts to at least eps (LibreYOLO's utils).
torch::Tensor inverse_sigmoid(const torch::Tensor& x, double eps = 1e-5);

torch::Tensor xyxy_to_cxcywh(const torch::Tensor& boxes);

struct PairwiseIou {
    torch::Tensor iou, union_area;  // (N, M)
};
// a (N, 4), b (M, 4) xyxy.
PairwiseIou box_iou(const torch::Tensor& a, const torch::Tensor& b);
torch::Tensor generalized_box_iou(const torch::Tensor& a, const torch::Tensor& b);

}  // namespace libreyolo::models
