#include "models/dfine_network/hybrid_encoder.h"

#include <cmath>

#include "libreyolo/errors.h"
#include "models/constant_tables.h"

namespace libreyolo::models::dfine_network {

namespace F = torch::nn::functional;

namespace {

// Python's round(): halves to even, as std::nearbyint in the default rounding mode.
int64_t python_round(double v) {
    return static_cast<int64_t>(std::nearbyint(v));
}

}  // namespace

HybridEncoderOptions hybrid_encoder_options_for_size(const std::string& size) {
    HybridEncoderOptions o;
    if (size == "n") {
        o.in_channels = {512, 1024};
        o.hidden_dim = 128;
        o.dim_feedforward = 512;
        o.expansion = 0.34;
        o.depth_mult = 0.5;
        o.use_encoder_idx = {1};
    } else if (size == "s") {
        o.in_channels = {256, 512, 1024};
        o.expansion = 0.5;
        o.depth_mult = 0.34;
    } else if (size == "m") {
        o.in_channels = {384, 768, 1536};
        o.depth_mult = 0.67;
    } else if (size == "l") {
    } else if (size == "x") {
        o.hidden_dim = 384;
        o.dim_feedforward = 2048;
    } else {
        throw InvalidArgument("D-FINE encoder: unknown size '" + size + "' (n, s, m, l, x)");
    }
    return o;
}

RepNCSPELAN4Impl::RepNCSPELAN4Impl(int64_t c1, int64_t c2, int64_t c3, int64_t c4, int64_t blocks) : half_(c3 / 2) {
    cv1 = register_module("cv1", ConvNormLayer(c1, c3, 1, 1, Activation::SiLU));
    cv2 = register_module("cv2", torch::nn::Sequential(CSPRepLayer(c3 / 2, c4, blocks, 1.0),
                                                       ConvNormLayer(c4, c4, 3, 1, Activation::SiLU)));
    cv3 = register_module(
        "cv3", torch::nn::Sequential(CSPRepLayer(c4, c4, blocks, 1.0), ConvNormLayer(c4, c4, 3, 1, Activation::SiLU)));
    cv4 = register_module("cv4", ConvNormLayer(c3 + 2 * c4, c2, 1, 1, Activation::SiLU));
}

torch::Tensor RepNCSPELAN4Impl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> y = cv1(x).split({half_, half_}, 1);
    y.push_back(cv2->forward(y.back()));
    y.push_back(cv3->forward(y.back()));
    return cv4(torch::cat(y, 1));
}

SCDownImpl::SCDownImpl(int64_t c1, int64_t c2, int64_t k, int64_t s) {
    cv1 = register_module("cv1", ConvNormLayer(c1, c2, 1, 1, Activation::None));
    cv2 = register_module("cv2", ConvNormLayer(c2, c2, k, s, Activation::None, c2));
}

torch::Tensor SCDownImpl::forward(const torch::Tensor& x) {
    return cv2(cv1(x));
}

HybridEncoderImpl::HybridEncoderImpl(const HybridEncoderOptions& o) : options_(o) {
    const int64_t levels = static_cast<int64_t>(o.in_channels.size());
    if (levels < 2) throw InvalidArgument("D-FINE encoder: at least two input maps");
    for (int idx : o.use_encoder_idx)
        if (idx < 0 || idx >= levels)
            throw InvalidArgument("D-FINE encoder: encoder index " + std::to_string(idx) + " is not an input map");

    input_proj = register_module("input_proj", torch::nn::ModuleList());
    for (const int64_t in : o.in_channels) {
        torch::nn::Sequential proj;
        proj->push_back("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, o.hidden_dim, 1).bias(false)));
        proj->push_back("norm", torch::nn::BatchNorm2d(o.hidden_dim));
        projections_.push_back(proj);
        input_proj->push_back(proj);
    }
    // LibreYOLO's TransformerEncoder stacks: encoder[i].layers[0], one layer per encoded map.
    encoder = register_module("encoder", torch::nn::ModuleList());
    for (std::size_t i = 0; i < o.use_encoder_idx.size(); ++i) {
        auto stack = std::make_shared<torch::nn::Module>();
        auto layers = stack->register_module("layers", torch::nn::ModuleList());
        encoder_layers_.push_back(TransformerEncoderLayer(o.hidden_dim, o.nhead, o.dim_feedforward));
        layers->push_back(encoder_layers_.back());
        encoder->push_back(stack);
    }

    const int64_t c4 = python_round(std::floor(o.expansion * static_cast<double>(o.hidden_dim) / 2));
    const int64_t blocks = python_round(3 * o.depth_mult);
    lateral_convs = register_module("lateral_convs", torch::nn::ModuleList());
    fpn_blocks = register_module("fpn_blocks", torch::nn::ModuleList());
    downsample_convs = register_module("downsample_convs", torch::nn::ModuleList());
    pan_blocks = register_module("pan_blocks", torch::nn::ModuleList());
    for (int64_t i = 0; i + 1 < levels; ++i) {
        laterals_.push_back(ConvNormLayer(o.hidden_dim, o.hidden_dim, 1, 1, Activation::None));
        lateral_convs->push_back(laterals_.back());
        fpns_.push_back(RepNCSPELAN4(2 * o.hidden_dim, o.hidden_dim, 2 * o.hidden_dim, c4, blocks));
        fpn_blocks->push_back(fpns_.back());
    }
    for (int64_t i = 0; i + 1 < levels; ++i) {
        downsamples_.push_back(torch::nn::Sequential(SCDown(o.hidden_dim, o.hidden_dim, 3, 2)));
        downsample_convs->push_back(downsamples_.back());
        pans_.push_back(RepNCSPELAN4(2 * o.hidden_dim, o.hidden_dim, 2 * o.hidden_dim, c4, blocks));
        pan_blocks->push_back(pans_.back());
    }
}

std::vector<torch::Tensor> HybridEncoderImpl::forward(const std::vector<torch::Tensor>& feats) {
    const std::size_t levels = options_.in_channels.size();
    TORCH_CHECK(feats.size() == levels, "the D-FINE encoder takes ", levels, " feature maps, got ", feats.size());
    std::vector<torch::Tensor> proj;
    for (std::size_t i = 0; i < levels; ++i) proj.push_back(projections_[i]->forward(feats[i]));

    for (std::size_t i = 0; i < options_.use_encoder_idx.size(); ++i) {
        torch::Tensor& map = proj[static_cast<std::size_t>(options_.use_encoder_idx[i])];
        const int64_t h = map.size(2), w = map.size(3);
        const torch::Tensor tokens = map.flatten(2).permute({0, 2, 1});
        const torch::Tensor pos = sincos_position_embedding(w, h, options_.hidden_dim, options_.pe_temperature, tokens);
        map = encoder_layers_[i](tokens, pos).permute({0, 2, 1}).reshape({-1, options_.hidden_dim, h, w}).contiguous();
    }

    // Top-down FPN: inner[0] is the finest map built so far.
    std::vector<torch::Tensor> inner{proj.back()};
    for (std::size_t idx = levels - 1; idx > 0; --idx) {
        const std::size_t k = levels - 1 - idx;
        const torch::Tensor high = laterals_[k](inner.front());
        inner.front() = high;
        const torch::Tensor up = F::interpolate(
            high, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2.0, 2.0}).mode(torch::kNearest));
        inner.insert(inner.begin(), fpns_[k](torch::cat({up, proj[idx - 1]}, 1)));
    }
    // Bottom-up PAN.
    std::vector<torch::Tensor> outs{inner.front()};
    for (std::size_t idx = 0; idx + 1 < levels; ++idx) {
        const torch::Tensor down = downsamples_[idx]->forward(outs.back());
        outs.push_back(pans_[idx](torch::cat({down, inner[idx + 1]}, 1)));
    }
    return outs;
}

}  // namespace libreyolo::models::dfine_network
