#include "models/rtdetr/hybrid_encoder.h"

#include <cmath>

#include "graphs/concurrent_branches.h"

namespace libreyolo::models::rtdetr {
namespace F = torch::nn::functional;

HybridEncoderImpl::HybridEncoderImpl(const HybridEncoderOptions& o) : options_(o) {
    input_proj = register_module("input_proj", torch::nn::ModuleList());
    for (const int64_t in : o.in_channels) {
        projections_.add(
            torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, o.hidden_dim, 1).bias(false)),
                                  torch::nn::BatchNorm2d(o.hidden_dim)));
        input_proj->push_back(projections_.at(projections_.size() - 1));
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

torch::Tensor HybridEncoderImpl::aifi(const torch::Tensor& map) {
    const int64_t h = map.size(2), w = map.size(3);
    const torch::Tensor tokens = map.flatten(2).permute({0, 2, 1});
    const auto position = [&] {
        return sincos_position_embedding(w, h, options_.hidden_dim, options_.pe_temperature, tokens);
    };
    // The fused copy keeps the table in the tokens' dtype: the layer's cast is then no kernel.
    const auto kept = [&] {
        return position_tables_
            .get(ConstantTableCache::key(tokens, {h, w}),
                 [&] { return std::vector<torch::Tensor>{position().to(tokens.scalar_type())}; })
            .front();
    };
    const torch::Tensor pos = projections_.folded() ? kept() : position();
    const torch::Tensor out = aifi_(tokens, pos).permute({0, 2, 1}).reshape({-1, options_.hidden_dim, h, w});
    // The tokens already are a channels-last map: the fused copy keeps them so, no copy, and its
    // convolutions read them as they are.
    return projections_.folded() ? out.contiguous(torch::MemoryFormat::ChannelsLast) : out.contiguous();
}

std::vector<torch::Tensor> HybridEncoderImpl::forward(const std::vector<torch::Tensor>& feats) {
    TORCH_CHECK(feats.size() == 3, "the hybrid encoder takes three feature maps, got ", feats.size());
    std::vector<torch::Tensor> proj(3);
    if (projections_.folded()) {
        graphs::run_concurrently(feats[2].device(), {[&] { return proj[2] = aifi(projections_.forward(2, feats[2])); },
                                                     [&] { return proj[1] = projections_.forward(1, feats[1]); },
                                                     [&] { return proj[0] = projections_.forward(0, feats[0]); }});
    } else {
        for (std::size_t i = 0; i < 3; ++i) proj[i] = projections_.forward(i, feats[i]);
        proj[2] = aifi(proj[2]);  // AIFI on the stride-32 map
    }

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
