#pragma once
// Encoder blocks the DETR families share (RT-DETR's hybrid encoder, D-FINE's and DEIM's), with
// LibreYOLO's module names: RepVggBlock (D-FINE's VGGBlock), CSPRepLayer (D-FINE's CSPLayer) and
// the post-norm transformer encoder layer (AIFI). Attention is nn::MultiheadAttention
// (nn.MultiheadAttention's parameters), so it follows the fused-attention policy.
#include <torch/torch.h>

#include "models/conv_norm_layer.h"
#include "models/merged_convolution.h"
#include "nn/multihead_attention.h"

namespace libreyolo::models {

// 3×3 conv-BN + 1×1 conv-BN, summed, then SiLU. The fused copy merges the two folded branches into
// one 3x3 convolution (RepVGG's deploy form, LibreYOLO's convert_to_deploy): one conv_bias_act call
// instead of two convolutions, their sum and the SiLU.
class RepVggBlockImpl : public torch::nn::Module, public nn::BranchMergeable {
public:
    RepVggBlockImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    // forward(x) + residual: once merged, the addition is the fused kernel's last step.
    torch::Tensor forward_add(const torch::Tensor& x, const torch::Tensor& residual);
    void merge_branches() override;
    bool merged() const { return merged_.merged(); }
    ConvNormLayer conv1{nullptr}, conv2{nullptr};

private:
    MergedConvolution merged_;
};
TORCH_MODULE(RepVggBlock);

// conv3(bottlenecks(conv1(x)) + conv2(x)). Once its blocks are merged, conv2 runs beside conv1 and
// the bottlenecks (graphs/concurrent_branches.h) and the last block adds it in its own epilogue.
class CSPRepLayerImpl : public torch::nn::Module {
public:
    CSPRepLayerImpl(int64_t in, int64_t out, int64_t blocks, double expansion);
    torch::Tensor forward(const torch::Tensor& x);
    ConvNormLayer conv1{nullptr}, conv2{nullptr}, conv3{nullptr};  // conv3 absent when hidden = out
    torch::nn::Sequential bottlenecks{nullptr};

private:
    torch::Tensor forward_merged(const torch::Tensor& x);
};
TORCH_MODULE(CSPRepLayer);

// Post-norm transformer encoder layer: self-attention (query = key = src + pos), GELU feed-forward.
class TransformerEncoderLayerImpl : public torch::nn::Module {
public:
    TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead, int64_t dim_feedforward);
    torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& pos_embed);
    nn::MultiheadAttention self_attn{nullptr};
    torch::nn::Linear linear1{nullptr}, linear2{nullptr};
    torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr};
};
TORCH_MODULE(TransformerEncoderLayer);

}  // namespace libreyolo::models
