// RT-DETR as ONNX nodes, module by module, from the fused copy's parameters (BatchNorm folded into
// each ConvNormLayer; the projections' BatchNorms as BatchNormalization): the operations of the
// inference forward, with attention in its manual equation and the deformable cross-attention as
// GridSample per level (opset 16+), each value named after its module's state_dict path. Outputs
// LibreYOLO's pred_logits and pred_boxes.
#include <cmath>

#include "models/constant_tables.h"
#include "models/detr_onnx.h"
#include "models/rtdetr/rtdetr.h"
#include "onnx/layers.h"

namespace libreyolo::models::rtdetr {

using onnx::Graph;
using onnx::int64s;
using onnx::slice;

namespace {

// Sequential(Conv2d, BatchNorm2d): the input projections of the encoder ("0", "1") and the
// decoder ("conv", "norm"); once folded, the convolution alone.
std::string projection(Graph& g, const ConvBnProjections& projections, std::size_t i, const std::string& name,
                       const std::string& x) {
    const auto children = projections.at(i)->named_children();
    const std::string conv = name + "." + children[0].key(), norm = name + "." + children[1].key();
    const std::string y = onnx::conv2d(g, *children[0].value()->as<torch::nn::Conv2dImpl>(), conv, x);
    if (projections.folded()) return y;
    return onnx::batch_norm(g, *children[1].value()->as<torch::nn::BatchNorm2dImpl>(), norm, y);
}

// (B, C, H, W) → (B, H·W, C).
std::string to_tokens(Graph& g, const std::string& x, int64_t channels, int64_t cells, const std::string& name) {
    return g.op("Transpose", {g.op("Reshape", {x, int64s(g, name + ".shape", {0, channels, cells})}, name + ".flat")},
                name, {{"perm", std::vector<int64_t>{0, 2, 1}}});
}

std::string scalar(Graph& g, const std::string& name, double v) {
    return g.weight(name, torch::tensor(static_cast<float>(v)));
}

}  // namespace

std::string ResidualBlockImpl::emit_onnx(Graph& g, const std::string& x, const std::string& name) {
    std::string y =
        conv_norm_layer(g, *branch2b, name + ".branch2b", conv_norm_layer(g, *branch2a, name + ".branch2a", x));
    if (branch2c) y = conv_norm_layer(g, *branch2c, name + ".branch2c", y);
    std::string shortcut = x;
    if (pooled_short) {
        const std::string pooled = g.op("AveragePool", {x}, name + ".short.pool",
                                        {{"kernel_shape", std::vector<int64_t>{2, 2}},
                                         {"strides", std::vector<int64_t>{2, 2}},
                                         {"ceil_mode", int64_t{1}},
                                         {"count_include_pad", int64_t{1}}});
        shortcut = conv_norm_layer(g, *pooled_short->ptr(1)->as<ConvNormLayerImpl>(), name + ".short.conv", pooled);
    } else if (plain_short) {
        shortcut = conv_norm_layer(g, *plain_short, name + ".short", x);
    }
    return onnx::relu(g, g.op("Add", {y, shortcut}, name + ".sum"), name + ".act");
}

std::vector<std::string> PResNetImpl::emit_onnx(Graph& g, const std::string& images) {
    std::string y = images;
    for (const char* stem : {"conv1_1", "conv1_2", "conv1_3"})
        y = conv_norm_layer(g, *conv1->named_children()[stem]->as<ConvNormLayerImpl>(),
                            std::string("backbone.conv1.") + stem, y);
    y = g.op("MaxPool", {y}, "backbone.maxpool",
             {{"kernel_shape", std::vector<int64_t>{3, 3}},
              {"strides", std::vector<int64_t>{2, 2}},
              {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    std::vector<std::string> outs;
    for (std::size_t stage = 0; stage < stages_.size(); ++stage) {
        for (std::size_t i = 0; i < stages_[stage].size(); ++i)
            y = stages_[stage][i]->emit_onnx(
                g, y, "backbone.res_layers." + std::to_string(stage) + ".blocks." + std::to_string(i));
        if (stage > 0) outs.push_back(y);
    }
    return outs;
}

std::vector<std::string> HybridEncoderImpl::emit_onnx(Graph& g, const std::vector<std::string>& feats, int64_t height,
                                                      int64_t width) {
    const int64_t c = options_.hidden_dim;
    std::vector<std::string> proj;
    for (std::size_t i = 0; i < 3; ++i)
        proj.push_back(projection(g, projections_, i, "encoder.input_proj." + std::to_string(i), feats[i]));

    // AIFI on the stride-32 map, with its constant sin-cos position embedding.
    const int64_t h = height / 32, w = width / 32;
    const std::string tokens = to_tokens(g, proj[2], c, h * w, "encoder.aifi.tokens");
    const std::string pos = g.weight("encoder.aifi.pos_embed",
                                     sincos_position_embedding(w, h, c, options_.pe_temperature, torch::empty({0})));
    const std::string encoded = transformer_encoder_layer(g, *aifi_, "encoder.encoder.0.layers.0", tokens, pos, h * w);
    proj[2] = g.op("Reshape",
                   {g.op("Transpose", {encoded}, "encoder.aifi.channels", {{"perm", std::vector<int64_t>{0, 2, 1}}}),
                    int64s(g, "encoder.aifi.map.shape", {-1, c, h, w})},
                   "encoder.aifi.map");

    std::vector<std::string> inner = {proj[2]};
    for (int idx = 2; idx > 0; --idx) {
        const int k = 2 - idx;
        const std::string high =
            conv_norm_layer(g, *laterals_[k], "encoder.lateral_convs." + std::to_string(k), inner.front());
        inner.front() = high;
        const std::string up = onnx::upsample_nearest2x(g, high, "encoder.fpn_up" + std::to_string(k));
        const std::string cat =
            g.op("Concat", {up, proj[idx - 1]}, "encoder.fpn_cat" + std::to_string(k), {{"axis", int64_t{1}}});
        inner.insert(inner.begin(), csp_rep_layer(g, *fpns_[k], "encoder.fpn_blocks." + std::to_string(k), cat));
    }
    std::vector<std::string> outs = {inner[0]};
    for (int idx = 0; idx < 2; ++idx) {
        const std::string down =
            conv_norm_layer(g, *downsamples_[idx], "encoder.downsample_convs." + std::to_string(idx), outs.back());
        const std::string cat =
            g.op("Concat", {down, inner[idx + 1]}, "encoder.pan_cat" + std::to_string(idx), {{"axis", int64_t{1}}});
        outs.push_back(csp_rep_layer(g, *pans_[idx], "encoder.pan_blocks." + std::to_string(idx), cat));
    }
    return outs;
}

namespace {

// Multi-scale deformable attention (MSDeformableAttention::forward and the ms_deform_attn
// reference): query (B, Lq, C), reference (B, Lq, 4) cx cy w h, value (B, S, C).
std::string deformable_attention(Graph& g, const MSDeformableAttentionImpl& attn, const std::string& name,
                                 const std::string& query, const std::string& reference, const std::string& memory,
                                 const std::vector<std::array<int64_t, 2>>& shapes, int64_t queries) {
    const int64_t heads = attn.heads(), levels = attn.levels(), points = attn.points();
    const int64_t channels = attn.value_proj->weight.size(0) / heads;
    int64_t cells = 0;
    for (const auto& [h, w] : shapes) cells += h * w;
    const std::string value = g.op("Reshape",
                                   {onnx::linear(g, *attn.value_proj, name + ".value_proj", memory),
                                    int64s(g, name + ".value.shape", {0, cells, heads, channels})},
                                   name + ".value");
    const std::string offsets = g.op("Reshape",
                                     {onnx::linear(g, *attn.sampling_offsets, name + ".sampling_offsets", query),
                                      int64s(g, name + ".offsets.shape", {0, queries, heads, levels, points, 2})},
                                     name + ".offsets");
    const std::string weights =
        g.op("Softmax",
             {g.op("Reshape",
                   {onnx::linear(g, *attn.attention_weights, name + ".attention_weights", query),
                    int64s(g, name + ".weights.shape", {0, queries, heads, levels * points})},
                   name + ".weights.flat")},
             name + ".weights", {{"axis", int64_t{-1}}});
    // centre + offsets / P · size · ½, the reference broadcast over heads, levels and points.
    const std::string ref6 =
        g.op("Reshape", {reference, int64s(g, name + ".ref.shape", {0, queries, 1, 1, 1, 4})}, name + ".ref");
    const std::string centre = slice(g, ref6, 5, 0, 2, name + ".ref.centre");
    const std::string size = slice(g, ref6, 5, 2, 4, name + ".ref.size");
    const std::string spread = g.op(
        "Mul",
        {g.op("Mul", {g.op("Div", {offsets, scalar(g, name + ".points", double(points))}, name + ".per_point"), size},
              name + ".scaled"),
         scalar(g, name + ".half", 0.5)},
        name + ".spread");
    const std::string locations = g.op("Reshape",
                                       {g.op("Add", {centre, spread}, name + ".locations.grid"),
                                        int64s(g, name + ".locations.shape", {0, queries, heads, levels * points, 2})},
                                       name + ".locations");

    std::vector<std::string> sampled;
    int64_t start = 0;
    for (int64_t l = 0; l < levels; ++l) {
        const auto [h, w] = shapes[static_cast<std::size_t>(l)];
        const std::string level = name + ".level" + std::to_string(l);
        // (B, HW, M, D) → (B·M, D, H, W)
        const std::string map = g.op("Reshape",
                                     {g.op("Transpose",
                                           {g.op("Reshape",
                                                 {slice(g, value, 1, start, start + h * w, level + ".value"),
                                                  int64s(g, level + ".value.flat.shape", {0, h * w, heads * channels})},
                                                 level + ".value.flat")},
                                           level + ".value.channels", {{"perm", std::vector<int64_t>{0, 2, 1}}}),
                                      int64s(g, level + ".map.shape", {-1, channels, h, w})},
                                     level + ".map");
        // (B, Lq, M, P, 2) → (B·M, Lq, P, 2), then to [-1, 1].
        const std::string where =
            g.op("Reshape",
                 {g.op("Transpose", {slice(g, locations, 3, l * points, (l + 1) * points, level + ".where")},
                       level + ".where.by_head", {{"perm", std::vector<int64_t>{0, 2, 1, 3, 4}}}),
                  int64s(g, level + ".where.shape", {-1, queries, points, 2})},
                 level + ".where.flat");
        const std::string grid = g.op(
            "Sub",
            {g.op("Mul", {where, scalar(g, level + ".two", 2.0)}, level + ".doubled"), scalar(g, level + ".one", 1.0)},
            level + ".grid");
        sampled.push_back(g.op("GridSample", {map, grid}, level + ".sampled",
                               {{"mode", std::string("bilinear")},
                                {"padding_mode", std::string("zeros")},
                                {"align_corners", int64_t{0}}}));  // (B·M, D, Lq, P)
        start += h * w;
    }
    const std::string all = g.op("Concat", sampled, name + ".sampled", {{"axis", int64_t{-1}}});
    const std::string w =
        g.op("Reshape",
             {g.op("Transpose", {weights}, name + ".weights.by_head", {{"perm", std::vector<int64_t>{0, 2, 1, 3}}}),
              int64s(g, name + ".weights.shape2", {-1, 1, queries, levels * points})},
             name + ".weights.per_head");
    const std::string summed =
        g.op("ReduceSum", {g.op("Mul", {all, w}, name + ".weighted"), int64s(g, name + ".sum.axes", {-1})},
             name + ".summed", {{"keepdims", int64_t{0}}});
    const std::string out =
        g.op("Transpose",
             {g.op("Reshape", {summed, int64s(g, name + ".out.shape", {-1, heads * channels, queries})},
                   name + ".out.flat")},
             name + ".out", {{"perm", std::vector<int64_t>{0, 2, 1}}});
    return onnx::linear(g, *attn.output_proj, name + ".output_proj", out);
}

std::string decoder_layer(Graph& g, const TransformerDecoderLayerImpl& layer, const std::string& name,
                          const std::string& tgt_in, const std::string& reference, const std::string& memory,
                          const std::vector<std::array<int64_t, 2>>& shapes, const std::string& pos, int64_t queries) {
    const std::string q = g.op("Add", {tgt_in, pos}, name + ".with_pos");
    std::string tgt = onnx::layer_norm(
        g, *layer.norm1, name + ".norm1",
        g.op("Add", {tgt_in, layer.self_attn->emit_onnx(g, name + ".self_attn", q, q, tgt_in, queries, queries)},
             name + ".residual1"));
    const std::string cross_query = g.op("Add", {tgt, pos}, name + ".cross_query");
    tgt = onnx::layer_norm(g, *layer.norm2, name + ".norm2",
                           g.op("Add",
                                {tgt, deformable_attention(g, *layer.cross_attn, name + ".cross_attn", cross_query,
                                                           reference, memory, shapes, queries)},
                                name + ".residual2"));
    const std::string ffn =
        onnx::linear(g, *layer.linear2, name + ".linear2",
                     onnx::relu(g, onnx::linear(g, *layer.linear1, name + ".linear1", tgt), name + ".relu"));
    const std::string clipped = g.op("Clip",
                                     {g.op("Add", {tgt, ffn}, name + ".residual3"), scalar(g, name + ".lo", -65504.0),
                                      scalar(g, name + ".hi", 65504.0)},
                                     name + ".clipped");
    return onnx::layer_norm(g, *layer.norm3, name + ".norm3", clipped);
}

}  // namespace

std::array<std::string, 2> RTDETRTransformerImpl::emit_onnx(Graph& g, const std::vector<std::string>& feats,
                                                            int64_t height, int64_t width) {
    const int64_t c = options_.hidden_dim, queries = options_.num_queries;
    std::vector<std::array<int64_t, 2>> shapes;
    std::vector<std::string> flat;
    int64_t cells = 0;
    for (std::size_t i = 0; i < feats.size(); ++i) {
        const int64_t stride = int64_t{8} << i, h = height / stride, w = width / stride;
        shapes.push_back({h, w});
        cells += h * w;
        flat.push_back(to_tokens(g, projection(g, projections_, i, "decoder.input_proj." + std::to_string(i), feats[i]),
                                 c, h * w, "decoder.memory" + std::to_string(i)));
    }
    if (cells < queries)
        throw InvalidArgument("imgsz: an input of " + std::to_string(height) + "x" + std::to_string(width) + " has " +
                              std::to_string(cells) + " cells, fewer than the decoder's " + std::to_string(queries) +
                              " queries (use 160 or more)");
    const std::string all = g.op("Concat", flat, "decoder.memory", {{"axis", int64_t{1}}});
    const auto [anchor_logits, valid] = grid_anchors(shapes, torch::empty({0}), INFINITY);
    // Zeroed cells for the query selection; the decoder layers attend over `all`, as LibreYOLO's.
    const std::string memory = g.op("Mul", {all, g.weight("decoder.valid_mask", valid)}, "decoder.memory.valid");
    const std::string output_memory = onnx::layer_norm(
        g, *enc_output->ptr(1)->as<torch::nn::LayerNormImpl>(), "decoder.enc_output.1",
        onnx::linear(g, *enc_output->ptr(0)->as<torch::nn::LinearImpl>(), "decoder.enc_output.0", memory));
    const std::string enc_class = onnx::linear(g, *enc_score_head, "decoder.enc_score_head", output_memory);
    const std::string enc_coord = g.op(
        "Add",
        {mlp(g, *enc_bbox_head, "decoder.enc_bbox_head", output_memory), g.weight("decoder.anchors", anchor_logits)},
        "decoder.enc_coord");
    // The num_queries cells with the best class score, and their rows.
    const std::string best = g.op("ReduceMax", {enc_class}, "decoder.best_score",
                                  {{"axes", std::vector<int64_t>{-1}}, {"keepdims", int64_t{0}}});
    const std::vector<std::string> top =
        g.node("TopK", {best, int64s(g, "decoder.top.k", {queries})}, "decoder.top", 2,
               {{"axis", int64_t{1}}, {"largest", int64_t{1}}, {"sorted", int64_t{1}}});
    const std::string rows = g.op("Unsqueeze", {top[1], int64s(g, "decoder.top.axes", {-1})}, "decoder.top.rows");
    auto gather = [&](const std::string& x, const std::string& name) {
        return g.op("GatherND", {x, rows}, name, {{"batch_dims", int64_t{1}}});
    };
    std::string reference = g.op("Sigmoid", {gather(enc_coord, "decoder.reference_logits")}, "decoder.reference0");
    std::string output = gather(output_memory, "decoder.target");

    const int64_t last = options_.eval_idx >= 0 ? options_.eval_idx : options_.num_layers + options_.eval_idx;
    std::array<std::string, 2> out;
    for (int64_t i = 0; i <= last; ++i) {
        const auto l = static_cast<std::size_t>(i);
        const std::string n = std::to_string(i);
        const std::string pos = mlp(g, *query_pos_head, "decoder.query_pos_head", reference);
        output =
            decoder_layer(g, *layers_[l], "decoder.decoder.layers." + n, output, reference, all, shapes, pos, queries);
        const std::string refined = g.op("Sigmoid",
                                         {g.op("Add",
                                               {mlp(g, *bbox_heads_[l], "decoder.dec_bbox_head." + n, output),
                                                inverse_sigmoid(g, reference, "decoder.reference" + n + ".logits")},
                                               "decoder.refined" + n + ".logits")},
                                         "decoder.refined" + n);
        if (i == last) out = {onnx::linear(g, *score_heads_[l], "decoder.dec_score_head." + n, output), refined};
        reference = refined;
    }
    return out;
}

std::vector<nn::OnnxOutput> RTDETRModelImpl::emit_onnx(Graph& g, const std::string& images, int64_t height,
                                                       int64_t width) {
    const std::vector<std::string> features = backbone->emit_onnx(g, images);
    const auto [logits, boxes] = decoder->emit_onnx(g, encoder->emit_onnx(g, features, height, width), height, width);
    const int64_t queries = decoder->options().num_queries;
    return {{logits, "pred_logits", {queries, num_classes_}}, {boxes, "pred_boxes", {queries, 4}}};
}

}  // namespace libreyolo::models::rtdetr
