#pragma once
// Multi-head attention with nn.MultiheadAttention's parameters (in_proj_weight, in_proj_bias,
// out_proj.weight, out_proj.bias) and two ways to compute it (spec 003, attention policy):
//  - manual: the primitive-op equation, operation for operation what PyTorch's
//    F.multi_head_attention_forward does with need_weights=True (scaled q, bmm/baddbmm, softmax,
//    bmm): what LibreYOLO's DETR-family ports run, and so the byte-exact default;
//  - fused: at::scaled_dot_product_attention (flash / memory-efficient / cuDNN kernels), which
//    accumulates in another order.
// fused_attn picks; a trace or an export (manual_attention_required()) always takes manual.
#include <torch/torch.h>

#include <string>

#include "nn/cast_weights_cache.h"

namespace libreyolo::onnx {
class Graph;
}

namespace libreyolo::nn {

class MultiheadAttentionImpl : public torch::nn::Module {
public:
    MultiheadAttentionImpl(std::int64_t embed_dim, std::int64_t num_heads, bool batch_first = false);

    // query (L, B, E), key and value (S, B, E) ((B, L, E)... with batch_first). attn_mask: (L, S)
    // or (B·heads, L, S), float (added) or bool (true = masked out). Returns (L, B, E).
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& key, const torch::Tensor& value,
                          const torch::Tensor& attn_mask = {});

    std::int64_t num_heads() const { return num_heads_; }
    // The forward as ONNX nodes, batch-first, in the manual equation (an export never takes the
    // fused kernels): query (B, L, E) over key and value (B, S, E), L and S known, no mask.
    // Returns (B, L, E).
    std::string emit_onnx(onnx::Graph& g, const std::string& name, const std::string& query, const std::string& key,
                          const std::string& value, std::int64_t query_length, std::int64_t key_length) const;
    bool batch_first() const { return batch_first_; }

    bool fused_attn = false;
    torch::Tensor in_proj_weight, in_proj_bias;
    torch::nn::Linear out_proj{nullptr};

private:
    // mask: additive, (1 or B·heads, L, S), or undefined.
    torch::Tensor fused_forward(const torch::Tensor& query, const torch::Tensor& key, const torch::Tensor& value,
                                const torch::Tensor& mask);
    std::int64_t embed_dim_, num_heads_;
    bool batch_first_;
    CastWeightsCache cast_weights_;
};
TORCH_MODULE(MultiheadAttention);

}  // namespace libreyolo::nn
