#include "train/foreach_sgd.h"

namespace libreyolo::training {

torch::Tensor ForeachSGD::step(LossClosure closure) {
    torch::NoGradGuard no_grad;
    torch::Tensor loss;
    if (closure) {
        torch::AutoGradMode enable_grad(true);
        loss = closure();
    }
    for (auto& group : param_groups_) {
        const auto& options = static_cast<const torch::optim::SGDOptions&>(group.options());
        std::vector<torch::Tensor> params, grads;
        for (const auto& p : group.params()) {
            if (!p.grad().defined()) continue;
            params.push_back(p);
            grads.push_back(p.grad());
        }
        if (params.empty()) continue;
        // d_p = grad + weight_decay * p (a new list: the gradients stay as backward left them).
        std::vector<torch::Tensor> steps =
            options.weight_decay() != 0 ? at::_foreach_add(grads, params, options.weight_decay()) : grads;
        if (options.momentum() != 0) {
            // The first step of a parameter starts its buffer at d_p; later steps blend into it.
            std::vector<torch::Tensor> buffers, blended, blended_steps;
            for (std::size_t i = 0; i < params.size(); ++i) {
                auto found = state_.find(params[i].unsafeGetTensorImpl());
                if (found == state_.end()) {
                    auto state = std::make_unique<torch::optim::SGDParamState>();
                    state->momentum_buffer(steps[i].clone().detach());
                    buffers.push_back(state->momentum_buffer());
                    state_[params[i].unsafeGetTensorImpl()] = std::move(state);
                } else {
                    auto& state = static_cast<torch::optim::SGDParamState&>(*found->second);
                    buffers.push_back(state.momentum_buffer());
                    blended.push_back(state.momentum_buffer());
                    blended_steps.push_back(steps[i]);
                }
            }
            if (!blended.empty()) {
                at::_foreach_mul_(blended, options.momentum());
                at::_foreach_add_(blended, blended_steps, 1 - options.dampening());
            }
            steps = options.nesterov() ? at::_foreach_add(steps, buffers, options.momentum()) : buffers;
        }
        at::_foreach_add_(params, steps, -options.lr());
    }
    return loss;
}

}  // namespace libreyolo::training
