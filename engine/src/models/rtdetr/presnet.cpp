#include "models/rtdetr/presnet.h"

#include <map>

#include "graphs/concurrent_branches.h"
#include "libreyolo/errors.h"

namespace libreyolo::models::rtdetr {
namespace F = torch::nn::functional;

ResidualBlockImpl::ResidualBlockImpl(int64_t in, int64_t width, int64_t stride, bool identity_shortcut, bool bottleneck)
    : identity_shortcut_(identity_shortcut) {
    const int64_t out = bottleneck ? 4 * width : width;
    if (!identity_shortcut) {
        if (stride == 2) {
            pooled_short = register_module("short", torch::nn::Sequential());
            pooled_short->push_back("pool",
                                    torch::nn::AvgPool2d(torch::nn::AvgPool2dOptions(2).stride(2).ceil_mode(true)));
            pooled_short->push_back("conv", ConvNormLayer(in, out, 1, 1, Activation::None));
        } else {
            plain_short = register_module("short", ConvNormLayer(in, out, 1, stride, Activation::None));
        }
    }
    if (bottleneck) {  // variant 'd': the stride on the 3×3
        branch2a = register_module("branch2a", ConvNormLayer(in, width, 1, 1, Activation::ReLU));
        branch2b = register_module("branch2b", ConvNormLayer(width, width, 3, stride, Activation::ReLU));
        branch2c = register_module("branch2c", ConvNormLayer(width, out, 1, 1, Activation::None));
    } else {
        branch2a = register_module("branch2a", ConvNormLayer(in, width, 3, stride, Activation::ReLU));
        branch2b = register_module("branch2b", ConvNormLayer(width, width, 3, 1, Activation::None));
    }
}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
    ConvNormLayer last = branch2c ? branch2c : branch2b;
    const auto projection = [&] { return pooled_short ? pooled_short->forward(x) : plain_short(x); };
    if (!last->folded()) {
        torch::Tensor y = branch2b(branch2a(x));
        if (branch2c) y = branch2c(y);
        const torch::Tensor shortcut = identity_shortcut_ ? x : projection();
        return torch::relu(y + shortcut);
    }
    // The fused copy: a projection shortcut beside the main branch, and the sum and its ReLU in the
    // last convolution's epilogue.
    torch::Tensor y, shortcut = x;
    const auto main_branch = [&] {
        y = branch2a(x);
        if (branch2c) y = branch2b(y);
        return torch::Tensor();
    };
    if (identity_shortcut_)
        main_branch();
    else
        shortcut = graphs::run_concurrently(x.device(), {main_branch, projection}).at(1);
    return last->forward_joined(y, shortcut, Activation::ReLU);
}

PResNetImpl::PResNetImpl(int depth) {
    static const std::map<int, std::array<int, 4>> kBlocks = {
        {18, {2, 2, 2, 2}}, {34, {3, 4, 6, 3}}, {50, {3, 4, 6, 3}}, {101, {3, 4, 23, 3}}};
    const auto blocks = kBlocks.find(depth);
    if (blocks == kBlocks.end())
        throw InvalidArgument("rtdetr: no PResNet of depth " + std::to_string(depth) + " (18, 34, 50 or 101)");
    const bool bottleneck = depth >= 50;
    conv1 = register_module("conv1", torch::nn::Sequential());
    conv1->push_back("conv1_1", ConvNormLayer(3, 32, 3, 2, Activation::ReLU));
    conv1->push_back("conv1_2", ConvNormLayer(32, 32, 3, 1, Activation::ReLU));
    conv1->push_back("conv1_3", ConvNormLayer(32, 64, 3, 1, Activation::ReLU));
    res_layers = register_module("res_layers", torch::nn::ModuleList());
    int64_t in = 64;
    const std::array<int64_t, 4> widths = {64, 128, 256, 512};
    for (int stage = 0; stage < 4; ++stage) {
        // LibreYOLO's Blocks: a module holding the stage's blocks as "blocks".
        auto stage_module = std::make_shared<torch::nn::Module>();
        auto list = stage_module->register_module("blocks", torch::nn::ModuleList());
        stages_.emplace_back();
        for (int i = 0; i < blocks->second[stage]; ++i) {
            const int64_t stride = i == 0 && stage > 0 ? 2 : 1;
            stages_.back().push_back(ResidualBlock(in, widths[stage], stride, /*identity_shortcut=*/i > 0, bottleneck));
            list->push_back(stages_.back().back());
            in = bottleneck ? 4 * widths[stage] : widths[stage];
        }
        res_layers->push_back(stage_module);
        if (stage > 0) out_channels_[stage - 1] = in;
    }
    // LibreYOLO's RTDETR_CONFIGS freeze the norms of the bottleneck backbones (backbone_freeze_norm)
    // whenever it loads weights, so its predictions from any r50 checkpoint come from that form.
    if (bottleneck)
        for (const auto& module : modules(/*include_self=*/false))
            if (auto* layer = module->as<ConvNormLayerImpl>()) layer->normalise_as_frozen();
}

std::vector<torch::Tensor> PResNetImpl::forward(const torch::Tensor& x) {
    torch::Tensor y = F::max_pool2d(conv1->forward(x), F::MaxPool2dFuncOptions(3).stride(2).padding(1));
    std::vector<torch::Tensor> outs;
    for (std::size_t stage = 0; stage < stages_.size(); ++stage) {
        for (ResidualBlock& block : stages_[stage]) y = block(y);
        if (stage > 0) outs.push_back(y);
    }
    return outs;
}

}  // namespace libreyolo::models::rtdetr
