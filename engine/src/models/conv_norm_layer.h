#pragma once
// The DETR families' ConvNormLayer (LibreYOLO's libreyolo/models/rtdetr/backbone.py): Conv2d without bias,
// padding (k - 1) / 2, then BatchNorm2d with PyTorch's defaults, then an optional activation. The
// backbone and the hybrid encoder both build from it, and D-FINE's encoder (its ConvNormLayer_fuse,
// the same layer with groups).
#include <torch/torch.h>

#include <optional>

#include "kernels/conv_bias_act_slot.h"
#include "nn/batch_norm_folding.h"

namespace libreyolo::models {

// The activations the DETR families' blocks use; the fused path hands them to conv_bias_act as they are.
using Activation = kernels::ConvActivation;

class ConvNormLayerImpl : public torch::nn::Module, public nn::BatchNormFoldable {
public:
    ConvNormLayerImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride, Activation act, int64_t groups = 1);
    torch::Tensor forward(const torch::Tensor& x);
    // after_sum(forward(x) + residual) for a layer without an activation of its own: a residual
    // block's last convolution and the block's sum and activation. Once folded, one conv_bias_act
    // call whose epilogue adds the residual before the activation.
    torch::Tensor forward_joined(const torch::Tensor& x, const torch::Tensor& residual, Activation after_sum);
    void fold_batch_norm() override;
    // LibreYOLO builds RT-DETR-r50's backbone (and larger) with FrozenBatchNorm2d when it loads
    // weights: y * scale + shift from the running statistics, scale and shift computed first, in
    // training too, the statistics never updated and the affine terms never trained. From this call
    // on the layer normalises that way.
    void normalise_as_frozen();
    bool folded() const { return folded_.has_value(); }  // norm lives in conv's weight and bias
    Activation activation() const { return act_; }
    torch::nn::Conv2d conv{nullptr};
    torch::nn::BatchNorm2d norm{nullptr};

private:
    torch::Tensor normalise(const torch::Tensor& y);
    Activation act_;
    bool frozen_form_ = false;
    // Set when norm lives in conv's weight and bias: the block is then one conv_bias_act call.
    std::optional<kernels::ConvGeometry> folded_;
};
TORCH_MODULE(ConvNormLayer);

}  // namespace libreyolo::models
