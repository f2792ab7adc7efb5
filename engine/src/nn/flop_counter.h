#pragma once
// A network's size for `libreyolo info`: its parameter count, and the convolution FLOPs of a forward
// pass (GFLOPs like Ultralytics: two operations per multiply-add, convolutions only). FLOP counting
// is off unless a FlopScope is alive on this thread, so ordinary forwards pay one thread-local load
// per convolution.
#include <torch/torch.h>

#include <unordered_set>

namespace libreyolo::nn {

class FlopScope {
public:
    FlopScope();
    ~FlopScope();
    FlopScope(const FlopScope&) = delete;
    FlopScope& operator=(const FlopScope&) = delete;
    double total() const { return total_; }

private:
    friend void count_conv_flops(const torch::nn::Conv2dImpl& conv, const torch::Tensor& output);
    double total_ = 0;
    FlopScope* previous_ = nullptr;
};

void count_conv_flops(const torch::nn::Conv2dImpl& conv, const torch::Tensor& output);

// A parameter registered under two names (D-FINE's up and reg_scale) counts once, as in torch.
inline std::int64_t count_parameters(const torch::nn::Module& module) {
    std::unordered_set<const void*> seen;
    std::int64_t n = 0;
    for (const auto& p : module.parameters())
        if (seen.insert(p.unsafeGetTensorImpl()).second) n += p.numel();
    return n;
}

}  // namespace libreyolo::nn
