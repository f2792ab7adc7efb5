#include "nn/batch_norm_folding.h"

namespace libreyolo::nn {

void fold_into_conv(torch::nn::Conv2dImpl& conv, const torch::nn::BatchNorm2dImpl& bn) {
    torch::NoGradGuard no_grad;
    const auto dtype = conv.weight.scalar_type();
    const torch::Tensor scale =
        bn.weight.to(torch::kFloat64) / (bn.running_var.to(torch::kFloat64) + bn.options.eps()).sqrt();
    const torch::Tensor bias =
        conv.bias.defined() ? conv.bias.to(torch::kFloat64) : torch::zeros_like(bn.running_mean, torch::kFloat64);
    const torch::Tensor weight = conv.weight.to(torch::kFloat64) * scale.view({-1, 1, 1, 1});
    conv.weight.set_data(weight.to(dtype));
    conv.bias = ((bias - bn.running_mean.to(torch::kFloat64)) * scale + bn.bias.to(torch::kFloat64)).to(dtype);
}

MergedBranches merge_3x3_and_1x1(const torch::nn::Conv2dImpl& k3, const torch::nn::Conv2dImpl& k1) {
    TORCH_CHECK(k3.weight.size(-1) == 3 && k1.weight.size(-1) == 1 && k3.weight.size(0) == k1.weight.size(0) &&
                    k3.weight.size(1) == k1.weight.size(1),
                "merge_3x3_and_1x1: a 3x3 and a 1x1 convolution of the same channels, got ", k3.weight.sizes(), " and ",
                k1.weight.sizes());
    TORCH_CHECK(k3.bias.defined() && k1.bias.defined(), "merge_3x3_and_1x1: both convolutions must be folded");
    torch::NoGradGuard no_grad;
    const auto dtype = k3.weight.scalar_type();
    const torch::Tensor weight =
        k3.weight.to(torch::kFloat64) + torch::constant_pad_nd(k1.weight.to(torch::kFloat64), {1, 1, 1, 1});
    const torch::Tensor bias = k3.bias.to(torch::kFloat64) + k1.bias.to(torch::kFloat64);
    return {weight.to(dtype), bias.to(dtype)};
}

int fold_batch_norms(torch::nn::Module& net) {
    int folded = 0;
    for (const auto& module : net.modules(/*include_self=*/true))
        if (auto* block = dynamic_cast<BatchNormFoldable*>(module.get())) {
            block->fold_batch_norm();
            ++folded;
        }
    for (const auto& module : net.modules(/*include_self=*/true))
        if (auto* block = dynamic_cast<BranchMergeable*>(module.get())) block->merge_branches();
    return folded;
}

}  // namespace libreyolo::nn
