#pragma once
// RT-DETR's hybrid encoder with LibreYOLO's module names (libreyolo/models/rtdetr/nn.py):
// 1×1 projections of the backbone's three maps to hidden_dim, AIFI (one transformer encoder layer
// over the stride-32 map, with a 2-D sin-cos position embedding added to query and key), then
// CCFF: a top-down FPN and a bottom-up PAN of CSPRepLayers (RepVgg bottlenecks). Attention is
// nn::MultiheadAttention (nn.nn::MultiheadAttention's parameters), so it follows the fused-attention
// policy.
#include <torch/torch.h>

#include <array>
#include <vector>

#include "models/rtdetr/conv_norm_layer.h"
#include "nn/multihead_attention.h"

namespace libreyolo::models::rtdetr {

struct HybridEncoderOptions {
    std::array<int64_t, 3> in_channels = {512, 1024, 2048};
    int64_t hidden_dim = 256;
    int64_t nhead = 8;
    int64_t dim_feedforward = 1024;
    double expansion = 1.0;  // CSPRepLayer width: hidden_dim · expansion
    int64_t csp_blocks = 3;  // RepVgg blocks per CSPRepLayer (3 · depth_mult)
    double pe_temperature = 10000;
};

// 3×3 conv-BN + 1×1 conv-BN, summed, then SiLU.
class RepVggBlockImpl : public torch::nn::Module {
public:
    RepVggBlockImpl(int64_t in, int64_t out);
    torch::Tensor forward(const torch::Tensor& x);
    ConvNormLayer conv1{nullptr}, conv2{nullptr};
};
TORCH_MODULE(RepVggBlock);

class CSPRepLayerImpl : public torch::nn::Module {
public:
    CSPRepLayerImpl(int64_t in, int64_t out, int64_t blocks, double expansion);
    torch::Tensor forward(const torch::Tensor& x);
    ConvNormLayer conv1{nullptr}, conv2{nullptr}, conv3{nullptr};  // conv3 absent when hidden = out
    torch::nn::Sequential bottlenecks{nullptr};
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

class HybridEncoderImpl : public torch::nn::Module {
public:
    explicit HybridEncoderImpl(const HybridEncoderOptions& options);
    // feats: strides 8, 16, 32 from the backbone. Returns three hidden_dim maps, same strides.
    std::vector<torch::Tensor> forward(const std::vector<torch::Tensor>& feats);

    // (1, w·h, embed_dim): sin and cos of the column, then of the row, at pos_dim frequencies.
    // Built on `like`'s device, in constant_table_dtype(like's dtype).
    static torch::Tensor sincos_position_embedding(int64_t w, int64_t h, int64_t embed_dim, double temperature,
                                                   const torch::Tensor& like);

private:
    HybridEncoderOptions options_;
    torch::nn::ModuleList input_proj{nullptr}, encoder{nullptr}, lateral_convs{nullptr}, fpn_blocks{nullptr},
        downsample_convs{nullptr}, pan_blocks{nullptr};
    std::vector<torch::nn::Sequential> projections_;
    TransformerEncoderLayer aifi_{nullptr};  // encoder[0].layers[0]
    std::vector<ConvNormLayer> laterals_, downsamples_;
    std::vector<CSPRepLayer> fpns_, pans_;
};
TORCH_MODULE(HybridEncoder);

}  // namespace libreyolo::models::rtdetr
