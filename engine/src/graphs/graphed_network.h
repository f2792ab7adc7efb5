#pragma once
// A network's training forward and backward captured as two CUDA graphs and wrapped as one
// autograd function: the C++ counterpart of torch.cuda.make_graphed_callables (spec "Supporto in
// addestramento"). Calling it replays the forward graph; autograd's backward through its outputs
// replays the backward graph, whose parameter gradients land in .grad like an eager backward's.
// BatchNorm statistics move on every replay (the update kernels are in the forward graph); the
// loss, assigner, optimizer step, EMA and GradScaler stay eager, outside.
#include <cuda_runtime_api.h>
#include <torch/torch.h>

#include <functional>
#include <memory>

#include "graphs/forward_plan.h"

namespace libreyolo::graphs {

using TrainingForward = std::function<TensorList(const torch::Tensor&)>;

class GraphedNetwork {
public:
    // module: the network, in training mode, whose parameters (those requiring grad) get the
    // gradients and whose buffers the warm-up must leave as it found them. forward: what a step
    // calls on the images (under autocast when AMP is on). example: CUDA images of the shape to
    // capture. Warm-up passes (forward and backward) run first on a side stream. capture_mode is
    // thread-local in production; the global mode exists for the test that shows why.
    // Throws libreyolo::Error when the capture fails, leaving the allocator usable.
    GraphedNetwork(torch::nn::Module& module, TrainingForward forward, const torch::Tensor& example,
                   cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeThreadLocal, int warmup_passes = 3);
    ~GraphedNetwork();
    GraphedNetwork(const GraphedNetwork&) = delete;
    GraphedNetwork& operator=(const GraphedNetwork&) = delete;

    bool accepts(const torch::Tensor& images) const;  // the captured shape, dtype and device
    // forward(images) through the graphs. The outputs alias the graph's static buffers: they are
    // valid until the next call, which is what one training step needs.
    TensorList operator()(const torch::Tensor& images);

    std::int64_t replays() const;
    double capture_ms() const;
    // Called with the backward replay's number (1, 2, ...) just before it replays; what it throws
    // propagates out of backward(). The trainer's fault injection uses it.
    void set_before_backward_replay(std::function<void(std::int64_t)> hook);
    std::string shape() const;  // "8x3x640x640"

    struct State;

private:
    std::unique_ptr<State> state_;
};

}  // namespace libreyolo::graphs
