#pragma once
// YOLOX building blocks with LibreYOLO's module names (libreyolo/models/yolox/nn.py), so state-dict
// keys match its checkpoints: BaseConv is models::Conv; DWConv, Bottleneck, SPPBottleneck, CSPLayer,
// Focus. Parameter-free parts (activations, pools, upsampling) are not registered, as in LibreYOLO.
#include <torch/torch.h>

#include "models/conv_bn_silu.h"

namespace libreyolo::models::yolox {

// Depthwise k×k conv-BN-SiLU (dconv), then pointwise 1×1 (pconv): YOLOX-n's convolution.
class DWConvImpl : public torch::nn::Module {
public:
    DWConvImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride = 1);
    torch::Tensor forward(const torch::Tensor& x);
    Conv dconv{nullptr}, pconv{nullptr};
};
TORCH_MODULE(DWConv);

// LibreYOLO's `Conv = DWConv if depthwise else BaseConv`: a k×k conv of either kind.
torch::nn::AnyModule make_conv(int64_t in, int64_t out, int64_t kernel, int64_t stride, bool depthwise);

class BottleneckImpl : public torch::nn::Module {
public:
    BottleneckImpl(int64_t in, int64_t out, bool shortcut, double expansion, bool depthwise);
    torch::Tensor forward(const torch::Tensor& x);
    Conv conv1{nullptr};
    torch::nn::AnyModule conv2;

private:
    bool use_add_;
};
TORCH_MODULE(Bottleneck);

// conv1, max-pools 5/9/13 (stride 1, same size) concatenated with their input, conv2.
class SPPBottleneckImpl : public torch::nn::Module {
public:
    SPPBottleneckImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    Conv conv1{nullptr}, conv2{nullptr};
};
TORCH_MODULE(SPPBottleneck);

// CSP block: conv1 → n bottlenecks (m) and conv2 side by side, concatenated, conv3.
class CSPLayerImpl : public torch::nn::Module {
public:
    CSPLayerImpl(int64_t in, int64_t out, int64_t n, bool shortcut, bool depthwise);
    torch::Tensor forward(const torch::Tensor& x);
    Conv conv1{nullptr}, conv2{nullptr}, conv3{nullptr};
    torch::nn::Sequential m{nullptr};
};
TORCH_MODULE(CSPLayer);

// Space to depth (the four pixel phases stacked as channels), then a 3×3 BaseConv.
class FocusImpl : public torch::nn::Module {
public:
    FocusImpl(int64_t in, int64_t out, int64_t kernel);
    torch::Tensor forward(const torch::Tensor& x);
    Conv conv{nullptr};
};
TORCH_MODULE(Focus);

}  // namespace libreyolo::models::yolox
