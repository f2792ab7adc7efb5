#pragma once
// Independent parts of a fused forward run side by side on a CUDA device. At batch 1 most of a
// detector's kernels keep only a few of the GPU's multiprocessors busy, so two branches that do not
// depend on each other (YOLOv9's box and class towers, a RepNCSP's shortcut convolution beside its
// bottlenecks) finish in about the time of the longer one instead of the sum. Each branch after the
// first runs on a stream of LibTorch's pool that waits for the caller's stream and that the caller's
// stream waits for in turn: inside a CUDA-graph capture this forks and joins the graph, outside it
// orders the streams the same way. On the CPU, or with LIBREYOLO_FUSED_STREAMS=0, the branches run
// one after another on the caller's stream. The arithmetic is the same either way.
#include <torch/torch.h>

#include <functional>
#include <vector>

namespace libreyolo::graphs {

using Branch = std::function<torch::Tensor()>;

// False when LIBREYOLO_FUSED_STREAMS is "0", or after set_concurrent_branches(false).
bool concurrent_branches_enabled();

// Overrides the environment for the whole process (benchmarks compare both; a CUDA graph captured
// before keeps the form it was captured in).
void set_concurrent_branches(bool enabled);

// Runs each branch (concurrently when `device` is CUDA and the switch is on) and returns what each
// returned (an undefined tensor for a branch that wrote into a buffer of the caller's). A returned
// tensor is safe to use on the caller's stream; the caller must keep every tensor that a branch
// reads alive until this returns (it joins the streams before it returns).
std::vector<torch::Tensor> run_concurrently(const torch::Device& device, const std::vector<Branch>& branches);

}  // namespace libreyolo::graphs
