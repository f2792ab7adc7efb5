#pragma once
// LibTorch modules as ONNX nodes, from their parameters: the layers that the families' emitters
// share (convolution, BatchNorm, linear, LayerNorm, GELU, slicing, nearest upsampling). Values are
// named after the module's state_dict path. nn::MultiheadAttention writes its own.
#include <torch/torch.h>

#include <string>

#include "onnx/onnx_graph.h"

namespace libreyolo::onnx {

// Conv2d with its own weight, bias (if any), stride, padding, dilation and groups.
std::string conv2d(Graph& g, const torch::nn::Conv2dImpl& conv, const std::string& name, const std::string& x);
// BatchNorm2d in inference form (running statistics).
std::string batch_norm(Graph& g, const torch::nn::BatchNorm2dImpl& bn, const std::string& name, const std::string& x);
// x · Wᵀ + b over the last axis, any leading axes.
std::string linear(Graph& g, const torch::nn::LinearImpl& linear, const std::string& name, const std::string& x);
// LayerNormalization over the last axis (opset 17).
std::string layer_norm(Graph& g, const torch::nn::LayerNormImpl& norm, const std::string& name, const std::string& x);
// x · ½ (1 + erf(x / √2)): GELU's exact form (torch.nn.functional.gelu's default).
std::string gelu(Graph& g, const std::string& x, const std::string& name);
std::string relu(Graph& g, const std::string& x, const std::string& name);
// Elements [begin, end) of x along axis.
std::string slice(Graph& g, const std::string& x, int64_t axis, int64_t begin, int64_t end, const std::string& name);
// Nearest-neighbour 2x, as F::interpolate(scale 2, nearest): source index floor(destination / 2).
std::string upsample_nearest2x(Graph& g, const std::string& x, const std::string& name);
// A list of int64 as a constant (shapes, axes, indices).
std::string int64s(Graph& g, const std::string& name, const std::vector<int64_t>& values);

}  // namespace libreyolo::onnx
