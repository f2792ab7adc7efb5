#include "nn/attention_policy.h"

#include "nn/multihead_attention.h"

namespace libreyolo::nn {
namespace {

std::vector<MultiheadAttentionImpl*> attention_modules(torch::nn::Module& net) {
    std::vector<MultiheadAttentionImpl*> found;
    if (auto* self = dynamic_cast<MultiheadAttentionImpl*>(&net)) found.push_back(self);
    // Not include_self: the root need not be held by a shared_ptr.
    for (const auto& m : net.modules(/*include_self=*/false))
        if (auto* attention = dynamic_cast<MultiheadAttentionImpl*>(m.get())) found.push_back(attention);
    return found;
}

}  // namespace

int set_fused_attention(torch::nn::Module& net, bool enabled) {
    const auto modules = attention_modules(net);
    for (MultiheadAttentionImpl* m : modules) m->fused_attn = enabled;
    return static_cast<int>(modules.size());
}

bool fused_attention_is_byte_exact(torch::nn::Module& net, const std::function<torch::Tensor()>& forward) {
    const auto modules = attention_modules(net);
    std::vector<bool> before;
    for (MultiheadAttentionImpl* m : modules) before.push_back(m->fused_attn);
    torch::NoGradGuard no_grad;
    set_fused_attention(net, false);
    const torch::Tensor manual = forward();
    set_fused_attention(net, true);
    const torch::Tensor fused = forward();
    for (std::size_t i = 0; i < modules.size(); ++i) modules[i]->fused_attn = before[i];
    return torch::equal(manual, fused);
}

}  // namespace libreyolo::nn
