#pragma once
// The exponential moving average's update, ema = d·ema + (1 − d)·model, for every pair of tensors
// at once: two multi-tensor kernels instead of two kernels per tensor (a YOLO's EMA holds hundreds
// of tensors, and the training step is launch-bound).
#include <torch/torch.h>

#include <vector>

namespace libreyolo::training {

// ema[i] and model[i] pair up; ema is updated in place, model only read.
inline void ema_blend(const std::vector<torch::Tensor>& ema, const std::vector<torch::Tensor>& model, double d) {
    torch::NoGradGuard no_grad;
    at::_foreach_mul_(ema, d);
    at::_foreach_add_(ema, model, 1 - d);
}

}  // namespace libreyolo::training
