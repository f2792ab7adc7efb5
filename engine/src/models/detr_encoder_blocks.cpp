#include "models/detr_encoder_blocks.h"

#include "graphs/concurrent_branches.h"

namespace libreyolo::models {

RepVggBlockImpl::RepVggBlockImpl(int64_t in, int64_t out) {
    conv1 = register_module("conv1", ConvNormLayer(in, out, 3, 1, Activation::None));
    conv2 = register_module("conv2", ConvNormLayer(in, out, 1, 1, Activation::None));
}

torch::Tensor RepVggBlockImpl::forward(const torch::Tensor& x) {
    return forward_add(x, torch::Tensor());
}

torch::Tensor RepVggBlockImpl::forward_add(const torch::Tensor& x, const torch::Tensor& residual) {
    if (merged_.merged()) return merged_.forward(x, kernels::ConvActivation::SiLU, *conv1->conv, residual);
    const torch::Tensor y = torch::silu(conv1(x) + conv2(x));
    return residual.defined() ? y + residual : y;
}

void RepVggBlockImpl::merge_branches() {
    conv1->fold_batch_norm();
    conv2->fold_batch_norm();
    merged_.merge(*this, *conv1->conv, *conv2->conv);
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
    if (!bottlenecks->is_empty() && bottlenecks->ptr<RepVggBlockImpl>(bottlenecks->size() - 1)->merged())
        return forward_merged(x);
    const torch::Tensor y = bottlenecks->forward(conv1(x)) + conv2(x);
    return conv3 ? conv3(y) : y;
}

torch::Tensor CSPRepLayerImpl::forward_merged(const torch::Tensor& x) {
    const std::size_t last = bottlenecks->size() - 1;
    torch::Tensor h;
    const graphs::Branch blocks = [&] {
        h = conv1(x);
        for (std::size_t i = 0; i < last; ++i) h = bottlenecks->ptr<RepVggBlockImpl>(i)->forward(h);
        return torch::Tensor();
    };
    const graphs::Branch shortcut = [&] { return conv2(x); };
    const torch::Tensor added = graphs::run_concurrently(x.device(), {blocks, shortcut}).at(1);
    const torch::Tensor y = bottlenecks->ptr<RepVggBlockImpl>(last)->forward_add(h, added);
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
