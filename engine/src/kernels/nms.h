#pragma once
// The portable class-aware NMS: the reference of the kernel registry's nms slot
// (kernels/nms_slot.h), which is what prediction calls.
#include <torch/torch.h>

namespace libreyolo::kernels {

// boxes (N, 4) xyxy, scores (N), classes (N, integer). Returns kept indices (int64) ordered by
// descending score. Boxes of different classes never suppress each other. Same decisions as
// torchvision.ops.batched_nms (coordinate-offset trick for small inputs, per class above 1,000 boxes).
torch::Tensor nms_keep(const torch::Tensor& boxes, const torch::Tensor& scores, const torch::Tensor& classes,
                       double iou_threshold);

// Greedy single-class NMS on float32 CPU boxes, as torchvision's CPU kernel.
torch::Tensor nms_single_class(const torch::Tensor& boxes, const torch::Tensor& scores, double iou_threshold);

}  // namespace libreyolo::kernels
