#include "kernels/manual_math.h"

#include <torch/csrc/jit/frontend/tracer.h>

namespace libreyolo::kernels {
namespace {

thread_local int manual_scopes = 0;

}  // namespace

bool manual_attention_required() {
    return manual_scopes > 0 || torch::jit::tracer::isTracing();
}

ManualAttentionScope::ManualAttentionScope() {
    ++manual_scopes;
}
ManualAttentionScope::~ManualAttentionScope() {
    --manual_scopes;
}

}  // namespace libreyolo::kernels
