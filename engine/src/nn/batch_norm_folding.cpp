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
