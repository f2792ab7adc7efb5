#include "models/rtdetr/hybrid_encoder.h"

#include <cmath>

#include "models/constant_tables.h"

namespace libreyolo::models::rtdetr {
namespace F = torch::nn::functional;

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
