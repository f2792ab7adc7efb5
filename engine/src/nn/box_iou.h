#pragma once
// IoU and Complete-IoU of xyxy boxes, as LibreYOLO's utils/box_ops.compute_iou (eps 1e-7, the
// CIoU aspect weight alpha outside autograd). Computed in float32, returned in the input dtype.
#include <torch/torch.h>

namespace libreyolo::nn {

enum class IouKind { Iou, Ciou };

// a (N, 4) with b (N, 4): elementwise → (N).
torch::Tensor box_iou_elementwise(const torch::Tensor& a, const torch::Tensor& b, IouKind kind);
// a (B, N, 4) with b (B, M, 4): every pair → (B, N, M).
torch::Tensor box_iou_batched_pairs(const torch::Tensor& a, const torch::Tensor& b, IouKind kind);

}  // namespace libreyolo::nn
