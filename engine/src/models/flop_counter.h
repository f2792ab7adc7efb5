#pragma once
// Counts convolution FLOPs during a forward pass, for `libreyolo info` (GFLOPs like Ultralytics:
// two operations per multiply-add, convolutions only). Off unless a FlopScope is alive on this
// thread, so ordinary forwards pay one thread-local load per convolution.
#include <torch/torch.h>

namespace libreyolo::models {

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

}  // namespace libreyolo::models
