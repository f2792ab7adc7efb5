#pragma once
// The conv_bias_act slot: a convolution, its bias and its activation as one operation, the form a
// folded block (BatchNorm in the weight and bias) takes on the fused inference path. Reference:
// LibTorch's conv2d, then the activation (the eager path's kernels, one after another).
// Implementations fuse the three into one kernel: oneDNN's convolution with an eltwise post-op on
// the CPU (kernels/onednn_conv_bias_act.h), cuDNN's runtime fusion on NVIDIA GPUs
// (kernels/cudnn_conv_bias_act.h). Inference only: no implementation has a backward. With an `out`
// tensor the result is written into it (a channel slice of a concatenation's buffer, so that the
// producers of a concatenation write its parts in place); cuDNN writes there directly, the others
// copy. With a `residual` tensor (the output's shape) the result is act(conv(x) + bias) + residual
// (YOLOv9's bottleneck) or, when the epilogue says so, act(conv(x) + bias + residual) (ResNet's
// block): a residual block's addition, in cuDNN's kernel as one more step of the fused epilogue.
#include <torch/torch.h>

#include <vector>

#include "kernels/slot.h"

namespace libreyolo::kernels {

enum class ConvActivation { None, ReLU, SiLU };

// Where a call's residual joins: after the activation or before it.
enum class ResidualJoin { AfterActivation, BeforeActivation };

// What follows the convolution and its bias. An activation alone converts to one (its residual, if
// any, joining after it).
struct ConvEpilogue {
    ConvEpilogue(ConvActivation activation = ConvActivation::None,  // NOLINT: implicit on purpose
                 ResidualJoin residual_join = ResidualJoin::AfterActivation)
        : activation(activation), residual_join(residual_join) {}
    ConvActivation activation;
    ResidualJoin residual_join;
};

struct ConvGeometry {
    std::vector<int64_t> stride, padding, dilation;
    int64_t groups = 1;
};

// The geometry of a Conv2d with explicit (numeric) padding; throws for "same"/"valid".
ConvGeometry conv_geometry(const torch::nn::Conv2dImpl& conv);

// x through the activation (none: x itself).
torch::Tensor activate(const torch::Tensor& x, ConvActivation activation);

// The convolution's output shape for x (N, C, H, W).
std::vector<int64_t> conv_output_shape(const torch::Tensor& x, const torch::Tensor& weight,
                                       const ConvGeometry& geometry);

// out is undefined, or has the result's shape and x's dtype and device: what an implementation's
// predicate checks before writing there (the reference throws InvalidArgument otherwise).
bool out_fits(const torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& weight,
              const ConvGeometry& geometry);

// y itself when out is undefined; else y copied into out, which is returned.
torch::Tensor write_into(const torch::Tensor& out, const torch::Tensor& y);

// residual is undefined, or has the result's shape and x's dtype and device.
bool residual_fits(const torch::Tensor& residual, const torch::Tensor& x, const torch::Tensor& weight,
                   const ConvGeometry& geometry);

// y + residual (y itself when residual is undefined), in the order the eager residual blocks add.
torch::Tensor add_residual(const torch::Tensor& y, const torch::Tensor& residual);

// The epilogue applied to conv(x) + bias: the activation, and the residual where it joins.
torch::Tensor apply_epilogue(const torch::Tensor& y, const ConvEpilogue& epilogue, const torch::Tensor& residual);

// out: undefined (a new tensor), or a tensor of the result's shape and dtype to write it into;
// residual: undefined, or a tensor of the result's shape added where the epilogue says.
torch::Tensor conv_bias_act_reference(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                      const ConvGeometry& geometry, const ConvEpilogue& epilogue,
                                      const torch::Tensor& out = torch::Tensor(),
                                      const torch::Tensor& residual = torch::Tensor());

using ConvBiasActSignature = torch::Tensor(const torch::Tensor& x, const torch::Tensor& weight,
                                           const torch::Tensor& bias, const ConvGeometry& geometry,
                                           const ConvEpilogue& epilogue, const torch::Tensor& out,
                                           const torch::Tensor& residual);

Slot<ConvBiasActSignature>& conv_bias_act_slot();

// The slot's call; out and residual as above.
torch::Tensor conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                            const ConvGeometry& geometry, const ConvEpilogue& epilogue,
                            const torch::Tensor& out = torch::Tensor(),
                            const torch::Tensor& residual = torch::Tensor());

}  // namespace libreyolo::kernels
