#pragma once
// The conv_bias_act slot: a convolution, its bias and its activation as one operation, the form a
// folded block (BatchNorm in the weight and bias) takes on the fused inference path. Reference:
// LibTorch's conv2d, then the activation (the eager path's kernels, one after another).
// Implementations fuse the three into one kernel: oneDNN's convolution with an eltwise post-op on
// the CPU (kernels/onednn_conv_bias_act.h), cuDNN's runtime fusion on NVIDIA GPUs
// (kernels/cudnn_conv_bias_act.h). Inference only: no implementation has a backward.
#include <torch/torch.h>

#include <vector>

#include "kernels/slot.h"

namespace libreyolo::kernels {

enum class ConvActivation { None, ReLU, SiLU };

struct ConvGeometry {
    std::vector<int64_t> stride, padding, dilation;
    int64_t groups = 1;
};

// The geometry of a Conv2d with explicit (numeric) padding; throws for "same"/"valid".
ConvGeometry conv_geometry(const torch::nn::Conv2dImpl& conv);

// x through the activation (none: x itself).
torch::Tensor activate(const torch::Tensor& x, ConvActivation activation);

torch::Tensor conv_bias_act_reference(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                      const ConvGeometry& geometry, ConvActivation activation);

using ConvBiasActSignature = torch::Tensor(const torch::Tensor& x, const torch::Tensor& weight,
                                           const torch::Tensor& bias, const ConvGeometry& geometry,
                                           ConvActivation activation);

Slot<ConvBiasActSignature>& conv_bias_act_slot();

}  // namespace libreyolo::kernels
