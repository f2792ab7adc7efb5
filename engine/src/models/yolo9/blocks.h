#pragma once
// YOLOv9 building blocks with LibreYOLO's module names, so state_dict keys match its checkpoints
// (libreyolo/models/yolo9/nn.py). Each block registers exactly the children that LibreYOLO's
// block has, in the same names; parameter-free parts (activations, pools) are not registered.
#include <torch/torch.h>

#include <optional>

#include "models/conv_bn_silu.h"
#include "models/merged_convolution.h"
#include "quant/quant_conv2d.h"

namespace libreyolo::models::yolo9 {

// Once the fused copy has folded a block's convolutions, the block writes its concatenation in
// place: each part's producer stores into a channel slice of one channels-last buffer, which the
// next convolution reads, instead of torch::cat copying the parts (docs/fuse-bench.md). The values
// are the concatenation's, bit for bit; the eager network keeps torch::cat.

// 3×3 conv-BN + 1×1 conv-BN summed, then SiLU (training form of RepConv; no identity BN).
class RepConvNImpl : public torch::nn::Module, public nn::BranchMergeable {
public:
    RepConvNImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    // The folded 1x1 branch padded into the folded 3x3 one: one convolution, one conv_bias_act call.
    void merge_branches() override;
    Conv conv1{nullptr}, conv2{nullptr};
    const std::optional<kernels::ConvGeometry>& merged_geometry() const { return merged_.geometry(); }
    const torch::Tensor& merged_weight() const { return merged_.weight(); }
    const torch::Tensor& merged_bias() const { return merged_.bias(); }

private:
    MergedConvolution merged_;
};
TORCH_MODULE(RepConvN);

class RepNBottleneckImpl : public torch::nn::Module {
public:
    RepNBottleneckImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    void forward_into(const torch::Tensor& x, const torch::Tensor& out);  // forward(x) written into out
    bool residual() const { return add_; }
    RepConvN cv1{nullptr};
    Conv cv2{nullptr};

private:
    bool add_;
};
TORCH_MODULE(RepNBottleneck);

class RepNCSPImpl : public torch::nn::Module {
public:
    RepNCSPImpl(int64_t in, int64_t out, int64_t repeats);
    torch::Tensor forward(const torch::Tensor& x);
    Conv cv1{nullptr}, cv2{nullptr}, cv3{nullptr};
    torch::nn::Sequential m{nullptr};

private:
    torch::Tensor forward_in_place(const torch::Tensor& x);
};
TORCH_MODULE(RepNCSP);

// ELAN(c1, c2 = part, c3 = part / 2, c4 = out), n = 1 (t and s stems).
class ELANImpl : public torch::nn::Module {
public:
    ELANImpl(int64_t c1, int64_t c2, int64_t c3, int64_t c4);
    torch::Tensor forward(const torch::Tensor& x);
    Conv cv1{nullptr}, cv2{nullptr}, cv3{nullptr}, cv4{nullptr};

private:
    torch::Tensor forward_in_place(const torch::Tensor& x);
};
TORCH_MODULE(ELAN);

class RepNCSPELANImpl : public torch::nn::Module {
public:
    RepNCSPELANImpl(int64_t c1, int64_t c2, int64_t c3, int64_t c4, int64_t repeats);
    torch::Tensor forward(const torch::Tensor& x);
    Conv cv1{nullptr};
    torch::nn::Sequential cv2{nullptr}, cv3{nullptr};
    Conv cv4{nullptr};

private:
    torch::Tensor forward_in_place(const torch::Tensor& x);
};
TORCH_MODULE(RepNCSPELAN);

// Down-sampling: AConv (avg-pool 2/1 then 3×3/2 conv) or ADown (two half-channel paths).
class DownsampleImpl : public torch::nn::Module {
public:
    virtual torch::Tensor forward(const torch::Tensor& x) = 0;
};

class AConvImpl : public DownsampleImpl {
public:
    AConvImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x) override;
    Conv cv{nullptr};
};

class ADownImpl : public DownsampleImpl {
public:
    ADownImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x) override;
    Conv cv1{nullptr}, cv2{nullptr};

private:
    torch::Tensor forward_in_place(const torch::Tensor& x);
};

std::shared_ptr<DownsampleImpl> make_downsample(bool adown, int64_t in, int64_t out);

class SPPELANImpl : public torch::nn::Module {
public:
    SPPELANImpl(int64_t in, int64_t neck, int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    Conv cv1{nullptr}, cv5{nullptr};

private:
    torch::Tensor forward_in_place(const torch::Tensor& x);
};
TORCH_MODULE(SPPELAN);

}  // namespace libreyolo::models::yolo9
