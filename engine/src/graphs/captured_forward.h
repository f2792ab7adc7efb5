#pragma once
// One forward pass captured as a CUDA graph, with the static input and output buffers it reads
// and writes. Replaying copies the caller's input into the static input, launches the graph and
// returns a copy of the static output (the next replay overwrites it).
#include <ATen/cuda/CUDAGraph.h>
#include <torch/torch.h>

#include <functional>

namespace libreyolo::graphs {

using Forward = std::function<torch::Tensor(const torch::Tensor&)>;

class CapturedForward {
public:
    // Warm-up passes, then the capture, on a side stream in the thread-local capture mode, into
    // pool (shared by a model's graphs). example: a CUDA input of the key's shape and dtype.
    // Throws libreyolo::Error (out of memory named as such) when the capture fails.
    CapturedForward(const torch::Tensor& example, const Forward& forward, at::cuda::MempoolId_t pool,
                    int warmup_passes = 3);
    CapturedForward(const CapturedForward&) = delete;
    CapturedForward& operator=(const CapturedForward&) = delete;

    torch::Tensor replay(const torch::Tensor& input);

    std::int64_t replays() const { return replays_; }
    double capture_ms() const { return capture_ms_; }
    std::int64_t pool_bytes() const { return pool_bytes_; }

private:
    at::cuda::CUDAGraph graph_;
    torch::Tensor static_input_, static_output_;
    std::int64_t replays_ = 0;
    double capture_ms_ = 0;
    std::int64_t pool_bytes_ = 0;
};

}  // namespace libreyolo::graphs
