#pragma once
// RT-DETR's decoder head with LibreYOLO's module names (libreyolo/models/rtdetr/nn.py,
// RTDETRTransformer), inference path: the encoder's maps projected and flattened, grid anchors,
// query selection (the top num_queries cells by their best class score, from the encoder head),
// then decoder layers of self-attention, multi-scale deformable cross-attention (the
// ms_deform_attn slot) and a ReLU feed-forward, refining the boxes layer by layer; the eval layer's
// class logits and boxes (cx, cy, w, h in [0, 1]). The denoising embedding is registered (it is in
// LibreYOLO's checkpoints) and used by training only.
#include <torch/torch.h>

#include <array>
#include <string>
#include <vector>

#include "models/constant_tables.h"
#include "models/conv_bn_projections.h"
#include "models/detr_denoising.h"
#include "models/detr_heads.h"
#include "nn/batch_norm_folding.h"
#include "nn/multihead_attention.h"

namespace libreyolo::onnx {
class Graph;
}

namespace libreyolo::models::rtdetr {

struct DecoderOptions {
    int64_t num_classes = 80;
    int64_t hidden_dim = 256;
    int64_t num_queries = 300;
    int64_t num_layers = 6;
    int64_t nhead = 8;
    int64_t dim_feedforward = 1024;
    int64_t num_points = 4;  // per head and level
    int64_t num_denoising = 100;
    int eval_idx = -1;  // the layer whose outputs inference returns; negative counts from the end
};

class MSDeformableAttentionImpl : public torch::nn::Module {
public:
    MSDeformableAttentionImpl(int64_t embed_dim, int64_t heads, int64_t levels, int64_t points);
    // query (B, Lq, C); reference_boxes (B, Lq, 1, 4) as cx, cy, w, h; value (B, S, C).
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& reference_boxes, const torch::Tensor& value,
                          const std::vector<std::array<int64_t, 2>>& spatial_shapes);
    // forward() on value_proj(value) computed before (it depends on the memory alone).
    torch::Tensor forward_projected(const torch::Tensor& query, const torch::Tensor& reference_boxes,
                                    const torch::Tensor& projected_value,
                                    const std::vector<std::array<int64_t, 2>>& spatial_shapes);
    torch::nn::Linear sampling_offsets{nullptr}, attention_weights{nullptr}, value_proj{nullptr}, output_proj{nullptr};
    int64_t heads() const { return heads_; }
    int64_t levels() const { return levels_; }
    int64_t points() const { return points_; }

private:
    int64_t heads_, levels_, points_;
};
TORCH_MODULE(MSDeformableAttention);

class TransformerDecoderLayerImpl : public torch::nn::Module {
public:
    TransformerDecoderLayerImpl(int64_t d_model, int64_t heads, int64_t dim_feedforward, int64_t levels,
                                int64_t points);
    // attn_mask: (queries, queries), true = may not attend (the denoising groups' mask), or undefined.
    torch::Tensor forward(torch::Tensor tgt, const torch::Tensor& reference_boxes, const torch::Tensor& memory,
                          const std::vector<std::array<int64_t, 2>>& spatial_shapes,
                          const torch::Tensor& query_pos_embed, const torch::Tensor& attn_mask = {});
    // The fused copy's inference form: the cross-attention on its values projected before (beside the
    // query selection), the feed-forward's ReLU in its first product's epilogue.
    torch::Tensor forward_fused(torch::Tensor tgt, const torch::Tensor& reference_boxes,
                                const torch::Tensor& projected_value,
                                const std::vector<std::array<int64_t, 2>>& spatial_shapes,
                                const torch::Tensor& query_pos_embed);
    nn::MultiheadAttention self_attn{nullptr};
    torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr}, norm3{nullptr};
    MSDeformableAttention cross_attn{nullptr};
    torch::nn::Linear linear1{nullptr}, linear2{nullptr};
};
TORCH_MODULE(TransformerDecoderLayer);

struct DecoderOutput {
    torch::Tensor logits;  // (B, num_queries, num_classes)
    torch::Tensor boxes;   // (B, num_queries, 4): cx, cy, w, h in [0, 1]
};

// What training's losses read (LibreYOLO's outputs dict): the last layer, the auxiliary outputs
// (the other layers in order, then the encoder's top num_queries cells) and, with denoising, every
// layer's outputs for the denoising queries.
struct TrainingOutput {
    DecoderOutput main;
    std::vector<DecoderOutput> aux;
    std::vector<DecoderOutput> denoising;
    std::optional<DenoisingGroup> group;  // the denoising queries' layout
};

// Folded (the fused copy): the input projections are conv_bias_act calls, side by side, each writing
// its rows of the flattened memory, and the grid anchors are built once per size (ConstantTableCache).
class RTDETRTransformerImpl : public torch::nn::Module, public nn::BatchNormFoldable {
public:
    RTDETRTransformerImpl(const DecoderOptions& options, const std::array<int64_t, 3>& feat_channels);
    DecoderOutput forward(const std::vector<torch::Tensor>& feats);
    // The training forward: every decoder layer, with the contrastive denoising queries of targets
    // (when denoising is on and any image has ground truth).
    TrainingOutput forward_train(const std::vector<torch::Tensor>& feats, const std::vector<DetrTarget>& targets,
                                 const DenoisingOptions& denoising);
    int64_t num_classes() const { return options_.num_classes; }
    const DecoderOptions& options() const { return options_; }
    // The inference forward as ONNX nodes (models/rtdetr/onnx_export.cpp) on the encoder's maps of
    // height × width images: pred_logits (B, Q, nc) and pred_boxes (B, Q, 4), LibreYOLO's outputs.
    std::array<std::string, 2> emit_onnx(onnx::Graph& g, const std::vector<std::string>& feats, int64_t height,
                                         int64_t width);
    void fold_batch_norm() override { projections_.fold(); }

private:
    struct QuerySelection {
        torch::Tensor memory;            // (B, S, hidden), as projected: what the decoder layers attend over
        torch::Tensor output_memory;     // enc_output(memory with the cells without a valid anchor zeroed)
        torch::Tensor top;               // (B, num_queries) the selected cells
        torch::Tensor reference_logits;  // (B, num_queries, 4) their boxes before the sigmoid
        torch::Tensor enc_class;         // (B, S, nc)
        std::vector<std::array<int64_t, 2>> shapes;
    };
    // With `values` (the fused copy), each decoder layer's value projection of the memory runs beside
    // the selection and is stored there.
    QuerySelection select_queries(const std::vector<torch::Tensor>& feats,
                                  std::vector<torch::Tensor>* values = nullptr);
    int64_t eval_layer() const {
        return options_.eval_idx >= 0 ? options_.eval_idx : options_.num_layers + options_.eval_idx;
    }
    // The eval layer's outputs from the selected queries.
    DecoderOutput decode(const QuerySelection& q, const std::vector<torch::Tensor>& values);
    // The projected maps flattened and joined: memory (B, Σ H·W, hidden), and each map's (H, W).
    torch::Tensor project(const std::vector<torch::Tensor>& feats, std::vector<std::array<int64_t, 2>>& shapes);
    GridAnchors anchors(const std::vector<std::array<int64_t, 2>>& shapes, const torch::Tensor& memory);

    DecoderOptions options_;
    torch::nn::ModuleList input_proj{nullptr}, decoder_layers{nullptr}, dec_score_head{nullptr}, dec_bbox_head{nullptr};
    ConvBnProjections projections_;
    ConstantTableCache anchor_tables_;
    std::vector<TransformerDecoderLayer> layers_;
    std::vector<torch::nn::Linear> score_heads_;
    std::vector<MLP> bbox_heads_;
    torch::nn::Embedding denoising_class_embed{nullptr};
    MLP query_pos_head{nullptr}, enc_bbox_head{nullptr};
    torch::nn::Sequential enc_output{nullptr};
    torch::nn::Linear enc_score_head{nullptr};
};
TORCH_MODULE(RTDETRTransformer);

}  // namespace libreyolo::models::rtdetr
