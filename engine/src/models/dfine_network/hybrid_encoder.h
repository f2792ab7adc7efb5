#pragma once
// D-FINE's hybrid encoder (shared with DEIM), with LibreYOLO's module names
// (libreyolo/models/dfine/encoder.py): 1x1 projections of the backbone's maps (two for size n,
// three otherwise) to hidden_dim, one transformer encoder layer over the coarsest map (the AIFI
// layer and sin-cos position embedding RT-DETR shares), then a top-down FPN and a bottom-up PAN whose
// blocks are RepNCSPELAN4 (the shared CSPRepLayer inside a GELAN split) and whose downsampling is SCDown
// (a 1x1, then a depthwise stride-2 3x3).
#include <torch/torch.h>

#include <string>
#include <vector>

#include "models/detr_encoder_blocks.h"

namespace libreyolo::models::dfine_network {

struct HybridEncoderOptions {
    std::vector<int64_t> in_channels{512, 1024, 2048};
    int64_t hidden_dim = 256;
    int64_t nhead = 8;
    int64_t dim_feedforward = 1024;
    double expansion = 1.0;   // RepNCSPELAN4's inner width: round(expansion · hidden_dim // 2)
    double depth_mult = 1.0;  // its CSP blocks: round(3 · depth_mult)
    std::vector<int> use_encoder_idx{2};
    double pe_temperature = 10000;
};

// LibreYOLO's encoder settings for a D-FINE/DEIM size: n, s, m, l or x. Throws InvalidArgument.
HybridEncoderOptions hybrid_encoder_options_for_size(const std::string& size);

// GELAN block: a 1x1 to c3 split in two halves; the second half through two CSP + 3x3 stages in a
// chain; the halves and both stages' outputs concatenated and projected to c2.
class RepNCSPELAN4Impl : public torch::nn::Module {
public:
    RepNCSPELAN4Impl(int64_t c1, int64_t c2, int64_t c3, int64_t c4, int64_t blocks);
    torch::Tensor forward(const torch::Tensor& x);

private:
    ConvNormLayer cv1{nullptr}, cv4{nullptr};
    torch::nn::Sequential cv2{nullptr}, cv3{nullptr};
    int64_t half_;
};
TORCH_MODULE(RepNCSPELAN4);

// A 1x1 convolution, then a depthwise k x k with stride s, both without activation.
class SCDownImpl : public torch::nn::Module {
public:
    SCDownImpl(int64_t c1, int64_t c2, int64_t k, int64_t s);
    torch::Tensor forward(const torch::Tensor& x);

private:
    ConvNormLayer cv1{nullptr}, cv2{nullptr};
};
TORCH_MODULE(SCDown);

class HybridEncoderImpl : public torch::nn::Module {
public:
    explicit HybridEncoderImpl(const HybridEncoderOptions& options);
    // feats: the backbone's maps, finest first. Returns as many hidden_dim maps, same strides.
    std::vector<torch::Tensor> forward(const std::vector<torch::Tensor>& feats);

private:
    HybridEncoderOptions options_;
    torch::nn::ModuleList input_proj{nullptr}, encoder{nullptr}, lateral_convs{nullptr}, fpn_blocks{nullptr},
        downsample_convs{nullptr}, pan_blocks{nullptr};
    std::vector<torch::nn::Sequential> projections_, downsamples_;
    std::vector<TransformerEncoderLayer> encoder_layers_;  // one per use_encoder_idx entry
    std::vector<ConvNormLayer> laterals_;
    std::vector<RepNCSPELAN4> fpns_, pans_;
};
TORCH_MODULE(HybridEncoder);

}  // namespace libreyolo::models::dfine_network
