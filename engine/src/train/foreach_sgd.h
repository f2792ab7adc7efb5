#pragma once
// SGD (momentum, Nesterov, weight decay, per-group options) whose step updates every parameter of
// a group with a handful of multi-tensor (_foreach) kernels, as PyTorch's Python SGD does on CUDA
// by default. LibTorch's torch::optim::SGD walks the parameters one by one, four or five kernels
// each: on a YOLO with hundreds of parameter tensors that is thousands of launches a step, which
// made the optimizer a large part of a launch-bound training step. Same update rule, same state
// (momentum_buffer) and the same checkpoint format as torch::optim::SGD.
#include <torch/torch.h>

namespace libreyolo::training {

class ForeachSGD : public torch::optim::SGD {
public:
    using torch::optim::SGD::SGD;
    torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace libreyolo::training
