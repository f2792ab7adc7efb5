#pragma once
// The convolution block that LibreYOLO's YOLOv9 (Conv) and YOLOX (BaseConv) share, with their
// module names conv and bn: Conv2d without bias, BatchNorm2d with eps 1e-3 and momentum 0.03
// (both families' official values), then SiLU. The convolution is a QuantConv2d so the block can
// be quantized; the batch norm follows the distributed run's SyncBatchNorm when there is one.
#include <torch/torch.h>

#include <optional>

#include "kernels/conv_bias_act_slot.h"
#include "nn/batch_norm_folding.h"
#include "quant/quant_conv2d.h"

namespace libreyolo::models {

struct ConvOptions {
    ConvOptions(int64_t in, int64_t out, int64_t kernel = 1) : in_(in), out_(out), kernel_(kernel) {}
    TORCH_ARG(int64_t, in);
    TORCH_ARG(int64_t, out);
    TORCH_ARG(int64_t, kernel);
    TORCH_ARG(int64_t, stride) = 1;
    TORCH_ARG(int64_t, padding) = -1;  // -1: (kernel - 1) / 2, as LibreYOLO's auto_pad
    TORCH_ARG(int64_t, groups) = 1;
    TORCH_ARG(bool, activation) = true;
};

class ConvImpl : public torch::nn::Module, public nn::BatchNormFoldable {
public:
    explicit ConvImpl(const ConvOptions& options);
    torch::Tensor forward(const torch::Tensor& x);
    // residual + forward(x): once folded, the addition is the fused kernel's last step.
    torch::Tensor forward_add(const torch::Tensor& x, const torch::Tensor& residual);
    // forward(x) (plus residual, when given) written into out (a channel slice of a concatenation's
    // buffer): by the fused kernel itself once folded, else copied.
    void forward_into(const torch::Tensor& x, const torch::Tensor& out, const torch::Tensor& residual = {});
    void fold_batch_norm() override;
    bool folded() const { return folded_.has_value(); }
    const std::optional<kernels::ConvGeometry>& folded_geometry() const { return folded_; }
    kernels::ConvActivation activation() const { return activation_; }
    quant::QuantConv2d conv{nullptr};
    torch::nn::BatchNorm2d bn{nullptr};

private:
    kernels::ConvActivation activation_;  // SiLU, or None for a block built with activation(false)
    // Set when bn lives in conv's weight and bias: the block is then one conv_bias_act call.
    std::optional<kernels::ConvGeometry> folded_;
};
TORCH_MODULE(Conv);

}  // namespace libreyolo::models
