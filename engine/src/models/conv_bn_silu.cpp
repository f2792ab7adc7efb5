#include "models/conv_bn_silu.h"

#include "distributed/sync_batch_norm.h"
#include "nn/flop_counter.h"

namespace libreyolo::models {

ConvImpl::ConvImpl(const ConvOptions& o)
    : activation_(o.activation() ? kernels::ConvActivation::SiLU : kernels::ConvActivation::None) {
    const int64_t padding = o.padding() >= 0 ? o.padding() : (o.kernel() - 1) / 2;
    conv = register_module("conv", quant::QuantConv2d(torch::nn::Conv2dOptions(o.in(), o.out(), o.kernel())
                                                          .stride(o.stride())
                                                          .padding(padding)
                                                          .groups(o.groups())
                                                          .bias(false)));
    bn = register_module("bn", torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(o.out()).eps(1e-3).momentum(0.03)));
}

torch::Tensor ConvImpl::forward(const torch::Tensor& x) {
    if (folded_) {
        const torch::Tensor y = kernels::conv_bias_act(x, conv->weight, conv->bias, *folded_, activation_);
        nn::count_conv_flops(*conv, y);
        return y;
    }
    torch::Tensor y = conv(x);
    nn::count_conv_flops(*conv, y);
    y = distributed::batch_norm(*bn, y);  // bn(y), or SyncBatchNorm in a distributed run
    return kernels::activate(y, activation_);
}

torch::Tensor ConvImpl::forward_add(const torch::Tensor& x, const torch::Tensor& residual) {
    if (!folded_) return residual + forward(x);
    const torch::Tensor y = kernels::conv_bias_act(x, conv->weight, conv->bias, *folded_, activation_, {}, residual);
    nn::count_conv_flops(*conv, y);
    return y;
}

void ConvImpl::forward_into(const torch::Tensor& x, const torch::Tensor& out, const torch::Tensor& residual) {
    if (!folded_) {
        out.copy_(residual.defined() ? residual + forward(x) : forward(x));
        return;
    }
    nn::count_conv_flops(*conv,
                         kernels::conv_bias_act(x, conv->weight, conv->bias, *folded_, activation_, out, residual));
}

void ConvImpl::fold_batch_norm() {
    if (folded_) return;
    nn::fold_into_conv(*conv, *bn);
    folded_ = kernels::conv_geometry(*conv);
}

}  // namespace libreyolo::models
