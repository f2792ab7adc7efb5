#include "nn/multihead_attention.h"

#include <ATen/autocast_mode.h>

#include <cmath>
#include <limits>

#include "kernels/manual_math.h"
#include "libreyolo/errors.h"

namespace libreyolo::nn {
namespace F = torch::nn::functional;
namespace {

// The parts of a packed projection (..., parts · E), as PyTorch unpacks them.
std::vector<torch::Tensor> unpack(const torch::Tensor& packed, std::int64_t parts, std::int64_t embed_dim) {
    return packed.unflatten(-1, {parts, embed_dim}).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous().unbind(0);
}

}  // namespace

MultiheadAttentionImpl::MultiheadAttentionImpl(std::int64_t embed_dim, std::int64_t num_heads, bool batch_first)
    : embed_dim_(embed_dim), num_heads_(num_heads), batch_first_(batch_first) {
    if (num_heads <= 0 || embed_dim % num_heads != 0)
        throw InvalidArgument("attention: embed_dim " + std::to_string(embed_dim) + " is not divisible by " +
                              std::to_string(num_heads) + " heads");
    in_proj_weight = register_parameter("in_proj_weight", torch::empty({3 * embed_dim, embed_dim}));
    in_proj_bias = register_parameter("in_proj_bias", torch::zeros({3 * embed_dim}));
    out_proj = register_module("out_proj", torch::nn::Linear(embed_dim, embed_dim));
    torch::nn::init::xavier_uniform_(in_proj_weight);
    torch::nn::init::zeros_(out_proj->bias);
}

torch::Tensor MultiheadAttentionImpl::fused_forward(const torch::Tensor& query, const torch::Tensor& key,
                                                    const torch::Tensor& value, const torch::Tensor& mask) {
    // In the caller's layout: batch-first tensors are projected, split into heads and handed to
    // SDPA as views, and SDPA's output (batch, tokens, heads, dim underneath) goes to the output
    // projection without a copy; as few launches as the inputs allow, one GEMM per distinct input
    // (query and key shared, as in AIFI, are projected together).
    const std::int64_t e = embed_dim_, head_dim = embed_dim_ / num_heads_;
    const int token_dim = batch_first_ ? 1 : 0, batch_dim = batch_first_ ? 0 : 1;
    const std::int64_t tgt_len = query.size(token_dim), src_len = key.size(token_dim), bsz = query.size(batch_dim);
    // Under autocast the packed weight is cast once, not each slice: for an eager inference
    // forward from copies kept across calls (cast_weights_), otherwise by autocast's cache, which
    // lasts the autocast region (and is off while a graph is captured, so the casts are captured).
    torch::Tensor weight = in_proj_weight, bias = in_proj_bias, out_weight = out_proj->weight,
                  out_bias = out_proj->bias;
    if (weight.is_cuda() && at::autocast::is_autocast_enabled(at::kCUDA)) {
        const at::ScalarType dtype = at::autocast::get_autocast_dtype(at::kCUDA);
        const std::vector<torch::Tensor> weights{weight, bias, out_weight, out_bias};
        if (may_use_cast_weights_cache(weights)) {
            const std::vector<torch::Tensor> cast = cast_weights_.get(weights, dtype);
            weight = cast[0], bias = cast[1], out_weight = cast[2], out_bias = cast[3];
        } else {
            weight = at::autocast::cached_cast(dtype, weight, c10::DeviceType::CUDA);
            bias = at::autocast::cached_cast(dtype, bias, c10::DeviceType::CUDA);
        }
    }
    const auto project = [&](const torch::Tensor& x, std::int64_t first, std::int64_t count) {
        return F::linear(x, weight.narrow(0, first, count), bias.narrow(0, first, count));
    };
    torch::Tensor q, k, v;
    if (key.is_same(query)) {
        const torch::Tensor packed = project(query, 0, value.is_same(key) ? 3 * e : 2 * e);
        q = packed.narrow(-1, 0, e);
        k = packed.narrow(-1, e, e);
        v = value.is_same(key) ? packed.narrow(-1, 2 * e, e) : project(value, 2 * e, e);
    } else if (value.is_same(key)) {
        q = project(query, 0, e);
        const torch::Tensor packed = project(key, e, 2 * e);
        k = packed.narrow(-1, 0, e);
        v = packed.narrow(-1, e, e);
    } else {
        q = project(query, 0, e);
        k = project(key, e, e);
        v = project(value, 2 * e, e);
    }
    const auto heads_first = [&](const torch::Tensor& t, std::int64_t len) {  // (B, heads, len, D) views
        return batch_first_ ? t.view({bsz, len, num_heads_, head_dim}).transpose(1, 2)
                            : t.view({len, bsz, num_heads_, head_dim}).permute({1, 2, 0, 3});
    };
    std::optional<torch::Tensor> m;  // an undefined tensor is not "no mask" to SDPA
    if (mask.defined())
        m = mask.size(0) == 1 ? mask.view({1, 1, tgt_len, src_len}) : mask.view({bsz, num_heads_, tgt_len, src_len});
    const torch::Tensor attended =
        at::scaled_dot_product_attention(heads_first(q, tgt_len), heads_first(k, src_len), heads_first(v, src_len), m);
    if (batch_first_) return F::linear(attended.transpose(1, 2).reshape({bsz, tgt_len, e}), out_weight, out_bias);
    return F::linear(attended.permute({2, 0, 1, 3}).reshape({tgt_len, bsz, e}), out_weight, out_bias);
}

torch::Tensor MultiheadAttentionImpl::forward(const torch::Tensor& query_in, const torch::Tensor& key_in,
                                              const torch::Tensor& value_in, const torch::Tensor& attn_mask) {
    torch::Tensor mask = attn_mask;
    if (mask.defined() && mask.scalar_type() == torch::kBool)
        mask = torch::zeros_like(mask, query_in.options()).masked_fill_(mask, -std::numeric_limits<float>::infinity());
    if (mask.defined() && mask.dim() == 2) mask = mask.unsqueeze(0);
    if (fused_attn && !kernels::manual_attention_required()) return fused_forward(query_in, key_in, value_in, mask);

    // Sequence first inside, as PyTorch's implementation.
    const torch::Tensor query = batch_first_ ? query_in.transpose(0, 1) : query_in;
    const torch::Tensor key = batch_first_ ? (key_in.is_same(query_in) ? query : key_in.transpose(0, 1)) : key_in;
    const torch::Tensor value = batch_first_ ? (value_in.is_same(key_in) ? key : value_in.transpose(0, 1)) : value_in;
    const std::int64_t tgt_len = query.size(0), bsz = query.size(1), src_len = key.size(0);
    const std::int64_t head_dim = embed_dim_ / num_heads_;

    // Manual: the in-projection as PyTorch packs it: one GEMM when q, k and v are one tensor, two
    // when k and v are, three otherwise (the results differ in the last bit between these forms).
    torch::Tensor q, k, v;
    if (key.is_same(query) && value.is_same(key)) {
        const auto qkv = unpack(F::linear(query, in_proj_weight, in_proj_bias), 3, embed_dim_);
        q = qkv[0], k = qkv[1], v = qkv[2];
    } else if (value.is_same(key)) {
        const auto w = in_proj_weight.split({embed_dim_, 2 * embed_dim_});
        const auto b = in_proj_bias.split({embed_dim_, 2 * embed_dim_});
        q = F::linear(query, w[0], b[0]);
        const auto kv = unpack(F::linear(key, w[1], b[1]), 2, embed_dim_);
        k = kv[0], v = kv[1];
    } else {
        const auto w = in_proj_weight.chunk(3);
        const auto b = in_proj_bias.chunk(3);
        q = F::linear(query, w[0], b[0]);
        k = F::linear(key, w[1], b[1]);
        v = F::linear(value, w[2], b[2]);
    }
    q = q.view({tgt_len, bsz * num_heads_, head_dim}).transpose(0, 1);
    k = k.view({src_len, bsz * num_heads_, head_dim}).transpose(0, 1);
    v = v.view({src_len, bsz * num_heads_, head_dim}).transpose(0, 1);

    const torch::Tensor q_scaled = q * std::sqrt(1.0 / static_cast<double>(head_dim));
    torch::Tensor weights = mask.defined() ? torch::baddbmm(mask, q_scaled, k.transpose(-2, -1))
                                           : torch::bmm(q_scaled, k.transpose(-2, -1));
    weights = torch::softmax(weights, -1);
    torch::Tensor out = torch::bmm(weights, v).transpose(0, 1).contiguous().view({tgt_len * bsz, embed_dim_});
    out = out_proj(out).view({tgt_len, bsz, embed_dim_});
    return batch_first_ ? out.transpose(0, 1) : out;
}

}  // namespace libreyolo::nn
