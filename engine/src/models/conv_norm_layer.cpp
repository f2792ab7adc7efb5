#include "models/conv_norm_layer.h"

#include "libreyolo/errors.h"
#include "nn/flop_counter.h"
#include "nn/frozen_batch_norm.h"

namespace libreyolo::models {

ConvNormLayerImpl::ConvNormLayerImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride, Activation act,
                                     int64_t groups)
    : act_(act) {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                         .stride(stride)
                                                         .padding((kernel - 1) / 2)
                                                         .groups(groups)
                                                         .bias(false)));
    norm = register_module("norm", torch::nn::BatchNorm2d(out));
}

torch::Tensor ConvNormLayerImpl::forward(const torch::Tensor& x) {
    if (folded_) {
        const torch::Tensor y = kernels::conv_bias_act(x, conv->weight, conv->bias, *folded_, act_);
        nn::count_conv_flops(*conv, y);
        return y;
    }
    const torch::Tensor y = conv(x);
    nn::count_conv_flops(*conv, y);
    return kernels::activate(normalise(y), act_);
}

void ConvNormLayerImpl::normalise_as_frozen() {
    frozen_form_ = true;
    norm->weight.set_requires_grad(false);
    norm->bias.set_requires_grad(false);
}

torch::Tensor ConvNormLayerImpl::normalise(const torch::Tensor& y) {
    if (!frozen_form_) return norm(y);
    return nn::frozen_batch_norm(y, norm->weight, norm->bias, norm->running_mean, norm->running_var,
                                 norm->options.eps());
}

torch::Tensor ConvNormLayerImpl::forward_joined(const torch::Tensor& x, const torch::Tensor& residual,
                                                Activation after_sum) {
    if (act_ != Activation::None)
        throw InvalidArgument("ConvNormLayer::forward_joined: the layer has an activation of its own");
    if (!folded_) return kernels::activate(forward(x) + residual, after_sum);
    const torch::Tensor y = kernels::conv_bias_act(x, conv->weight, conv->bias, *folded_,
                                                   {after_sum, kernels::ResidualJoin::BeforeActivation}, {}, residual);
    nn::count_conv_flops(*conv, y);
    return y;
}

void ConvNormLayerImpl::fold_batch_norm() {
    if (folded_) return;
    nn::fold_into_conv(*conv, *norm);
    folded_ = kernels::conv_geometry(*conv);
}

}  // namespace libreyolo::models
