#include "graphs/captured_stage.h"

#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <chrono>
#include <string>

#include "core/shape_text.h"
#include "graphs/capture_graph.h"
#include "graphs/capture_lock.h"

namespace libreyolo::graphs {

CapturedStage::CapturedStage(const TensorList& example, const StageFunction& run, at::cuda::MempoolId_t pool,
                             int warmup_passes) {
    const c10::DeviceIndex index = example.at(0).device().index();
    const c10::cuda::CUDAGuard device_guard(index);
    const auto started = std::chrono::steady_clock::now();
    const std::int64_t reserved_before = reserved_bytes(index);
    c10::InferenceMode inference;
    for (const torch::Tensor& t : example) static_inputs_.push_back(t.clone());

    const c10::cuda::CUDAStream caller = c10::cuda::getCurrentCUDAStream(index);
    const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool(false, index);
    const std::lock_guard lock(capture_mutex());
    at::cuda::CUDAEvent input_ready;
    input_ready.record(caller);
    input_ready.block(side);
    try {
        const c10::cuda::CUDAStreamGuard on_side(side);
        // Warm-up lets cuDNN pick its algorithms and the allocator settle before anything is
        // recorded; the network is in eval mode, so no buffer moves.
        for (int i = 0; i < warmup_passes; ++i) run(static_inputs_);
        side.synchronize();
        graph_.capture_begin(pool, cudaStreamCaptureModeThreadLocal);
        try {
            static_outputs_ = run(static_inputs_);
            graph_.capture_end();
            kernels_ = count_kernel_nodes(graph_.raw_cuda_graph());
            write_graph_dot_if_asked(
                graph_.raw_cuda_graph(),
                shape_text(example.at(0).sizes()) + "-" + std::string(c10::toString(example.at(0).scalar_type())));
            graph_.instantiate();
            graph_.drop_template();
        } catch (...) {
            abandon_capture(graph_, index, pool);
            throw;
        }
        side.synchronize();
    } catch (const c10::Error& e) {
        throw capture_error(e, "a " + shape_text(example.at(0).sizes()) + " forward");
    }
    capture_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    pool_bytes_ = reserved_bytes(index) - reserved_before;
}

bool CapturedStage::accepts(const TensorList& inputs) const {
    if (inputs.size() != static_inputs_.size()) return false;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const torch::Tensor &a = inputs[i], &b = static_inputs_[i];
        if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type() || a.device() != b.device()) return false;
    }
    return true;
}

const TensorList& CapturedStage::replay(const TensorList& inputs) {
    const c10::cuda::CUDAGuard device_guard(static_inputs_.front().device().index());
    c10::InferenceMode inference;
    for (std::size_t i = 0; i < inputs.size(); ++i) static_inputs_[i].copy_(inputs[i]);
    graph_.replay();
    return static_outputs_;
}

}  // namespace libreyolo::graphs
