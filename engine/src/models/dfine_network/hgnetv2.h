#pragma once
// HGNetv2, the backbone of every D-FINE and DEIM size, with LibreYOLO's module names
// (libreyolo/models/dfine/backbone.py, itself D-FINE's), so its state_dict keys are LibreYOLO's:
// a stem (stride-4, with a 2x2 max-pool branch), four stages of HG blocks (a chain of 3x3 or
// light 1x1 + depthwise convolutions, all outputs concatenated and squeezed back by two 1x1
// convolutions), each stage after the first halving the resolution with a depthwise 3x3.
// Convolutions are followed by BatchNorm (frozen, as FrozenBatchNorm2d, where LibreYOLO freezes
// it: sizes l and x), ReLU and, for n/s/m, a learnable affine scale and bias.
#include <torch/torch.h>

#include <string>
#include <vector>

namespace libreyolo::models::dfine_network {

struct HGNetv2Options {
    std::string arch = "B0";               // B0 … B6
    bool use_lab = false;                  // LearnableAffineBlock after each activation
    std::vector<int> return_idx{1, 2, 3};  // stages whose outputs forward returns
    bool freeze_stem_only = true;          // with freeze_at ≥ 0: freeze the stem (and no stage)
    int freeze_at = 0;                     // -1: nothing frozen
    bool freeze_norm = true;               // FrozenBatchNorm2d in place of BatchNorm2d
};

// LibreYOLO's backbone settings for a D-FINE/DEIM size: n, s, m, l or x. Throws InvalidArgument.
HGNetv2Options hgnetv2_options_for_size(const std::string& size);

// BatchNorm with fixed statistics and affine parameters (buffers, not parameters), computed as
// x · w/√(var + eps) + (b − mean · w/√(var + eps)).
class FrozenBatchNorm2dImpl : public torch::nn::Module {
public:
    explicit FrozenBatchNorm2dImpl(int64_t features, double eps = 1e-5);
    torch::Tensor forward(const torch::Tensor& x);

private:
    torch::Tensor weight_, bias_, running_mean_, running_var_;
    double eps_;
};
TORCH_MODULE(FrozenBatchNorm2d);

// y = scale · x + bias, two learnable scalars.
class LearnableAffineBlockImpl : public torch::nn::Module {
public:
    LearnableAffineBlockImpl();
    torch::Tensor forward(const torch::Tensor& x);

private:
    torch::Tensor scale_, bias_;
};
TORCH_MODULE(LearnableAffineBlock);

// Convolution (no bias, padding (k − 1) / 2), BatchNorm, then ReLU and the affine block when asked.
class ConvBNActImpl : public torch::nn::Module {
public:
    ConvBNActImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t groups, bool use_act, bool use_lab,
                  bool freeze_norm);
    torch::Tensor forward(const torch::Tensor& x);

private:
    torch::nn::Conv2d conv{nullptr};
    torch::nn::BatchNorm2d bn{nullptr};
    FrozenBatchNorm2d frozen_bn{nullptr};
    LearnableAffineBlock lab{nullptr};
    bool use_act_;
};
TORCH_MODULE(ConvBNAct);

// LightConvBNAct: a 1x1 convolution without activation, then a depthwise k x k one with it.
class LightConvBNActImpl : public torch::nn::Module {
public:
    LightConvBNActImpl(int64_t in, int64_t out, int64_t kernel, bool use_lab, bool freeze_norm);
    torch::Tensor forward(const torch::Tensor& x);

private:
    ConvBNAct conv1{nullptr}, conv2{nullptr};
};
TORCH_MODULE(LightConvBNAct);

class StemBlockImpl : public torch::nn::Module {
public:
    StemBlockImpl(int64_t in, int64_t mid, int64_t out, bool use_lab, bool freeze_norm);
    torch::Tensor forward(const torch::Tensor& x);

private:
    ConvBNAct stem1{nullptr}, stem2a{nullptr}, stem2b{nullptr}, stem3{nullptr}, stem4{nullptr};
};
TORCH_MODULE(StemBlock);

// HG_Block: layer_num convolutions in a chain; the input and every output concatenated, then a
// 1x1 squeeze to out/2 and a 1x1 excitation to out ("se" aggregation); plus the input when residual.
class HGBlockImpl : public torch::nn::Module {
public:
    HGBlockImpl(int64_t in, int64_t mid, int64_t out, int64_t layer_num, int64_t kernel, bool residual,
                bool light_block, bool use_lab, bool freeze_norm);
    torch::Tensor forward(const torch::Tensor& x);

private:
    torch::nn::ModuleList layers{nullptr};
    std::vector<torch::nn::AnyModule> chain_;  // the same layers, callable
    torch::nn::Sequential aggregation{nullptr};
    bool residual_;
};
TORCH_MODULE(HGBlock);

// HG_Stage: an optional depthwise stride-2 3x3 (no activation), then block_num HG blocks.
class HGStageImpl : public torch::nn::Module {
public:
    HGStageImpl(int64_t in, int64_t mid, int64_t out, int64_t block_num, int64_t layer_num, bool downsample,
                bool light_block, int64_t kernel, bool use_lab, bool freeze_norm);
    torch::Tensor forward(const torch::Tensor& x);

private:
    ConvBNAct downsample{nullptr};
    torch::nn::Sequential blocks{nullptr};
};
TORCH_MODULE(HGStage);

class HGNetv2Impl : public torch::nn::Module {
public:
    explicit HGNetv2Impl(const HGNetv2Options& options);
    std::vector<torch::Tensor> forward(const torch::Tensor& x);
    // Channels of each returned output, in order.
    const std::vector<int64_t>& out_channels() const { return out_channels_; }

private:
    StemBlock stem{nullptr};
    torch::nn::ModuleList stages{nullptr};
    std::vector<HGStage> stage_list_;
    std::vector<int> return_idx_;
    std::vector<int64_t> out_channels_;
};
TORCH_MODULE(HGNetv2);

}  // namespace libreyolo::models::dfine_network
