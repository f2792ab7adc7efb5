#pragma once
// RT-DETR's hybrid encoder with LibreYOLO's module names (libreyolo/models/rtdetr/nn.py):
// 1×1 projections of the backbone's three maps to hidden_dim, AIFI (one transformer encoder layer
// over the stride-32 map, with a 2-D sin-cos position embedding added to query and key), then
// CCFF: a top-down FPN and a bottom-up PAN of CSPRepLayers (RepVgg bottlenecks). Attention is
// nn::MultiheadAttention (nn.nn::MultiheadAttention's parameters), so it follows the fused-attention
// policy.
#include <torch/torch.h>

#include <array>
#include <string>
#include <vector>

#include "models/constant_tables.h"
#include "models/conv_bn_projections.h"
#include "models/detr_encoder_blocks.h"
#include "nn/batch_norm_folding.h"

namespace libreyolo::onnx {
class Graph;
}

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

// Folded (the fused copy): its input projections are conv_bias_act calls, the two finer ones beside
// AIFI on the coarsest (graphs/concurrent_branches.h), and the position embedding is built once per
// size (ConstantTableCache).
class HybridEncoderImpl : public torch::nn::Module, public nn::BatchNormFoldable {
public:
    explicit HybridEncoderImpl(const HybridEncoderOptions& options);
    // feats: strides 8, 16, 32 from the backbone. Returns three hidden_dim maps, same strides.
    std::vector<torch::Tensor> forward(const std::vector<torch::Tensor>& feats);
    // forward() as ONNX nodes on the backbone's maps of height × width images.
    std::vector<std::string> emit_onnx(onnx::Graph& g, const std::vector<std::string>& feats, int64_t height,
                                       int64_t width);
    void fold_batch_norm() override { projections_.fold(); }

private:
    // AIFI over the stride-32 map (B, hidden_dim, h, w), same shape back.
    torch::Tensor aifi(const torch::Tensor& map);
    HybridEncoderOptions options_;
    torch::nn::ModuleList input_proj{nullptr}, encoder{nullptr}, lateral_convs{nullptr}, fpn_blocks{nullptr},
        downsample_convs{nullptr}, pan_blocks{nullptr};
    ConvBnProjections projections_;
    TransformerEncoderLayer aifi_{nullptr};  // encoder[0].layers[0]
    ConstantTableCache position_tables_;
    std::vector<ConvNormLayer> laterals_, downsamples_;
    std::vector<CSPRepLayer> fpns_, pans_;
};
TORCH_MODULE(HybridEncoder);

}  // namespace libreyolo::models::rtdetr
