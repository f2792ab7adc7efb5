#include "models/rtdetr/hybrid_encoder.h"

#include <cmath>

#include "models/rtdetr/box_ops.h"

namespace libreyolo::models::rtdetr {
namespace F = torch::nn::functional;

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

HybridEncoderImpl::HybridEncoderImpl(const HybridEncoderOptions& o) : options_(o) {
    input_proj = register_module("input_proj", torch::nn::ModuleList());
    for (const int64_t in : o.in_channels) {
        projections_.push_back(
            torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, o.hidden_dim, 1).bias(false)),
                                  torch::nn::BatchNorm2d(o.hidden_dim)));
        input_proj->push_back(projections_.back());
    }
    // LibreYOLO's TransformerEncoder stack: encoder[i].layers[j]; RT-DETR uses one layer on one map.
    encoder = register_module("encoder", torch::nn::ModuleList());
    auto stack = std::make_shared<torch::nn::Module>();
    auto layers = stack->register_module("layers", torch::nn::ModuleList());
    aifi_ = TransformerEncoderLayer(o.hidden_dim, o.nhead, o.dim_feedforward);
    layers->push_back(aifi_);
    encoder->push_back(stack);

    lateral_convs = register_module("lateral_convs", torch::nn::ModuleList());
    fpn_blocks = register_module("fpn_blocks", torch::nn::ModuleList());
    downsample_convs = register_module("downsample_convs", torch::nn::ModuleList());
    pan_blocks = register_module("pan_blocks", torch::nn::ModuleList());
    for (int i = 0; i < 2; ++i) {
        laterals_.push_back(ConvNormLayer(o.hidden_dim, o.hidden_dim, 1, 1, Activation::SiLU));
        lateral_convs->push_back(laterals_.back());
        fpns_.push_back(CSPRepLayer(2 * o.hidden_dim, o.hidden_dim, o.csp_blocks, o.expansion));
        fpn_blocks->push_back(fpns_.back());
    }
    for (int i = 0; i < 2; ++i) {
        downsamples_.push_back(ConvNormLayer(o.hidden_dim, o.hidden_dim, 3, 2, Activation::SiLU));
        downsample_convs->push_back(downsamples_.back());
        pans_.push_back(CSPRepLayer(2 * o.hidden_dim, o.hidden_dim, o.csp_blocks, o.expansion));
        pan_blocks->push_back(pans_.back());
    }
}

torch::Tensor HybridEncoderImpl::sincos_position_embedding(int64_t w, int64_t h, int64_t embed_dim, double temperature,
                                                           const torch::Tensor& like) {
    TORCH_CHECK(embed_dim % 4 == 0, "embed_dim must be divisible by 4 for the 2-D sin-cos embedding, got ", embed_dim);
    const auto table = torch::TensorOptions().dtype(constant_table_dtype(like.scalar_type())).device(like.device());
    const auto grids = torch::meshgrid({torch::arange(w, table), torch::arange(h, table)}, "ij");
    const int64_t pos_dim = embed_dim / 4;
    const torch::Tensor omega = 1.0 / torch::pow(temperature, torch::arange(pos_dim, table) / pos_dim);
    const torch::Tensor out_w = grids[0].flatten().unsqueeze(-1).matmul(omega.unsqueeze(0));
    const torch::Tensor out_h = grids[1].flatten().unsqueeze(-1).matmul(omega.unsqueeze(0));
    return torch::cat({out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()}, 1).unsqueeze(0);
}

std::vector<torch::Tensor> HybridEncoderImpl::forward(const std::vector<torch::Tensor>& feats) {
    TORCH_CHECK(feats.size() == 3, "the hybrid encoder takes three feature maps, got ", feats.size());
    std::vector<torch::Tensor> proj;
    for (std::size_t i = 0; i < 3; ++i) proj.push_back(projections_[i]->forward(feats[i]));

    // AIFI on the stride-32 map.
    const int64_t h = proj[2].size(2), w = proj[2].size(3);
    const torch::Tensor tokens = proj[2].flatten(2).permute({0, 2, 1});
    const torch::Tensor pos = sincos_position_embedding(w, h, options_.hidden_dim, options_.pe_temperature, tokens);
    proj[2] = aifi_(tokens, pos).permute({0, 2, 1}).reshape({-1, options_.hidden_dim, h, w}).contiguous();

    // Top-down FPN: inner[0] is the finest map built so far.
    std::vector<torch::Tensor> inner = {proj[2]};
    for (int idx = 2; idx > 0; --idx) {
        const int k = 2 - idx;
        const torch::Tensor high = laterals_[k](inner.front());
        inner.front() = high;
        const torch::Tensor up = F::interpolate(
            high, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2.0, 2.0}).mode(torch::kNearest));
        inner.insert(inner.begin(), fpns_[k](torch::cat({up, proj[idx - 1]}, 1)));
    }
    // Bottom-up PAN.
    std::vector<torch::Tensor> outs = {inner[0]};
    for (int idx = 0; idx < 2; ++idx)
        outs.push_back(pans_[idx](torch::cat({downsamples_[idx](outs.back()), inner[idx + 1]}, 1)));
    return outs;
}

}  // namespace libreyolo::models::rtdetr
