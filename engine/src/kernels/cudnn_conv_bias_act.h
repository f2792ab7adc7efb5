#pragma once
// conv_bias_act on NVIDIA GPUs through cuDNN's graph API (runtime fusion): the convolution, the bias
// and the activation are one operation graph that cuDNN compiles into one kernel, where LibTorch
// runs a convolution, then a bias addition, then the activation, each a pass over the output.
// Built when the cuDNN frontend's headers were found (PyPI nvidia-cudnn-frontend; cuDNN itself is
// the one the torch wheel carries). Takes float16/bfloat16 channels-last (NHWC) tensors, the fused
// copy's layout on CUDA; a call whose shape cuDNN cannot fuse goes to the reference.
#include <torch/torch.h>

#include <string>

#include "kernels/conv_bias_act_slot.h"

namespace libreyolo::kernels {

constexpr const char* kCudnnProvider = "cudnn";

// "" when this build has the cuDNN route and a CUDA device is present, else why not.
std::string cudnn_conv_bias_act_missing();

// CUDA, float16 or bfloat16, channels-last input (or a channel slice of one) and weight (grouped
// convolutions where cuDNN fuses them), outside autograd, and a shape for which cuDNN has a fused engine (built once
// per shape and cached; not while the stream is being captured into a CUDA graph, where building could synchronise).
// out and residual, when given, must be channels-last or a channel slice of such a tensor, as x.
bool cudnn_conv_bias_act_accepts(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                 const ConvGeometry& geometry, const ConvEpilogue& epilogue,
                                 const torch::Tensor& out = torch::Tensor(),
                                 const torch::Tensor& residual = torch::Tensor());

// Writes straight into out when given (the fused kernel's stores go to its strides); the residual
// is read by the same kernel, as the last pointwise step.
torch::Tensor cudnn_conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  const ConvGeometry& geometry, const ConvEpilogue& epilogue,
                                  const torch::Tensor& out = torch::Tensor(),
                                  const torch::Tensor& residual = torch::Tensor());

}  // namespace libreyolo::kernels
