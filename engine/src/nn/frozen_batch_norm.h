#pragma once
// LibreYOLO's FrozenBatchNorm2d.forward, operation for operation: scale and shift from the running
// statistics first, then x * scale + shift. The same normalisation as BatchNorm2d in eval, rounded
// differently; the families whose LibreYOLO backbones load frozen (RT-DETR-r50, D-FINE-l/x, DEIM-l/x)
// compute it this way to match.
#include <torch/torch.h>

namespace libreyolo::nn {

inline torch::Tensor frozen_batch_norm(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                       const torch::Tensor& running_mean, const torch::Tensor& running_var,
                                       double eps) {
    const torch::Tensor scale = weight.reshape({1, -1, 1, 1}) * (running_var.reshape({1, -1, 1, 1}) + eps).rsqrt();
    const torch::Tensor shift = bias.reshape({1, -1, 1, 1}) - running_mean.reshape({1, -1, 1, 1}) * scale;
    return x * scale + shift;
}

}  // namespace libreyolo::nn
