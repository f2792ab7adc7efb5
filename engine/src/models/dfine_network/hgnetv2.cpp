#include "models/dfine_network/hgnetv2.h"

#include <algorithm>
#include <array>
#include <map>

#include "libreyolo/errors.h"
#include "nn/frozen_batch_norm.h"

namespace libreyolo::models::dfine_network {

namespace F = torch::nn::functional;

namespace {

// One stage of an architecture: in, mid, out, block_num, downsample, light_block, kernel, layer_num.
struct StageConfig {
    int64_t in, mid, out, block_num;
    bool downsample, light_block;
    int64_t kernel, layer_num;
};

struct ArchConfig {
    std::array<int64_t, 3> stem;  // in, mid, out
    std::array<StageConfig, 4> stages;
};

const ArchConfig& arch_config(const std::string& arch) {
    static const std::map<std::string, ArchConfig> configs{
        {"B0",
         {{3, 16, 16},
          {{{16, 16, 64, 1, false, false, 3, 3},
            {64, 32, 256, 1, true, false, 3, 3},
            {256, 64, 512, 2, true, true, 5, 3},
            {512, 128, 1024, 1, true, true, 5, 3}}}}},
        {"B1",
         {{3, 24, 32},
          {{{32, 32, 64, 1, false, false, 3, 3},
            {64, 48, 256, 1, true, false, 3, 3},
            {256, 96, 512, 2, true, true, 5, 3},
            {512, 192, 1024, 1, true, true, 5, 3}}}}},
        {"B2",
         {{3, 24, 32},
          {{{32, 32, 96, 1, false, false, 3, 4},
            {96, 64, 384, 1, true, false, 3, 4},
            {384, 128, 768, 3, true, true, 5, 4},
            {768, 256, 1536, 1, true, true, 5, 4}}}}},
        {"B3",
         {{3, 24, 32},
          {{{32, 32, 128, 1, false, false, 3, 5},
            {128, 64, 512, 1, true, false, 3, 5},
            {512, 128, 1024, 3, true, true, 5, 5},
            {1024, 256, 2048, 1, true, true, 5, 5}}}}},
        {"B4",
         {{3, 32, 48},
          {{{48, 48, 128, 1, false, false, 3, 6},
            {128, 96, 512, 1, true, false, 3, 6},
            {512, 192, 1024, 3, true, true, 5, 6},
            {1024, 384, 2048, 1, true, true, 5, 6}}}}},
        {"B5",
         {{3, 32, 64},
          {{{64, 64, 128, 1, false, false, 3, 6},
            {128, 128, 512, 2, true, false, 3, 6},
            {512, 256, 1024, 5, true, true, 5, 6},
            {1024, 512, 2048, 2, true, true, 5, 6}}}}},
        {"B6",
         {{3, 48, 96},
          {{{96, 96, 192, 2, false, false, 3, 6},
            {192, 192, 512, 3, true, false, 3, 6},
            {512, 384, 1024, 6, true, true, 5, 6},
            {1024, 768, 2048, 3, true, true, 5, 6}}}}},
    };
    const auto found = configs.find(arch);
    if (found == configs.end()) throw InvalidArgument("HGNetv2: unknown architecture '" + arch + "' (B0 … B6)");
    return found->second;
}

void freeze(torch::nn::Module& module) {
    for (auto& p : module.parameters()) p.set_requires_grad(false);
}

}  // namespace

HGNetv2Options hgnetv2_options_for_size(const std::string& size) {
    HGNetv2Options o;
    if (size == "n") {
        o.arch = "B0";
        o.use_lab = true;
        o.return_idx = {2, 3};
        o.freeze_norm = false;
    } else if (size == "s" || size == "m") {
        o.arch = size == "s" ? "B0" : "B2";
        o.use_lab = true;
        o.freeze_norm = false;
    } else if (size == "l" || size == "x") {
        o.arch = size == "l" ? "B4" : "B5";
        o.use_lab = false;
        o.freeze_norm = true;
    } else {
        throw InvalidArgument("HGNetv2: unknown D-FINE size '" + size + "' (n, s, m, l, x)");
    }
    return o;
}

FrozenBatchNorm2dImpl::FrozenBatchNorm2dImpl(int64_t features, double eps) : eps_(eps) {
    weight_ = register_buffer("weight", torch::ones({features}));
    bias_ = register_buffer("bias", torch::zeros({features}));
    running_mean_ = register_buffer("running_mean", torch::zeros({features}));
    running_var_ = register_buffer("running_var", torch::ones({features}));
}

torch::Tensor FrozenBatchNorm2dImpl::forward(const torch::Tensor& x) {
    return nn::frozen_batch_norm(x, weight_, bias_, running_mean_, running_var_, eps_);
}

LearnableAffineBlockImpl::LearnableAffineBlockImpl() {
    scale_ = register_parameter("scale", torch::ones({1}));
    bias_ = register_parameter("bias", torch::zeros({1}));
}

torch::Tensor LearnableAffineBlockImpl::forward(const torch::Tensor& x) {
    return scale_ * x + bias_;
}

ConvBNActImpl::ConvBNActImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t groups, bool use_act,
                             bool use_lab, bool freeze_norm)
    : use_act_(use_act) {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                                                         .stride(stride)
                                                         .padding((kernel - 1) / 2)
                                                         .groups(groups)
                                                         .bias(false)));
    if (freeze_norm)
        frozen_bn = register_module("bn", FrozenBatchNorm2d(out));
    else
        bn = register_module("bn", torch::nn::BatchNorm2d(out));
    if (use_act && use_lab) lab = register_module("lab", LearnableAffineBlock());
}

torch::Tensor ConvBNActImpl::forward(const torch::Tensor& x) {
    torch::Tensor y = conv(x);
    y = frozen_bn ? frozen_bn(y) : bn(y);
    if (use_act_) y = torch::relu(y);
    if (lab) y = lab(y);
    return y;
}

LightConvBNActImpl::LightConvBNActImpl(int64_t in, int64_t out, int64_t kernel, bool use_lab, bool freeze_norm) {
    conv1 = register_module("conv1", ConvBNAct(in, out, 1, 1, 1, false, use_lab, freeze_norm));
    conv2 = register_module("conv2", ConvBNAct(out, out, kernel, 1, out, true, use_lab, freeze_norm));
}

torch::Tensor LightConvBNActImpl::forward(const torch::Tensor& x) {
    return conv2(conv1(x));
}

StemBlockImpl::StemBlockImpl(int64_t in, int64_t mid, int64_t out, bool use_lab, bool freeze_norm) {
    stem1 = register_module("stem1", ConvBNAct(in, mid, 3, 2, 1, true, use_lab, freeze_norm));
    stem2a = register_module("stem2a", ConvBNAct(mid, mid / 2, 2, 1, 1, true, use_lab, freeze_norm));
    stem2b = register_module("stem2b", ConvBNAct(mid / 2, mid, 2, 1, 1, true, use_lab, freeze_norm));
    stem3 = register_module("stem3", ConvBNAct(mid * 2, mid, 3, 2, 1, true, use_lab, freeze_norm));
    stem4 = register_module("stem4", ConvBNAct(mid, out, 1, 1, 1, true, use_lab, freeze_norm));
}

torch::Tensor StemBlockImpl::forward(const torch::Tensor& input) {
    // The 2x2 convolutions and the pool see the map padded by one on the right and bottom.
    const torch::Tensor x = F::pad(stem1(input), F::PadFuncOptions({0, 1, 0, 1}));
    const torch::Tensor x2 = stem2b(F::pad(stem2a(x), F::PadFuncOptions({0, 1, 0, 1})));
    const torch::Tensor x1 = F::max_pool2d(x, F::MaxPool2dFuncOptions(2).stride(1).ceil_mode(true));
    return stem4(stem3(torch::cat({x1, x2}, 1)));
}

HGBlockImpl::HGBlockImpl(int64_t in, int64_t mid, int64_t out, int64_t layer_num, int64_t kernel, bool residual,
                         bool light_block, bool use_lab, bool freeze_norm)
    : residual_(residual) {
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < layer_num; ++i) {
        const int64_t layer_in = i == 0 ? in : mid;
        if (light_block) {
            LightConvBNAct layer(layer_in, mid, kernel, use_lab, freeze_norm);
            layers->push_back(layer);
            chain_.emplace_back(layer);
        } else {
            ConvBNAct layer(layer_in, mid, kernel, 1, 1, true, use_lab, freeze_norm);
            layers->push_back(layer);
            chain_.emplace_back(layer);
        }
    }
    const int64_t total = in + layer_num * mid;
    aggregation = register_module("aggregation",
                                  torch::nn::Sequential(ConvBNAct(total, out / 2, 1, 1, 1, true, use_lab, freeze_norm),
                                                        ConvBNAct(out / 2, out, 1, 1, 1, true, use_lab, freeze_norm)));
}

torch::Tensor HGBlockImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> outputs{x};
    for (auto& layer : chain_) outputs.push_back(layer.forward(outputs.back()));
    torch::Tensor y = aggregation->forward(torch::cat(outputs, 1));
    return residual_ ? y + x : y;
}

HGStageImpl::HGStageImpl(int64_t in, int64_t mid, int64_t out, int64_t block_num, int64_t layer_num, bool downsample,
                         bool light_block, int64_t kernel, bool use_lab, bool freeze_norm) {
    if (downsample)
        this->downsample = register_module("downsample", ConvBNAct(in, in, 3, 2, in, false, use_lab, freeze_norm));
    blocks = register_module("blocks", torch::nn::Sequential());
    for (int64_t i = 0; i < block_num; ++i)
        blocks->push_back(
            HGBlock(i == 0 ? in : out, mid, out, layer_num, kernel, i != 0, light_block, use_lab, freeze_norm));
}

torch::Tensor HGStageImpl::forward(const torch::Tensor& x) {
    return blocks->forward(downsample ? downsample(x) : x);
}

HGNetv2Impl::HGNetv2Impl(const HGNetv2Options& o) : return_idx_(o.return_idx) {
    const ArchConfig& arch = arch_config(o.arch);
    stem = register_module("stem", StemBlock(arch.stem[0], arch.stem[1], arch.stem[2], o.use_lab, o.freeze_norm));
    stages = register_module("stages", torch::nn::ModuleList());
    for (const StageConfig& c : arch.stages) {
        HGStage stage(c.in, c.mid, c.out, c.block_num, c.layer_num, c.downsample, c.light_block, c.kernel, o.use_lab,
                      o.freeze_norm);
        stages->push_back(stage);
        stage_list_.push_back(stage);
    }
    for (int idx : return_idx_) {
        if (idx < 0 || idx >= static_cast<int>(arch.stages.size()))
            throw InvalidArgument("HGNetv2: return index " + std::to_string(idx) + " is not a stage (0 … 3)");
        out_channels_.push_back(arch.stages[static_cast<std::size_t>(idx)].out);
    }
    if (o.freeze_at >= 0) {
        freeze(*stem);
        if (!o.freeze_stem_only)
            for (int i = 0; i <= std::min<int>(o.freeze_at, static_cast<int>(stage_list_.size()) - 1); ++i)
                freeze(*stage_list_[static_cast<std::size_t>(i)]);
    }
}

std::vector<torch::Tensor> HGNetv2Impl::forward(const torch::Tensor& input) {
    torch::Tensor x = stem(input);
    std::vector<torch::Tensor> outs;
    for (std::size_t i = 0; i < stage_list_.size(); ++i) {
        x = stage_list_[i](x);
        if (std::find(return_idx_.begin(), return_idx_.end(), static_cast<int>(i)) != return_idx_.end())
            outs.push_back(x);
    }
    return outs;
}

}  // namespace libreyolo::models::dfine_network
