#pragma once
// RT-DETR's AIFI attention as the attention benchmarks time it: two batch-first modules on the GPU
// with the same weights, one manual and one fused, and the layer's call under float16 autocast.
#include <torch/torch.h>

#include "core/autocast.h"
#include "nn/multihead_attention.h"

struct AifiAttentionPair {
    libreyolo::nn::MultiheadAttention manual, fused;
};

inline AifiAttentionPair aifi_attention_pair(std::int64_t embed_dim, std::int64_t heads) {
    AifiAttentionPair pair{libreyolo::nn::MultiheadAttention(embed_dim, heads, /*batch_first=*/true),
                           libreyolo::nn::MultiheadAttention(embed_dim, heads, /*batch_first=*/true)};
    pair.manual->to(torch::kCUDA);
    pair.fused->to(torch::kCUDA);
    const torch::NoGradGuard no_grad;
    const auto from = pair.manual->parameters(), to = pair.fused->parameters();
    for (std::size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
    pair.fused->fused_attn = true;
    return pair;
}

// query = key = src + pos, value = src; src and pos float16, as the model's AIFI layer has them
// under autocast (a convolution's output, the position embedding cast to it).
inline auto aifi_layer(libreyolo::nn::MultiheadAttention& attention, const torch::Tensor& src,
                       const torch::Tensor& pos) {
    return [&attention, &src, &pos] {
        const libreyolo::CudaAutocast autocast(true);
        const torch::Tensor q = src + pos;
        return attention(q, q, src);
    };
}
