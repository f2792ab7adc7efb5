#pragma once
// Box conversions and pairwise IoU / generalized IoU as LibreYOLO's RT-DETR uses them
// (libreyolo/models/rtdetr/box_ops.py: union + 1e-6 and area + 1e-6 in the denominators).
#include <torch/torch.h>

namespace libreyolo::models::rtdetr {

torch::Tensor cxcywh_to_xyxy(const torch::Tensor& boxes);
// log(x / (1 - x)) with x clipped to [0, 1] and both parts to at least eps (LibreYOLO's utils).
torch::Tensor inverse_sigmoid(const torch::Tensor& x, double eps = 1e-5);

// The dtype of the constant tables (position embedding, anchors) for a model computing in `compute`:
// LibreYOLO builds them in float32 whatever the model's precision, and so do we, except that a
// float64 model builds them in float64, so its results do not hang on the CPU's float32 sin, cos and
// log kernels (which differ in the last bit between AVX-512, AVX2 and plain builds).
torch::Dtype constant_table_dtype(torch::Dtype compute);
torch::Tensor xyxy_to_cxcywh(const torch::Tensor& boxes);

struct PairwiseIou {
    torch::Tensor iou, union_area;  // (N, M)
};
// a (N, 4), b (M, 4) xyxy.
PairwiseIou box_iou(const torch::Tensor& a, const torch::Tensor& b);
torch::Tensor generalized_box_iou(const torch::Tensor& a, const torch::Tensor& b);

}  // namespace libreyolo::models::rtdetr
