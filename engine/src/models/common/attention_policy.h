#pragma once
// When attention may use the fused kernels (spec 003, attention policy; LibreYOLO's
// kernels/attention/sdpa.py): a trace or an export always sees the primitive-op equation, and a
// family whose parity bar is byte-exact keeps the manual math unless the caller opts in.
#include <torch/torch.h>

#include <functional>

namespace libreyolo::models {

// True while torch::jit traces, or inside a ManualAttentionScope (the exporters').
bool manual_attention_required();

class ManualAttentionScope {
public:
    ManualAttentionScope();
    ~ManualAttentionScope();
    ManualAttentionScope(const ManualAttentionScope&) = delete;
    ManualAttentionScope& operator=(const ManualAttentionScope&) = delete;
};

// Sets fused_attn on every attention module of net; returns how many there are.
int set_fused_attention(torch::nn::Module& net, bool enabled);

// Whether forward() gives byte-identical outputs with every attention module fused and manual
// (the modules are left as they were). A family whose answer is false keeps manual by default.
bool fused_attention_is_byte_exact(torch::nn::Module& net, const std::function<torch::Tensor()>& forward);

}  // namespace libreyolo::models
