#include "models/dfine_network/decoder.h"

#include <cmath>
#include <numbers>
#include <numeric>

#include "kernels/deform/ms_deform_attn.h"
#include "libreyolo/errors.h"
#include "models/detr_box_ops.h"
#include "models/dfine_network/fdr.h"

namespace libreyolo::models::dfine_network {
namespace {

constexpr double kInvalidAnchor = 1e4;
constexpr int64_t kQualityTopK = 4;  // LQE's k
constexpr int64_t kQualityHidden = 64;

// LibreYOLO's bias_init_with_prob.
double bias_for_prior(double prior) {
    return -std::log((1 - prior) / prior);
}

void zero_last_layer(MLP& mlp) {
    torch::NoGradGuard no_grad;
    auto params = mlp->parameters();
    params[params.size() - 2].zero_();  // weight
    params[params.size() - 1].zero_();  // bias
}

}  // namespace

MSDeformableAttentionImpl::MSDeformableAttentionImpl(int64_t embed_dim, int64_t heads,
                                                     std::vector<int64_t> points_per_level)
    : heads_(heads), points_(std::move(points_per_level)) {
    if (embed_dim % heads != 0)
        throw InvalidArgument("dfine: embed_dim " + std::to_string(embed_dim) + " is not divisible by " +
                              std::to_string(heads) + " heads");
    const int64_t points = std::accumulate(points_.begin(), points_.end(), int64_t{0});
    sampling_offsets = register_module("sampling_offsets", torch::nn::Linear(embed_dim, heads * points * 2));
    attention_weights = register_module("attention_weights", torch::nn::Linear(embed_dim, heads * points));
    std::vector<float> scale;
    for (const int64_t n : points_)
        for (int64_t i = 0; i < n; ++i) scale.push_back(1.0f / static_cast<float>(n));
    num_points_scale = register_buffer("num_points_scale", torch::tensor(scale));
    // LibreYOLO's initialisation: offsets start on a ring of directions per head, scaled by the
    // point's index on its level; uniform attention.
    torch::NoGradGuard no_grad;
    sampling_offsets->weight.zero_();
    const torch::Tensor thetas =
        torch::arange(heads, torch::kFloat32) * (2.0 * std::numbers::pi / static_cast<double>(heads));
    torch::Tensor grid = torch::stack({thetas.cos(), thetas.sin()}, -1);
    grid = (grid / std::get<0>(grid.abs().max(-1, true))).reshape({heads, 1, 2}).tile({1, points, 1});
    std::vector<torch::Tensor> index;
    for (const int64_t n : points_) index.push_back(torch::arange(1, n + 1, torch::kFloat32));
    grid = grid * torch::cat(index).reshape({1, -1, 1});
    sampling_offsets->bias.copy_(grid.flatten());
    attention_weights->weight.zero_();
    attention_weights->bias.zero_();
}

torch::Tensor MSDeformableAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& reference_boxes,
                                                 const torch::Tensor& value,
                                                 const std::vector<std::array<int64_t, 2>>& spatial_shapes) {
    using torch::indexing::None;
    using torch::indexing::Slice;
    const int64_t b = query.size(0), lq = query.size(1);
    const int64_t points = num_points_scale.size(0);
    const torch::Tensor offsets = sampling_offsets(query).reshape({b, lq, heads_, points, 2});
    const torch::Tensor weights = torch::softmax(attention_weights(query).reshape({b, lq, heads_, points}), -1);
    const torch::Tensor offset = offsets * num_points_scale.to(query.scalar_type()).unsqueeze(-1) *
                                 reference_boxes.index({Slice(), Slice(), None, Slice(), Slice(2, None)}) * 0.5;
    const torch::Tensor locations = reference_boxes.index({Slice(), Slice(), None, Slice(), Slice(None, 2)}) + offset;
    const kernels::DeformableSampling sampling{spatial_shapes, points_, false};
    return kernels::ms_deform_attn_slot()(value, locations, weights, sampling);
}

GateImpl::GateImpl(int64_t d_model) {
    gate = register_module("gate", torch::nn::Linear(2 * d_model, 2 * d_model));
    norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    torch::NoGradGuard no_grad;
    gate->weight.zero_();
    gate->bias.fill_(bias_for_prior(0.5));
}

torch::Tensor GateImpl::forward(const torch::Tensor& x1, const torch::Tensor& x2) {
    const auto gates = torch::sigmoid(gate(torch::cat({x1, x2}, -1))).chunk(2, -1);
    return norm(gates[0] * x1 + gates[1] * x2);
}

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(int64_t d_model, int64_t heads, int64_t dim_feedforward,
                                                         const std::vector<int64_t>& points_per_level,
                                                         HeadActivation activation)
    : activation_(activation) {
    self_attn = register_module("self_attn", nn::MultiheadAttention(d_model, heads, /*batch_first=*/true));
    norm1 = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    cross_attn = register_module("cross_attn", MSDeformableAttention(d_model, heads, points_per_level));
    gateway = register_module("gateway", Gate(d_model));
    linear1 = register_module("linear1", torch::nn::Linear(d_model, dim_feedforward));
    linear2 = register_module("linear2", torch::nn::Linear(dim_feedforward, d_model));
    norm3 = register_module("norm3", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    torch::nn::init::xavier_uniform_(linear1->weight);
    torch::nn::init::xavier_uniform_(linear2->weight);
}

torch::Tensor TransformerDecoderLayerImpl::forward(torch::Tensor target, const torch::Tensor& reference_boxes,
                                                   const torch::Tensor& value,
                                                   const std::vector<std::array<int64_t, 2>>& spatial_shapes,
                                                   const torch::Tensor& query_pos_embed,
                                                   const torch::Tensor& attn_mask) {
    const torch::Tensor q = target + query_pos_embed;
    target = norm1(target + self_attn(q, q, target, attn_mask));
    target = gateway(target, cross_attn(target + query_pos_embed, reference_boxes, value, spatial_shapes));
    target = target + linear2(apply_activation(linear1(target), activation_));
    return norm3(target.clamp(-65504, 65504));
}

LQEImpl::LQEImpl(int64_t reg_max, HeadActivation activation) : reg_max_(reg_max) {
    reg_conf = register_module("reg_conf", MLP(4 * (kQualityTopK + 1), kQualityHidden, 1, 2, activation));
    zero_last_layer(reg_conf);
}

torch::Tensor LQEImpl::forward(const torch::Tensor& scores, const torch::Tensor& corners) {
    const int64_t b = corners.size(0), l = corners.size(1);
    const torch::Tensor prob = torch::softmax(corners.reshape({b, l, 4, reg_max_ + 1}), -1);
    const torch::Tensor top = std::get<0>(prob.topk(kQualityTopK, -1));
    const torch::Tensor stat = torch::cat({top, top.mean(-1, true)}, -1);
    return scores + reg_conf(stat.reshape({b, l, -1}));
}

DFINETransformerImpl::DFINETransformerImpl(const DecoderOptions& o) : options_(o) {
    const auto levels = static_cast<int64_t>(o.feat_channels.size());
    if (static_cast<int64_t>(o.num_points.size()) != levels || static_cast<int64_t>(o.feat_strides.size()) != levels)
        throw InvalidArgument("dfine: the decoder has " + std::to_string(levels) + " feature maps but " +
                              std::to_string(o.num_points.size()) + " point counts and " +
                              std::to_string(o.feat_strides.size()) + " strides");
    eval_layer_ = o.eval_idx >= 0 ? o.eval_idx : o.num_layers + o.eval_idx;
    if (eval_layer_ < 0 || eval_layer_ >= o.num_layers)
        throw InvalidArgument("dfine: eval_idx " + std::to_string(o.eval_idx) + " is outside the decoder's " +
                              std::to_string(o.num_layers) + " layers");

    input_proj = register_module("input_proj", torch::nn::ModuleList());
    for (const int64_t in : o.feat_channels) {
        if (in == o.hidden_dim) {
            projections_.push_back(torch::nn::Sequential{nullptr});
            input_proj->push_back(torch::nn::Identity());
            continue;
        }
        torch::nn::Sequential proj;
        proj->push_back("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, o.hidden_dim, 1).bias(false)));
        proj->push_back("norm", torch::nn::BatchNorm2d(o.hidden_dim));
        torch::nn::init::xavier_uniform_(proj[0]->as<torch::nn::Conv2d>()->weight);
        projections_.push_back(proj);
        input_proj->push_back(proj);
    }
    up = register_parameter("up", torch::tensor({0.5f}), /*requires_grad=*/false);
    reg_scale = register_parameter("reg_scale", torch::tensor({static_cast<float>(o.reg_scale)}), false);

    // LibreYOLO's TransformerDecoder (decoder.decoder): the layers, their quality heads, and the same
    // up and reg_scale parameters again.
    auto decoder = register_module("decoder", std::make_shared<torch::nn::Module>());
    decoder->register_parameter("up", up, false);
    decoder->register_parameter("reg_scale", reg_scale, false);
    decoder_layers = decoder->register_module("layers", torch::nn::ModuleList());
    lqe_layers = decoder->register_module("lqe_layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < o.num_layers; ++i) {
        layers_.push_back(
            TransformerDecoderLayer(o.hidden_dim, o.nhead, o.dim_feedforward, o.num_points, o.activation));
        decoder_layers->push_back(layers_.back());
        lqes_.push_back(LQE(o.reg_max, o.activation));
        lqe_layers->push_back(lqes_.back());
    }
    if (o.num_denoising > 0)
        denoising_class_embed = register_module(
            "denoising_class_embed",
            torch::nn::Embedding(
                torch::nn::EmbeddingOptions(o.num_classes + 1, o.hidden_dim).padding_idx(o.num_classes)));
    query_pos_head = register_module("query_pos_head", MLP(4, 2 * o.hidden_dim, o.hidden_dim, 2, o.activation));
    torch::nn::Sequential output;
    output->push_back("proj", torch::nn::Linear(o.hidden_dim, o.hidden_dim));
    output->push_back("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.hidden_dim})));
    enc_output = register_module("enc_output", output);
    enc_score_head = register_module("enc_score_head", torch::nn::Linear(o.hidden_dim, o.num_classes));
    enc_bbox_head = register_module("enc_bbox_head", MLP(o.hidden_dim, o.hidden_dim, 4, 3, o.activation));
    dec_score_head = register_module("dec_score_head", torch::nn::ModuleList());
    dec_bbox_head = register_module("dec_bbox_head", torch::nn::ModuleList());
    for (int64_t i = 0; i < o.num_layers; ++i) {
        score_heads_.push_back(torch::nn::Linear(o.hidden_dim, o.num_classes));
        dec_score_head->push_back(score_heads_.back());
        bbox_heads_.push_back(MLP(o.hidden_dim, o.hidden_dim, 4 * (o.reg_max + 1), 3, o.activation));
        dec_bbox_head->push_back(bbox_heads_.back());
    }
    pre_bbox_head = register_module("pre_bbox_head", MLP(o.hidden_dim, o.hidden_dim, 4, 3, o.activation));
    const GridAnchors a = grid_anchors(eval_shapes(), torch::empty({0}), kInvalidAnchor);
    anchors_ = register_buffer("anchors", a.logits);
    valid_mask_ = register_buffer("valid_mask", a.valid);

    // LibreYOLO's _reset_parameters.
    torch::NoGradGuard no_grad;
    const double class_bias = bias_for_prior(0.01);
    enc_score_head->bias.fill_(class_bias);
    zero_last_layer(enc_bbox_head);
    zero_last_layer(pre_bbox_head);
    for (std::size_t i = 0; i < score_heads_.size(); ++i) {
        score_heads_[i]->bias.fill_(class_bias);
        zero_last_layer(bbox_heads_[i]);
    }
    torch::nn::init::xavier_uniform_(output[0]->as<torch::nn::Linear>()->weight);
    for (const auto& p : query_pos_head->parameters())
        if (p.dim() == 2) torch::nn::init::xavier_uniform_(p);
}

std::vector<std::array<int64_t, 2>> DFINETransformerImpl::eval_shapes() const {
    std::vector<std::array<int64_t, 2>> shapes;
    for (const int64_t s : options_.feat_strides)
        shapes.push_back({options_.eval_spatial_size[0] / s, options_.eval_spatial_size[1] / s});
    return shapes;
}

void DFINETransformerImpl::reset_constants() {
    torch::NoGradGuard no_grad;
    up.fill_(0.5);
    reg_scale.fill_(options_.reg_scale);
    const GridAnchors a = grid_anchors(eval_shapes(), torch::empty({0}), kInvalidAnchor);
    anchors_.copy_(a.logits);
    valid_mask_.copy_(a.valid);
    for (auto& layer : layers_) {
        auto& scale = layer->cross_attn->num_points_scale;
        int64_t k = 0;
        for (const int64_t n : options_.num_points)
            for (int64_t i = 0; i < n; ++i) scale[k++].fill_(1.0 / static_cast<double>(n));
    }
}

DFINETransformerImpl::Memory DFINETransformerImpl::flatten_maps(const std::vector<torch::Tensor>& feats) {
    if (feats.size() != projections_.size())
        throw InvalidArgument("dfine: the decoder takes " + std::to_string(projections_.size()) + " maps, got " +
                              std::to_string(feats.size()));
    Memory m;
    std::vector<torch::Tensor> flat;
    for (std::size_t i = 0; i < feats.size(); ++i) {
        const torch::Tensor p = projections_[i] ? projections_[i]->forward(feats[i]) : feats[i];
        m.shapes.push_back({p.size(2), p.size(3)});
        flat.push_back(p.flatten(2).permute({0, 2, 1}));
    }
    m.flat = torch::cat(flat, 1);
    return m;
}

GridAnchors DFINETransformerImpl::anchors_for(const std::vector<std::array<int64_t, 2>>& shapes,
                                              const torch::Tensor& memory) {
    // As LibreYOLO: the eval size's anchors come from the buffers (so from the checkpoint).
    GridAnchors a =
        shapes == eval_shapes() ? GridAnchors{anchors_, valid_mask_} : grid_anchors(shapes, memory, kInvalidAnchor);
    return {a.logits.to(memory.device(), memory.scalar_type()), a.valid.to(memory.device())};
}

DFINETransformerImpl::QuerySelection DFINETransformerImpl::select_queries(const std::vector<torch::Tensor>& feats,
                                                                          bool training) {
    QuerySelection q;
    q.memory = flatten_maps(feats);
    const torch::Tensor& flat = q.memory.flat;
    const int64_t b = flat.size(0), cells = flat.size(1);
    if (cells < options_.num_queries)
        throw InvalidArgument("dfine: the input's maps have " + std::to_string(cells) +
                              " cells, fewer than the decoder's " + std::to_string(options_.num_queries) +
                              " queries (use a larger imgsz)");
    const GridAnchors a =
        training ? grid_anchors(q.memory.shapes, flat, kInvalidAnchor) : anchors_for(q.memory.shapes, flat);
    const torch::Tensor anchors = b > 1 ? a.logits.repeat({b, 1, 1}) : a.logits;
    const torch::Tensor output_memory = enc_output->forward(a.valid.to(flat.scalar_type()) * flat);
    const torch::Tensor enc_logits = enc_score_head(output_memory);
    const torch::Tensor top = std::get<1>(torch::topk(std::get<0>(enc_logits.max(-1)), options_.num_queries, -1));
    q.top_memory = gather_rows(output_memory, top);
    if (training) q.top_logits = gather_rows(enc_logits, top);
    q.reference_logits = enc_bbox_head(q.top_memory) + gather_rows(anchors, top);
    return q;
}

DecoderOutput DFINETransformerImpl::forward(const std::vector<torch::Tensor>& feats) {
    const QuerySelection q = select_queries(feats, false);
    const Memory& m = q.memory;
    const int64_t b = m.flat.size(0), cells = m.flat.size(1);
    // The value is the projected maps before the border mask, split into heads.
    const torch::Tensor value = m.flat.reshape({b, cells, options_.nhead, -1});
    const torch::Tensor project = weighting_function(options_.reg_max, up, reg_scale);
    torch::Tensor output = q.top_memory.detach();
    torch::Tensor reference = torch::sigmoid(q.reference_logits.detach());
    torch::Tensor initial_reference, previous_output, previous_corners;
    for (int64_t i = 0;; ++i) {
        const auto l = static_cast<std::size_t>(i);
        const torch::Tensor pos = query_pos_head(reference).clamp(-10, 10);
        output = layers_[l](output, reference.unsqueeze(2), value, m.shapes, pos);
        if (i == 0) initial_reference = torch::sigmoid(pre_bbox_head(output) + inverse_sigmoid(reference)).detach();
        torch::Tensor corners = bbox_heads_[l](previous_output.defined() ? output + previous_output : output);
        if (previous_corners.defined()) corners = corners + previous_corners;
        const torch::Tensor boxes =
            distance_to_box(initial_reference, integral(corners, project, options_.reg_max), reg_scale);
        if (i == eval_layer_) return {lqes_[l](score_heads_[l](output), corners), boxes};
        previous_corners = corners;
        reference = boxes.detach();
        previous_output = output.detach();
    }
}

TrainingOutput DFINETransformerImpl::forward_train(const std::vector<torch::Tensor>& feats,
                                                   const std::vector<DetrTarget>& targets,
                                                   const DenoisingOptions& denoising) {
    TrainingOutput out;
    // LibreYOLO draws the denoising noise before the query selection; the order keeps seeded runs alike.
    if (options_.num_denoising > 0 && denoising.num_denoising > 0)
        out.group = contrastive_denoising_group(targets, options_.num_classes, options_.num_queries,
                                                denoising_class_embed, denoising);
    const QuerySelection q = select_queries(feats, true);
    const Memory& m = q.memory;
    const int64_t b = m.flat.size(0), cells = m.flat.size(1);
    out.encoder_top = {q.top_logits, torch::sigmoid(q.reference_logits)};
    torch::Tensor reference_logits = q.reference_logits.detach();
    torch::Tensor output = q.top_memory.detach();
    torch::Tensor mask;
    if (out.group) {
        reference_logits = torch::cat({out.group->box_logits, reference_logits}, 1);
        output = torch::cat({out.group->class_queries, output}, 1);
        mask = out.group->attn_mask;
    }
    const torch::Tensor value = m.flat.reshape({b, cells, options_.nhead, -1});
    const torch::Tensor project = weighting_function(options_.reg_max, up, reg_scale);
    // Each layer refines the previous layer's distributions (their gradient kept) from its output
    // with the gradient cut; the references and the query positions are cut too, as LibreYOLO.
    torch::Tensor reference = torch::sigmoid(reference_logits);
    torch::Tensor initial_reference, previous_output, previous_corners;
    std::vector<LayerOutput> layers;
    for (int64_t i = 0; i < options_.num_layers; ++i) {
        const auto l = static_cast<std::size_t>(i);
        const torch::Tensor pos = query_pos_head(reference).clamp(-10, 10);
        output = layers_[l](output, reference.unsqueeze(2), value, m.shapes, pos, mask);
        if (i == 0) {
            out.pre = {score_heads_[0](output), torch::sigmoid(pre_bbox_head(output) + inverse_sigmoid(reference))};
            initial_reference = out.pre.boxes.detach();
        }
        torch::Tensor corners = bbox_heads_[l](previous_output.defined() ? output + previous_output : output);
        if (previous_corners.defined()) corners = corners + previous_corners;
        const torch::Tensor boxes =
            distance_to_box(initial_reference, integral(corners, project, options_.reg_max), reg_scale);
        layers.push_back({lqes_[l](score_heads_[l](output), corners), boxes, corners, initial_reference});
        previous_corners = corners;
        reference = boxes.detach();
        previous_output = output.detach();
    }
    if (out.group) {
        const int64_t dn = out.group->queries, nq = options_.num_queries;
        const auto split = [&](const torch::Tensor& t, bool denoising_part) {
            return denoising_part ? t.narrow(1, 0, dn) : t.narrow(1, dn, nq);
        };
        for (const LayerOutput& layer : layers) {
            out.denoising_layers.push_back({split(layer.logits, true), split(layer.boxes, true),
                                            split(layer.corners, true), split(layer.references, true)});
            out.layers.push_back({split(layer.logits, false), split(layer.boxes, false), split(layer.corners, false),
                                  split(layer.references, false)});
        }
        out.denoising_pre = {split(out.pre.logits, true), split(out.pre.boxes, true)};
        out.pre = {split(out.pre.logits, false), split(out.pre.boxes, false)};
    } else {
        out.layers = std::move(layers);
    }
    return out;
}

}  // namespace libreyolo::models::dfine_network
