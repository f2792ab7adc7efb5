#include "models/yolox/blocks.h"

namespace libreyolo::models::yolox {

namespace F = torch::nn::functional;
using torch::indexing::Ellipsis;
using torch::indexing::None;
using torch::indexing::Slice;

DWConvImpl::DWConvImpl(int64_t in, int64_t out, int64_t kernel, int64_t stride) {
    dconv = register_module("dconv", Conv(ConvOptions(in, in, kernel).stride(stride).groups(in)));
    pconv = register_module("pconv", Conv(ConvOptions(in, out, 1)));
}

torch::Tensor DWConvImpl::forward(const torch::Tensor& x) {
    return pconv(dconv(x));
}

torch::nn::AnyModule make_conv(int64_t in, int64_t out, int64_t kernel, int64_t stride, bool depthwise) {
    if (depthwise) return torch::nn::AnyModule(DWConv(in, out, kernel, stride));
    return torch::nn::AnyModule(Conv(ConvOptions(in, out, kernel).stride(stride)));
}

BottleneckImpl::BottleneckImpl(int64_t in, int64_t out, bool shortcut, double expansion, bool depthwise)
    : use_add_(shortcut && in == out) {
    const auto hidden = static_cast<int64_t>(static_cast<double>(out) * expansion);
    conv1 = register_module("conv1", Conv(ConvOptions(in, hidden, 1)));
    conv2 = make_conv(hidden, out, 3, 1, depthwise);
    register_module("conv2", conv2.ptr());
}

torch::Tensor BottleneckImpl::forward(const torch::Tensor& x) {
    torch::Tensor y = conv2.forward(conv1(x));
    return use_add_ ? y + x : y;
}

SPPBottleneckImpl::SPPBottleneckImpl(int64_t in, int64_t out) {
    const int64_t hidden = in / 2;
    conv1 = register_module("conv1", Conv(ConvOptions(in, hidden, 1)));
    conv2 = register_module("conv2", Conv(ConvOptions(hidden * 4, out, 1)));
}

torch::Tensor SPPBottleneckImpl::forward(const torch::Tensor& x) {
    torch::Tensor y = conv1(x);
    std::vector<torch::Tensor> parts{y};
    for (int64_t k : {5, 9, 13}) parts.push_back(F::max_pool2d(y, F::MaxPool2dFuncOptions(k).stride(1).padding(k / 2)));
    return conv2(torch::cat(parts, 1));
}

CSPLayerImpl::CSPLayerImpl(int64_t in, int64_t out, int64_t n, bool shortcut, bool depthwise) {
    const int64_t hidden = static_cast<int64_t>(static_cast<double>(out) * 0.5);
    conv1 = register_module("conv1", Conv(ConvOptions(in, hidden, 1)));
    conv2 = register_module("conv2", Conv(ConvOptions(in, hidden, 1)));
    conv3 = register_module("conv3", Conv(ConvOptions(2 * hidden, out, 1)));
    m = register_module("m", torch::nn::Sequential());
    for (int64_t i = 0; i < n; ++i) m->push_back(Bottleneck(hidden, hidden, shortcut, 1.0, depthwise));
}

torch::Tensor CSPLayerImpl::forward(const torch::Tensor& x) {
    return conv3(torch::cat({m->forward(conv1(x)), conv2(x)}, 1));
}

FocusImpl::FocusImpl(int64_t in, int64_t out, int64_t kernel) {
    conv = register_module("conv", Conv(ConvOptions(in * 4, out, kernel)));
}

torch::Tensor FocusImpl::forward(const torch::Tensor& x) {
    const auto phase = [&](int64_t row, int64_t col) {
        return x.index({Ellipsis, Slice(row, None, 2), Slice(col, None, 2)});
    };
    // LibreYOLO's order: top-left, bottom-left, top-right, bottom-right.
    return conv(torch::cat({phase(0, 0), phase(1, 0), phase(0, 1), phase(1, 1)}, 1));
}

}  // namespace libreyolo::models::yolox
