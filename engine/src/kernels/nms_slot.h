#pragma once
// The nms slot: class-aware non-maximum suppression. Reference: the portable implementation
// (kernels/nms.h, torchvision's decisions). Prediction calls the slot.
#include <torch/torch.h>

#include "kernels/slot.h"

namespace libreyolo::kernels {

// boxes (N, 4) xyxy, scores (N), classes (N); the kept indices, by descending score.
using NmsSignature = torch::Tensor(const torch::Tensor& boxes, const torch::Tensor& scores,
                                   const torch::Tensor& classes, double iou_threshold);

Slot<NmsSignature>& nms_slot();

}  // namespace libreyolo::kernels
