#pragma once
// One stage of a forward captured as a CUDA graph, with the static input and output buffers it
// reads and writes. Replaying copies the caller's inputs into the static inputs, launches the
// graph and returns the static outputs, which the next replay overwrites.
#include <ATen/cuda/CUDAGraph.h>
#include <torch/torch.h>

#include "graphs/capture_graph.h"
#include "graphs/forward_plan.h"

namespace libreyolo::graphs {

class CapturedStage {
public:
    // Warm-up passes, then the capture, on a side stream in the thread-local capture mode, into
    // pool (shared by a model's graphs). example: CUDA inputs of the key's shapes and dtypes.
    // Throws libreyolo::Error (out of memory named as such) when the capture fails, leaving the
    // allocator and the CUDA context usable.
    CapturedStage(const TensorList& example, const StageFunction& run, at::cuda::MempoolId_t pool,
                  int warmup_passes = 3);
    CapturedStage(const CapturedStage&) = delete;
    CapturedStage& operator=(const CapturedStage&) = delete;

    // Whether inputs have the shapes, dtypes and devices the graph was captured for.
    bool accepts(const TensorList& inputs) const;
    const TensorList& replay(const TensorList& inputs);

    double capture_ms() const { return capture_ms_; }
    std::int64_t pool_bytes() const { return pool_bytes_; }
    int kernels() const { return kernels_; }

private:
    CaptureGraph graph_{/*keep_template=*/true};
    TensorList static_inputs_, static_outputs_;
    double capture_ms_ = 0;
    std::int64_t pool_bytes_ = 0;
    int kernels_ = 0;
};

}  // namespace libreyolo::graphs
