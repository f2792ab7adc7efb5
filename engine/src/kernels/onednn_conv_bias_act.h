#pragma once
// conv_bias_act on the CPU through the oneDNN that LibTorch carries (its mkldnn::_convolution_pointwise
// operator, the one PyTorch's own CPU compiler emits): the convolution with the bias and the
// activation applied as a post-op while each output block is still in cache, instead of two more
// passes over the output. Fastest on channels-last (NHWC) input, oneDNN's native layout.
#include <torch/torch.h>

#include <string>

#include "kernels/conv_bias_act_slot.h"

namespace libreyolo::kernels {

// LibTorch's bundled oneDNN, as a provider name (LIBREYOLO_KERNELS=onednn selects only it).
constexpr const char* kOneDnnProvider = "onednn";

// "" when this LibTorch has the operator, else why not.
std::string onednn_conv_bias_act_missing();

// float32 on the CPU, 4-D, outside autograd.
bool onednn_conv_bias_act_accepts(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  const ConvGeometry& geometry, const ConvEpilogue& epilogue,
                                  const torch::Tensor& out = torch::Tensor(),
                                  const torch::Tensor& residual = torch::Tensor());

// Writes into out (when given) by a copy: oneDNN's operator allocates its result. The residual is
// added to that result in place (before the activation: the activation follows as its own step).
torch::Tensor onednn_conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                   const ConvGeometry& geometry, const ConvEpilogue& epilogue,
                                   const torch::Tensor& out = torch::Tensor(),
                                   const torch::Tensor& residual = torch::Tensor());

}  // namespace libreyolo::kernels
