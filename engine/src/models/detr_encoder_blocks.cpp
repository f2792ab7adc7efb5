#include "models/detr_encoder_blocks.h"

namespace libreyolo::models {

RepVggBlockImpl::RepVggBlockImpl(int64_t in, int64_t out) {
    conv1 = register_module("conv1", ConvNormLayer(in, out, 3, 1, Activation::None));
    conv2 = register_module("conv2", ConvNormLayer(in, out, 1, 1, Activation::None));
}

torch::Tensor RepVggBlockImpl::forward(const torch::Tensor& x) {
    return torch::silu(conv1(x) + conv2(x));
}

CSPRepLayerImpl::CSPRepLayerImpl(int64_t in, int64_t out, int64_t blocks, double expansion) {
    const auto hidden = static_cast<int64_t>(static_cast<double>(out) * expansion);
    conv1 = register_module("conv1", ConvNormLayer(in, hidden, 1, 1, Activation::SiLU));
    conv2 = register_module("conv2", ConvNormLayer(in, hidden, 1, 1, Activation::SiLU));
    bottlenecks = register_module("bottlenecks", torch::nn::Sequential());
    for (int64_t i = 0; i < blocks; ++i) bottlenecks->push_back(RepVggBlock(hidden, hidden));
    if (hidden != out) conv3 = register_module("conv3", ConvNormLayer(hidden, out, 1, 1, Activation::SiLU));
}

torch::Tensor CSPRepLayerImpl::forward(const torch::Tensor& x) {
    const torch::Tensor y = bottlenecks->forward(conv1(x)) + conv2(x);
    return conv3 ? conv3(y) : y;
}

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead, int64_t dim_feedforward) {
    self_attn = register_module("self_attn", nn::MultiheadAttention(d_model, nhead, /*batch_first=*/true));
    linear1 = register_module("linear1", torch::nn::Linear(d_model, dim_feedforward));
    linear2 = register_module("linear2", torch::nn::Linear(dim_feedforward, d_model));
    norm1 = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    norm2 = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
}

torch::Tensor TransformerEncoderLayerImpl::forward(const torch::Tensor& src, const torch::Tensor& pos_embed) {
    const torch::Tensor q = src + pos_embed.to(src.scalar_type());
    torch::Tensor x = norm1(src + self_attn(q, q, src));
    return norm2(x + linear2(torch::gelu(linear1(x))));
}

}  // namespace libreyolo::models
