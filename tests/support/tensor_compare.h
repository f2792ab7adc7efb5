#pragma once
// How far a tensor is from the one it should equal: max |got - want| / max |want|, the measure the
// parity tests hold to a tolerance; index tensors as vectors; a backward's gradients checked.
#include <torch/torch.h>

#include <vector>

namespace libreyolo::testing {

inline double max_relative_difference(const torch::Tensor& got, const torch::Tensor& want) {
    return ((got - want).abs().max() / want.abs().max().clamp_min(1e-12)).item<double>();
}

inline std::vector<int64_t> to_vector(const torch::Tensor& t) {
    const torch::Tensor c = t.to(torch::kCPU, torch::kLong).contiguous();
    return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

// After a backward: how many parameters got a gradient, and whether every one is finite.
struct GradientCheck {
    int with_grad = 0;
    bool all_finite = true;
};
inline GradientCheck check_gradients(torch::nn::Module& net) {
    GradientCheck c;
    for (const auto& p : net.parameters())
        if (p.grad().defined()) {
            c.all_finite = c.all_finite && torch::isfinite(p.grad()).all().item<bool>();
            ++c.with_grad;
        }
    return c;
}

}  // namespace libreyolo::testing
