#pragma once
// RT-DETR's backbone: PResNet (ResNet variant 'd': a three-conv 3×3 stem, average-pool shortcuts
// where a stage halves the resolution), with LibreYOLO's module names (libreyolo/models/rtdetr/
// backbone.py, itself RT-DETR's presnet.py), so its state_dict keys are LibreYOLO's. Depth 18 and
// 34 use basic blocks, 50 and 101 bottlenecks; BatchNorm as LibreYOLO builds it for a model trained
// from scratch (freeze_norm off). Returns the stride 8, 16 and 32 features.
#include <torch/torch.h>

#include <array>
#include <string>
#include <vector>

#include "models/conv_norm_layer.h"

namespace libreyolo::onnx {
class Graph;
}

namespace libreyolo::models::rtdetr {

// BasicBlock (two 3×3) or BottleNeck (1×1, 3×3 carrying the stride, 1×1 to 4× the width), with a
// projection shortcut ("short") on a stage's first block.
class ResidualBlockImpl : public torch::nn::Module {
public:
    ResidualBlockImpl(int64_t in, int64_t width, int64_t stride, bool identity_shortcut, bool bottleneck);
    torch::Tensor forward(const torch::Tensor& x);
    std::string emit_onnx(onnx::Graph& g, const std::string& x, const std::string& name);

private:
    ConvNormLayer branch2a{nullptr}, branch2b{nullptr}, branch2c{nullptr};
    torch::nn::Sequential pooled_short{nullptr};  // AvgPool 2×2 then 1×1 conv: halving stages
    ConvNormLayer plain_short{nullptr};           // 1×1 conv: the first stage
    bool identity_shortcut_;
};
TORCH_MODULE(ResidualBlock);

class PResNetImpl : public torch::nn::Module {
public:
    explicit PResNetImpl(int depth);
    std::vector<torch::Tensor> forward(const torch::Tensor& x);  // strides 8, 16, 32
    std::vector<std::string> emit_onnx(onnx::Graph& g, const std::string& images);
    const std::array<int64_t, 3>& out_channels() const { return out_channels_; }

private:
    torch::nn::Sequential conv1{nullptr};
    torch::nn::ModuleList res_layers{nullptr};        // per stage, a module holding "blocks"
    std::vector<std::vector<ResidualBlock>> stages_;  // the same blocks, for forward
    std::array<int64_t, 3> out_channels_{};
};
TORCH_MODULE(PResNet);

}  // namespace libreyolo::models::rtdetr
