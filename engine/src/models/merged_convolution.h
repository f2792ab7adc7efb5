#pragma once
// The one convolution that a block's folded 3x3 and 1x1 branches merge into on the fused copy
// (nn::merge_3x3_and_1x1): its weight and bias registered on the block as buffers "merged_weight"
// and "merged_bias", so that they follow the copy's device, dtype and channels-last layout, and the
// 3x3's geometry. YOLOv9's RepConvN and the DETR encoders' RepVgg block keep one.
#include <torch/torch.h>

#include <optional>

#include "kernels/conv_bias_act_slot.h"

namespace libreyolo::models {

class MergedConvolution {
public:
    // Merges the folded branches k3 and k1 of `block`; a second call does nothing.
    void merge(torch::nn::Module& block, const torch::nn::Conv2dImpl& k3, const torch::nn::Conv2dImpl& k1);
    bool merged() const { return geometry_.has_value(); }
    // act(conv(x) + bias), plus residual when given: one conv_bias_act call, counted as `counted_as`'s
    // FLOPs (the 3x3 branch, whose shape the merged convolution has).
    torch::Tensor forward(const torch::Tensor& x, kernels::ConvActivation activation,
                          const torch::nn::Conv2dImpl& counted_as, const torch::Tensor& residual = {}) const;
    const torch::Tensor& weight() const { return weight_; }
    const torch::Tensor& bias() const { return bias_; }
    const std::optional<kernels::ConvGeometry>& geometry() const { return geometry_; }

private:
    std::optional<kernels::ConvGeometry> geometry_;  // set once merged
    torch::Tensor weight_, bias_;
};

}  // namespace libreyolo::models
