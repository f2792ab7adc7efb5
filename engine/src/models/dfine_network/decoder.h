#pragma once
// The D-FINE decoder (DEIM's too), with LibreYOLO's module names (libreyolo/models/dfine/decoder.py,
// DFINETransformer): the encoder's maps projected and flattened into the memory, grid anchors and
// the query selection (the top num_queries cells by best class score), then decoder layers of
// self-attention, multi-scale deformable cross-attention (the ms_deform_attn slot; per-level point
// counts may differ) merged by a gate, and a feed-forward. The first layer's boxes become fixed
// references; every layer refines the edge distributions of FDR (fdr.h) from the previous one, and
// the eval layer's class logits are corrected by a localisation-quality estimate (LQE) from the
// distributions' peaks.
#include <torch/torch.h>

#include <array>
#include <vector>

#include "models/detr_denoising.h"
#include "models/detr_heads.h"
#include "nn/multihead_attention.h"

namespace libreyolo::models::dfine_network {

struct DecoderOptions {
    int64_t num_classes = 80;
    int64_t hidden_dim = 256;
    int64_t num_queries = 300;
    std::vector<int64_t> feat_channels{256, 256, 256};
    std::vector<int64_t> num_points{3, 6, 3};  // per level and head
    int64_t nhead = 8;
    int64_t num_layers = 6;
    int64_t dim_feedforward = 1024;
    int64_t num_denoising = 100;
    int eval_idx = -1;  // the layer inference stops at; negative counts from the end
    int64_t reg_max = 32;
    double reg_scale = 4.0;
    HeadActivation activation = HeadActivation::ReLU;  // D-FINE ReLU, DEIM SiLU
    // LibreYOLO's eval_spatial_size: the anchors of this input size are buffers (in checkpoints).
    std::array<int64_t, 2> eval_spatial_size{640, 640};
    std::vector<int64_t> feat_strides{8, 16, 32};
};

// Deformable cross-attention without value or output projections: per head, ΣP points (P_l on
// level l) around each reference box, offsets scaled by 1 / P_l and half the box.
class MSDeformableAttentionImpl : public torch::nn::Module {
public:
    MSDeformableAttentionImpl(int64_t embed_dim, int64_t heads, std::vector<int64_t> points_per_level);
    // query (B, Lq, C); reference_boxes (B, Lq, 1, 4) cx, cy, w, h; value (B, S, heads, C / heads).
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& reference_boxes, const torch::Tensor& value,
                          const std::vector<std::array<int64_t, 2>>& spatial_shapes);
    torch::nn::Linear sampling_offsets{nullptr}, attention_weights{nullptr};
    torch::Tensor num_points_scale;  // (ΣP): 1 / P_l for each point

private:
    int64_t heads_;
    std::vector<int64_t> points_;
};
TORCH_MODULE(MSDeformableAttention);

// sigmoid(W [x1, x2] + b) splits into two gates; LayerNorm(g1 · x1 + g2 · x2).
class GateImpl : public torch::nn::Module {
public:
    explicit GateImpl(int64_t d_model);
    torch::Tensor forward(const torch::Tensor& x1, const torch::Tensor& x2);
    torch::nn::Linear gate{nullptr};
    torch::nn::LayerNorm norm{nullptr};
};
TORCH_MODULE(Gate);

class TransformerDecoderLayerImpl : public torch::nn::Module {
public:
    TransformerDecoderLayerImpl(int64_t d_model, int64_t heads, int64_t dim_feedforward,
                                const std::vector<int64_t>& points_per_level, HeadActivation activation);
    // attn_mask: (queries, queries), true = may not attend, or undefined.
    torch::Tensor forward(torch::Tensor target, const torch::Tensor& reference_boxes, const torch::Tensor& value,
                          const std::vector<std::array<int64_t, 2>>& spatial_shapes,
                          const torch::Tensor& query_pos_embed, const torch::Tensor& attn_mask = {});
    nn::MultiheadAttention self_attn{nullptr};
    torch::nn::LayerNorm norm1{nullptr}, norm3{nullptr};
    MSDeformableAttention cross_attn{nullptr};
    Gate gateway{nullptr};
    torch::nn::Linear linear1{nullptr}, linear2{nullptr};

private:
    HeadActivation activation_;
};
TORCH_MODULE(TransformerDecoderLayer);

// Localisation quality: the top 4 probabilities of each edge's distribution and their mean, through
// a small MLP, added to the class logits.
class LQEImpl : public torch::nn::Module {
public:
    LQEImpl(int64_t reg_max, HeadActivation activation);
    torch::Tensor forward(const torch::Tensor& scores, const torch::Tensor& corners);
    MLP reg_conf{nullptr};

private:
    int64_t reg_max_;
};
TORCH_MODULE(LQE);

struct DecoderOutput {
    torch::Tensor logits;  // (B, queries, num_classes)
    torch::Tensor boxes;   // (B, queries, 4): cx, cy, w, h in [0, 1]
};

// One decoder layer's training outputs: its LQE-corrected logits, boxes, edge distributions
// (B, Q, 4·(reg_max + 1)) and the reference boxes they refine (the first layer's pre-boxes).
struct LayerOutput {
    torch::Tensor logits, boxes, corners, references;
};

// What training's losses read (LibreYOLO's training outputs dict): every decoder layer (the last is
// the main output and the teacher of the others), the first layer's pre-refinement boxes and scores
// (pre_outputs), the query selection's top cells (enc_aux_outputs) and, with denoising, the same
// for the denoising queries.
struct TrainingOutput {
    std::vector<LayerOutput> layers;
    DecoderOutput pre;
    DecoderOutput encoder_top;
    std::vector<LayerOutput> denoising_layers;
    DecoderOutput denoising_pre;
    std::optional<DenoisingGroup> group;  // the denoising queries' layout
};

class DFINETransformerImpl : public torch::nn::Module {
public:
    explicit DFINETransformerImpl(const DecoderOptions& options);
    // feats: the encoder's maps, finest first. The eval layer's logits and boxes.
    DecoderOutput forward(const std::vector<torch::Tensor>& feats);
    // The training forward: every layer, anchors for the input's own size, and the contrastive
    // denoising queries of targets (when denoising is on and any image has ground truth).
    TrainingOutput forward_train(const std::vector<torch::Tensor>& feats, const std::vector<DetrTarget>& targets,
                                 const DenoisingOptions& denoising);
    const DecoderOptions& options() const { return options_; }
    // Recomputes the constant entries of the state_dict (up, reg_scale, the eval-size anchors and
    // every layer's num_points_scale) from the options, as a freshly built model has them.
    void reset_constants();

    torch::Tensor up, reg_scale;

private:
    struct Memory {
        torch::Tensor flat;  // (B, S, hidden)
        std::vector<std::array<int64_t, 2>> shapes;
    };
    Memory flatten_maps(const std::vector<torch::Tensor>& feats);
    struct QuerySelection {
        Memory memory;
        torch::Tensor top_memory;        // (B, num_queries, hidden): enc_output of the selected cells
        torch::Tensor top_logits;        // (B, num_queries, nc): their class logits
        torch::Tensor reference_logits;  // (B, num_queries, 4): their boxes before the sigmoid
    };
    // training: anchors for the input's shapes (LibreYOLO regenerates them in training), not the
    // eval-size buffers.
    QuerySelection select_queries(const std::vector<torch::Tensor>& feats, bool training);
    GridAnchors anchors_for(const std::vector<std::array<int64_t, 2>>& shapes, const torch::Tensor& memory);
    std::vector<std::array<int64_t, 2>> eval_shapes() const;

    DecoderOptions options_;
    int64_t eval_layer_;
    torch::nn::ModuleList input_proj{nullptr}, decoder_layers{nullptr}, lqe_layers{nullptr}, dec_score_head{nullptr},
        dec_bbox_head{nullptr};
    std::vector<torch::nn::Sequential> projections_;  // null where a map already has hidden_dim channels
    std::vector<TransformerDecoderLayer> layers_;
    std::vector<LQE> lqes_;
    std::vector<torch::nn::Linear> score_heads_;
    std::vector<MLP> bbox_heads_;
    torch::nn::Embedding denoising_class_embed{nullptr};
    MLP query_pos_head{nullptr}, enc_bbox_head{nullptr}, pre_bbox_head{nullptr};
    torch::nn::Sequential enc_output{nullptr};
    torch::nn::Linear enc_score_head{nullptr};
    torch::Tensor anchors_, valid_mask_;
};
TORCH_MODULE(DFINETransformer);

}  // namespace libreyolo::models::dfine_network
