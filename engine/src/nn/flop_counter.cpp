#include "nn/flop_counter.h"

namespace libreyolo::nn {
namespace {
thread_local FlopScope* active_scope = nullptr;
}

FlopScope::FlopScope() : previous_(active_scope) {
    active_scope = this;
}
FlopScope::~FlopScope() {
    active_scope = previous_;
}

void count_conv_flops(const torch::nn::Conv2dImpl& conv, const torch::Tensor& output) {
    if (active_scope == nullptr) return;
    const double per_output_pixel = static_cast<double>(conv.weight.numel());
    active_scope->total_ += 2.0 * per_output_pixel * output.size(0) * output.size(2) * output.size(3);
}

}  // namespace libreyolo::nn
