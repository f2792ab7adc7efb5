#include "models/rtdetr/decoder.h"

#include <cmath>
#include <numbers>

#include "graphs/concurrent_branches.h"
#include "kernels/deform/ms_deform_attn.h"
#include "libreyolo/errors.h"
#include "models/detr_box_ops.h"

namespace libreyolo::models::rtdetr {
namespace F = torch::nn::functional;
MSDeformableAttentionImpl::MSDeformableAttentionImpl(int64_t embed_dim, int64_t heads, int64_t levels, int64_t points)
    : heads_(heads), levels_(levels), points_(points) {
    const int64_t total = heads * levels * points;
    sampling_offsets = register_module("sampling_offsets", torch::nn::Linear(embed_dim, total * 2));
    attention_weights = register_module("attention_weights", torch::nn::Linear(embed_dim, total));
    value_proj = register_module("value_proj", torch::nn::Linear(embed_dim, embed_dim));
    output_proj = register_module("output_proj", torch::nn::Linear(embed_dim, embed_dim));
    // LibreYOLO's initialisation: offsets start on a ring of directions per head, scaled by the point.
    torch::NoGradGuard no_grad;
    sampling_offsets->weight.zero_();
    const torch::Tensor thetas =
        torch::arange(heads, torch::kFloat32) * (2.0 * std::numbers::pi / static_cast<double>(heads));
    torch::Tensor grid = torch::stack({thetas.cos(), thetas.sin()}, -1);
    grid = (grid / std::get<0>(grid.abs().max(-1, true))).reshape({heads, 1, 1, 2}).tile({1, levels, points, 1});
    grid = grid * torch::arange(1, points + 1, torch::kFloat32).reshape({1, 1, -1, 1});
    sampling_offsets->bias.copy_(grid.flatten());
    attention_weights->weight.zero_();
    attention_weights->bias.zero_();
    torch::nn::init::xavier_uniform_(value_proj->weight);
    value_proj->bias.zero_();
    torch::nn::init::xavier_uniform_(output_proj->weight);
    output_proj->bias.zero_();
}

torch::Tensor MSDeformableAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& reference_boxes,
                                                 const torch::Tensor& value_in,
                                                 const std::vector<std::array<int64_t, 2>>& spatial_shapes) {
    return forward_projected(query, reference_boxes, value_proj(value_in), spatial_shapes);
}

torch::Tensor MSDeformableAttentionImpl::forward_projected(const torch::Tensor& query,
                                                           const torch::Tensor& reference_boxes,
                                                           const torch::Tensor& projected_value,
                                                           const std::vector<std::array<int64_t, 2>>& spatial_shapes) {
    const int64_t b = query.size(0), lq = query.size(1), s = projected_value.size(1);
    const int64_t channels = projected_value.size(2) / heads_;
    const torch::Tensor value = projected_value.reshape({b, s, heads_, channels});
    const torch::Tensor offsets = sampling_offsets(query).reshape({b, lq, heads_, levels_, points_, 2});
    const torch::Tensor weights =
        torch::softmax(attention_weights(query).reshape({b, lq, heads_, levels_ * points_}), -1);
    // Boxes as references: centre plus offsets scaled by half the box per point.
    const torch::Tensor centre =
        reference_boxes.index({torch::indexing::Slice(), torch::indexing::Slice(), torch::indexing::None,
                               torch::indexing::Slice(), torch::indexing::None, torch::indexing::Slice(0, 2)});
    const torch::Tensor size =
        reference_boxes.index({torch::indexing::Slice(), torch::indexing::Slice(), torch::indexing::None,
                               torch::indexing::Slice(), torch::indexing::None, torch::indexing::Slice(2, 4)});
    const torch::Tensor locations = centre + offsets / static_cast<double>(points_) * size * 0.5;
    const kernels::DeformableSampling sampling{spatial_shapes, std::vector<int64_t>(levels_, points_), false};
    const torch::Tensor out = kernels::ms_deform_attn_slot()(
        value, locations.reshape({b, lq, heads_, levels_ * points_, 2}), weights, sampling);
    return output_proj(out);
}

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(int64_t d_model, int64_t heads, int64_t dim_feedforward,
                                                         int64_t levels, int64_t points) {
    self_attn = register_module("self_attn", nn::MultiheadAttention(d_model, heads, /*batch_first=*/true));
    norm1 = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    cross_attn = register_module("cross_attn", MSDeformableAttention(d_model, heads, levels, points));
    norm2 = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
    linear1 = register_module("linear1", torch::nn::Linear(d_model, dim_feedforward));
    linear2 = register_module("linear2", torch::nn::Linear(dim_feedforward, d_model));
    norm3 = register_module("norm3", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d_model})));
}

torch::Tensor TransformerDecoderLayerImpl::forward(torch::Tensor tgt, const torch::Tensor& reference_boxes,
                                                   const torch::Tensor& memory,
                                                   const std::vector<std::array<int64_t, 2>>& spatial_shapes,
                                                   const torch::Tensor& query_pos_embed,
                                                   const torch::Tensor& attn_mask) {
    const torch::Tensor q = tgt + query_pos_embed;
    tgt = norm1(tgt + self_attn(q, q, tgt, attn_mask));
    tgt = norm2(tgt + cross_attn(tgt + query_pos_embed, reference_boxes, memory, spatial_shapes));
    return norm3((tgt + linear2(torch::relu(linear1(tgt)))).clamp(-65504, 65504));
}

torch::Tensor TransformerDecoderLayerImpl::forward_fused(torch::Tensor tgt, const torch::Tensor& reference_boxes,
                                                         const torch::Tensor& projected_value,
                                                         const std::vector<std::array<int64_t, 2>>& spatial_shapes,
                                                         const torch::Tensor& query_pos_embed) {
    const torch::Tensor q = tgt + query_pos_embed;
    tgt = norm1(tgt + self_attn(q, q, tgt));
    tgt = norm2(tgt +
                cross_attn->forward_projected(tgt + query_pos_embed, reference_boxes, projected_value, spatial_shapes));
    return norm3((tgt + linear2(linear_relu(linear1, tgt))).clamp(-65504, 65504));
}

RTDETRTransformerImpl::RTDETRTransformerImpl(const DecoderOptions& o, const std::array<int64_t, 3>& feat_channels)
    : options_(o) {
    input_proj = register_module("input_proj", torch::nn::ModuleList());
    for (const int64_t in : feat_channels) {
        torch::nn::Sequential proj;
        proj->push_back("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, o.hidden_dim, 1).bias(false)));
        proj->push_back("norm", torch::nn::BatchNorm2d(o.hidden_dim));
        projections_.add(proj);
        input_proj->push_back(proj);
    }
    // LibreYOLO's TransformerDecoder: decoder.layers[i].
    auto decoder = register_module("decoder", std::make_shared<torch::nn::Module>());
    decoder_layers = decoder->register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < o.num_layers; ++i) {
        layers_.push_back(TransformerDecoderLayer(o.hidden_dim, o.nhead, o.dim_feedforward, 3, o.num_points));
        decoder_layers->push_back(layers_.back());
    }
    if (o.num_denoising > 0)
        denoising_class_embed = register_module(
            "denoising_class_embed",
            torch::nn::Embedding(
                torch::nn::EmbeddingOptions(o.num_classes + 1, o.hidden_dim).padding_idx(o.num_classes)));
    query_pos_head = register_module("query_pos_head", MLP(4, 2 * o.hidden_dim, o.hidden_dim, 2));
    enc_output = register_module(
        "enc_output", torch::nn::Sequential(torch::nn::Linear(o.hidden_dim, o.hidden_dim),
                                            torch::nn::LayerNorm(torch::nn::LayerNormOptions({o.hidden_dim}))));
    enc_score_head = register_module("enc_score_head", torch::nn::Linear(o.hidden_dim, o.num_classes));
    enc_bbox_head = register_module("enc_bbox_head", MLP(o.hidden_dim, o.hidden_dim, 4, 3));
    dec_score_head = register_module("dec_score_head", torch::nn::ModuleList());
    dec_bbox_head = register_module("dec_bbox_head", torch::nn::ModuleList());
    for (int64_t i = 0; i < o.num_layers; ++i) {
        score_heads_.push_back(torch::nn::Linear(o.hidden_dim, o.num_classes));
        dec_score_head->push_back(score_heads_.back());
        bbox_heads_.push_back(MLP(o.hidden_dim, o.hidden_dim, 4, 3));
        dec_bbox_head->push_back(bbox_heads_.back());
    }
}

torch::Tensor RTDETRTransformerImpl::project(const std::vector<torch::Tensor>& feats,
                                             std::vector<std::array<int64_t, 2>>& shapes) {
    int64_t cells = 0;
    for (const torch::Tensor& f : feats) {
        shapes.push_back({f.size(2), f.size(3)});
        cells += f.size(2) * f.size(3);
    }
    if (!projections_.folded()) {
        std::vector<torch::Tensor> flat;
        for (std::size_t i = 0; i < feats.size(); ++i)
            flat.push_back(projections_.forward(i, feats[i]).flatten(2).permute({0, 2, 1}));
        return torch::cat(flat, 1);
    }
    // Each projection writes its rows of memory, seen as a channels-last (B, hidden, H, W) map.
    const int64_t batch = feats.front().size(0), hidden = options_.hidden_dim;
    const torch::Tensor memory = torch::empty({batch, cells, hidden}, feats.front().options());
    std::vector<graphs::Branch> levels;
    int64_t first = 0;
    for (std::size_t i = 0; i < feats.size(); ++i) {
        const auto [h, w] = shapes[i];
        const torch::Tensor rows = memory.narrow(1, first, h * w).view({batch, h, w, hidden}).permute({0, 3, 1, 2});
        levels.push_back([this, i, &feats, rows] {
            projections_.forward(i, feats[i], rows);
            return torch::Tensor();
        });
        first += h * w;
    }
    graphs::run_concurrently(memory.device(), levels);
    return memory;
}

GridAnchors RTDETRTransformerImpl::anchors(const std::vector<std::array<int64_t, 2>>& shapes,
                                           const torch::Tensor& memory) {
    if (!projections_.folded()) return grid_anchors(shapes, memory, INFINITY);
    // The fused copy keeps them in memory's dtype, the form select_queries reads.
    std::vector<int64_t> sizes;
    for (const auto& [h, w] : shapes) sizes.insert(sizes.end(), {h, w});
    const std::vector<torch::Tensor> tables = anchor_tables_.get(ConstantTableCache::key(memory, sizes), [&] {
        const GridAnchors a = grid_anchors(shapes, memory, INFINITY);
        return std::vector<torch::Tensor>{a.logits.to(memory.scalar_type()), a.valid.to(memory.scalar_type())};
    });
    return {tables[0], tables[1]};
}

RTDETRTransformerImpl::QuerySelection RTDETRTransformerImpl::select_queries(const std::vector<torch::Tensor>& feats,
                                                                            std::vector<torch::Tensor>* values) {
    QuerySelection q;
    q.memory = project(feats, q.shapes);
    if (q.memory.size(1) < options_.num_queries)
        throw InvalidArgument("rtdetr: an input of " + std::to_string(feats.front().size(2) * 8) + "x" +
                              std::to_string(feats.front().size(3) * 8) + " has " + std::to_string(q.memory.size(1)) +
                              " cells over its three maps, fewer than the decoder's " +
                              std::to_string(options_.num_queries) + " queries (use imgsz 160 or more)");
    const auto [anchor_logits, valid] = anchors(q.shapes, q.memory);
    // Cells without a valid anchor are zeroed for the selection alone: LibreYOLO's decoder layers
    // attend over the memory as projected, those cells included.
    const torch::Tensor selectable = valid.to(q.memory.scalar_type()) * q.memory;
    const auto select = [&] {
        q.output_memory = enc_output->forward(selectable);
        q.enc_class = enc_score_head(q.output_memory);
        const torch::Tensor box =
            values ? enc_bbox_head->forward_fused(q.output_memory) : enc_bbox_head(q.output_memory);
        const torch::Tensor enc_coord = box + anchor_logits.to(q.memory.scalar_type());
        q.top = std::get<1>(torch::topk(std::get<0>(q.enc_class.max(-1)), options_.num_queries, 1));
        q.reference_logits = gather_rows(enc_coord, q.top);
        return torch::Tensor();
    };
    if (!values) {
        select();
        return q;
    }
    std::vector<graphs::Branch> branches{select};
    for (int64_t i = 0; i <= eval_layer(); ++i)
        branches.push_back([&q, value_proj = layers_[static_cast<std::size_t>(i)]->cross_attn->value_proj]() mutable {
            return value_proj(q.memory);
        });
    *values = graphs::run_concurrently(q.memory.device(), branches);
    values->erase(values->begin());
    return q;
}

DecoderOutput RTDETRTransformerImpl::forward(const std::vector<torch::Tensor>& feats) {
    std::vector<torch::Tensor> values;
    const QuerySelection q = select_queries(feats, projections_.folded() ? &values : nullptr);
    return decode(q, values);
}

DecoderOutput RTDETRTransformerImpl::decode(const QuerySelection& q, const std::vector<torch::Tensor>& values) {
    torch::Tensor reference = torch::sigmoid(q.reference_logits.detach());
    torch::Tensor output = gather_rows(q.output_memory, q.top).detach();

    const int64_t last = eval_layer();
    const bool fused = !values.empty();
    DecoderOutput out;
    for (int64_t i = 0; i <= last; ++i) {
        const auto l = static_cast<std::size_t>(i);
        if (fused) {
            output = layers_[l]->forward_fused(output, reference.unsqueeze(2), values[l], q.shapes,
                                               query_pos_head->forward_fused(reference));
        } else {
            output = layers_[l](output, reference.unsqueeze(2), q.memory, q.shapes, query_pos_head(reference));
        }
        const torch::Tensor delta = fused ? bbox_heads_[l]->forward_fused(output) : bbox_heads_[l](output);
        const torch::Tensor refined = torch::sigmoid(delta + inverse_sigmoid(reference));
        if (i == last) {
            out.logits = score_heads_[l](output);
            out.boxes = refined;
        }
        reference = refined;
    }
    return out;
}

TrainingOutput RTDETRTransformerImpl::forward_train(const std::vector<torch::Tensor>& feats,
                                                    const std::vector<DetrTarget>& targets,
                                                    const DenoisingOptions& denoising) {
    TrainingOutput out;
    // LibreYOLO draws the denoising noise before the query selection; the order keeps seeded runs alike.
    if (options_.num_denoising > 0 && denoising.num_denoising > 0)
        out.group = contrastive_denoising_group(targets, options_.num_classes, options_.num_queries,
                                                denoising_class_embed, denoising);
    const QuerySelection q = select_queries(feats);
    const DecoderOutput encoder_top{gather_rows(q.enc_class, q.top), torch::sigmoid(q.reference_logits)};
    torch::Tensor reference_logits = q.reference_logits;
    torch::Tensor output = gather_rows(q.output_memory, q.top).detach();
    torch::Tensor mask;
    if (out.group) {
        reference_logits = torch::cat({out.group->box_logits, reference_logits}, 1);
        output = torch::cat({out.group->class_queries, output}, 1);
        mask = out.group->attn_mask;
    }
    // Each layer refines from the previous layer's boxes with the gradient cut (reference_detached);
    // its own loss boxes keep the gradient to the previous layer (reference), as LibreYOLO.
    torch::Tensor reference_detached = torch::sigmoid(reference_logits.detach()), reference;
    std::vector<DecoderOutput> layers;
    for (int64_t i = 0; i < options_.num_layers; ++i) {
        const auto l = static_cast<std::size_t>(i);
        output = layers_[l](output, reference_detached.unsqueeze(2), q.memory, q.shapes,
                            query_pos_head(reference_detached), mask);
        const torch::Tensor box_delta = bbox_heads_[l](output);
        const torch::Tensor refined = torch::sigmoid(box_delta + inverse_sigmoid(reference_detached));
        layers.push_back(
            {score_heads_[l](output), i == 0 ? refined : torch::sigmoid(box_delta + inverse_sigmoid(reference))});
        reference = refined;
        reference_detached = refined.detach();
    }
    if (out.group) {
        const int64_t dn = out.group->queries;
        for (auto& layer : layers) {
            out.denoising.push_back({layer.logits.narrow(1, 0, dn), layer.boxes.narrow(1, 0, dn)});
            layer = {layer.logits.narrow(1, dn, options_.num_queries), layer.boxes.narrow(1, dn, options_.num_queries)};
        }
    }
    out.main = layers.back();
    out.aux.assign(layers.begin(), layers.end() - 1);
    out.aux.push_back(encoder_top);
    return out;
}

}  // namespace libreyolo::models::rtdetr
