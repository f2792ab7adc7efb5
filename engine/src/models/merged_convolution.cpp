#include "models/merged_convolution.h"

#include "nn/batch_norm_folding.h"
#include "nn/flop_counter.h"

namespace libreyolo::models {

void MergedConvolution::merge(torch::nn::Module& block, const torch::nn::Conv2dImpl& k3,
                              const torch::nn::Conv2dImpl& k1) {
    if (merged()) return;
    const nn::MergedBranches merged = nn::merge_3x3_and_1x1(k3, k1);
    weight_ = block.register_buffer("merged_weight", merged.weight);
    bias_ = block.register_buffer("merged_bias", merged.bias);
    geometry_ = kernels::conv_geometry(k3);
}

torch::Tensor MergedConvolution::forward(const torch::Tensor& x, kernels::ConvActivation activation,
                                         const torch::nn::Conv2dImpl& counted_as, const torch::Tensor& residual) const {
    const torch::Tensor y = kernels::conv_bias_act(x, weight_, bias_, *geometry_, activation, {}, residual);
    nn::count_conv_flops(counted_as, y);
    return y;
}

}  // namespace libreyolo::models
