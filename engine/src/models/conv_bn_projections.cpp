#include "models/conv_bn_projections.h"

#include "nn/batch_norm_folding.h"

namespace libreyolo::models {

namespace {
torch::nn::Conv2dImpl& convolution(const torch::nn::Sequential& p) {
    return *p->ptr(0)->as<torch::nn::Conv2dImpl>();
}
}  // namespace

void ConvBnProjections::fold() {
    if (folded()) return;
    for (const torch::nn::Sequential& p : layers_) {
        nn::fold_into_conv(convolution(p), *p->ptr(1)->as<torch::nn::BatchNorm2dImpl>());
        folded_.push_back(kernels::conv_geometry(convolution(p)));
    }
}

torch::Tensor ConvBnProjections::forward(std::size_t i, const torch::Tensor& x, const torch::Tensor& out) const {
    if (!folded()) {
        torch::nn::Sequential projection = layers_.at(i);  // a holder of its own: forward is not const
        return kernels::write_into(out, projection->forward(x));
    }
    torch::nn::Conv2dImpl& conv = convolution(layers_.at(i));
    return kernels::conv_bias_act(x, conv.weight, conv.bias, folded_.at(i), kernels::ConvActivation::None, out);
}

}  // namespace libreyolo::models
