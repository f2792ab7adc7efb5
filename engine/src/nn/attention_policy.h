#pragma once
// Which attention modules of a network run the fused kernels (spec 003, attention policy): a family
// whose parity bar is byte-exact keeps the manual math unless the caller opts in. Traces and exports
// always take the manual math (kernels/manual_math.h).
#include <torch/torch.h>

#include <functional>

namespace libreyolo::nn {

// Sets fused_attn on every attention module of net; returns how many there are.
int set_fused_attention(torch::nn::Module& net, bool enabled);

// Whether forward() gives byte-identical outputs with every attention module fused and manual
// (the modules are left as they were). A family whose answer is false keeps manual by default.
bool fused_attention_is_byte_exact(torch::nn::Module& net, const std::function<torch::Tensor()>& forward);

}  // namespace libreyolo::nn
