#pragma once
// The DETR families' input projections: LibreYOLO's nn.Sequential(Conv2d, BatchNorm2d) per feature
// map, whose keys (input_proj.i.0|1 in the encoder, input_proj.i.conv|norm in the decoder) stay those
// of the Sequential. The owning module folds them on the fused copy (nn::BatchNormFoldable): each is
// then one conv_bias_act call instead of a convolution and a batch norm, and can write straight into
// a tensor of the caller's (a view of the decoder's flattened memory).
#include <torch/torch.h>

#include <vector>

#include "kernels/conv_bias_act_slot.h"

namespace libreyolo::models {

class ConvBnProjections {
public:
    void add(torch::nn::Sequential projection) { layers_.push_back(std::move(projection)); }
    std::size_t size() const { return layers_.size(); }
    const torch::nn::Sequential& at(std::size_t i) const { return layers_.at(i); }
    // Folds every projection's batch norm into its convolution; a second call does nothing.
    void fold();
    bool folded() const { return !folded_.empty(); }
    // Projection i of x; written into out when given (the result's shape; a new tensor otherwise).
    torch::Tensor forward(std::size_t i, const torch::Tensor& x, const torch::Tensor& out = {}) const;

private:
    std::vector<torch::nn::Sequential> layers_;
    std::vector<kernels::ConvGeometry> folded_;  // one per projection once folded
};

}  // namespace libreyolo::models
