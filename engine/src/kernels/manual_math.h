#pragma once
// When kernels must run the primitive-op equation rather than a fused implementation (spec 003,
// attention policy; LibreYOLO's kernels/attention/sdpa.py): a trace or an export always sees the
// manual math, so that what it records runs anywhere.
namespace libreyolo::kernels {

// True while torch::jit traces, or inside a ManualAttentionScope (the exporters').
bool manual_attention_required();

class ManualAttentionScope {
public:
    ManualAttentionScope();
    ~ManualAttentionScope();
    ManualAttentionScope(const ManualAttentionScope&) = delete;
    ManualAttentionScope& operator=(const ManualAttentionScope&) = delete;
};

}  // namespace libreyolo::kernels
