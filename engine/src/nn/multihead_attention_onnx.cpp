// nn::MultiheadAttention as ONNX nodes (multihead_attention.h): the equation PyTorch's
// multi_head_attention_forward computes with need_weights, q scaled by 1/√d, softmax(q kᵀ) v.
#include <cmath>

#include "nn/multihead_attention.h"
#include "onnx/layers.h"

namespace libreyolo::nn {

std::string MultiheadAttentionImpl::emit_onnx(onnx::Graph& g, const std::string& name, const std::string& query,
                                              const std::string& key, const std::string& value,
                                              std::int64_t query_length, std::int64_t key_length) const {
    const int64_t embed = in_proj_weight.size(1), heads = num_heads_, head_dim = embed / heads;
    const std::vector<torch::Tensor> w = in_proj_weight.chunk(3, 0), b = in_proj_bias.chunk(3, 0);
    auto project = [&](const std::string& x, int part, const char* what, int64_t length,
                       const std::vector<int64_t>& perm) {
        const std::string path = name + "." + what;
        const std::string y = g.op("Add",
                                   {g.op("MatMul", {x, g.weight(path + ".weight_t", w[part].t().contiguous())}, path),
                                    g.weight(path + ".bias", b[part])},
                                   path + ".add_bias");
        const std::string split =
            g.op("Reshape", {y, onnx::int64s(g, path + ".shape", {0, length, heads, head_dim})}, path + ".heads");
        return g.op("Transpose", {split}, path + ".by_head", {{"perm", perm}});
    };
    const std::string q = project(query, 0, "q", query_length, {0, 2, 1, 3});  // (B, H, L, d)
    const std::string k = project(key, 1, "k", key_length, {0, 2, 3, 1});      // (B, H, d, S)
    const std::string v = project(value, 2, "v", key_length, {0, 2, 1, 3});    // (B, H, S, d)
    const std::string scaled = g.op(
        "Mul", {q, g.weight(name + ".scale", torch::tensor(static_cast<float>(std::sqrt(1.0 / double(head_dim)))))},
        name + ".q_scaled");
    const std::string weights =
        g.op("Softmax", {g.op("MatMul", {scaled, k}, name + ".scores")}, name + ".weights", {{"axis", int64_t{-1}}});
    const std::string heads_out = g.op("MatMul", {weights, v}, name + ".attended");
    const std::string merged =
        g.op("Reshape",
             {g.op("Transpose", {heads_out}, name + ".by_query", {{"perm", std::vector<int64_t>{0, 2, 1, 3}}}),
              onnx::int64s(g, name + ".merged.shape", {0, query_length, embed})},
             name + ".merged");
    return onnx::linear(g, *out_proj, name + ".out_proj", merged);
}

}  // namespace libreyolo::nn
