#include "graphs/captured_stage.h"

#include <ATen/core/CachingHostAllocator.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <chrono>
#include <string>

#include "graphs/capture_lock.h"
#include "libreyolo/errors.h"

namespace libreyolo::graphs {
namespace {

std::int64_t reserved_bytes(c10::DeviceIndex device) {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
    return stats.reserved_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)].current;
}

std::string shape_of(const torch::Tensor& t) {
    std::string s;
    for (const std::int64_t d : t.sizes()) s += (s.empty() ? "" : "x") + std::to_string(d);
    return s;
}

// Ends a capture that failed (the stage threw, or CUDA invalidated the capture) so that the
// model's shared pool can take the next capture. CUDAGraph::capture_end throws on an invalidated
// capture before it tells the allocators that the capture is over, which would leave the pool
// "being recorded to" and refuse every later capture into it; and the reference to the pool that
// capture_begin took is only given back by a graph whose capture ended. Clears the (non-sticky)
// capture error too. The caller must not capture into pool again once no graph holds it.
void abandon_capture(CaptureGraph& graph, c10::DeviceIndex device, at::cuda::MempoolId_t pool) {
    try {
        graph.capture_end();
    } catch (...) {
    }
    if (graph.capture_ended()) return;  // a complete graph after all: its destructor releases the pool
    // capture_end stopped before or after ending the routing; ending it twice is refused.
    try {
        c10::cuda::CUDACachingAllocator::endAllocateToPool(device, pool);
    } catch (...) {
    }
    try {
        at::getHostAllocator(at::kCUDA)->end_allocate_to_pool(pool);
    } catch (...) {
    }
    try {
        c10::cuda::CUDACachingAllocator::releasePool(device, pool);
        at::getHostAllocator(at::kCUDA)->release_pool(pool);
    } catch (...) {
    }
    (void)cudaGetLastError();
}

}  // namespace

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
        } catch (...) {
            abandon_capture(graph_, index, pool);
            throw;
        }
        side.synchronize();
    } catch (const c10::OutOfMemoryError& e) {
        throw Error("cuda_graph: out of memory while capturing a " + shape_of(example.at(0)) +
                    " forward (lower the batch or release other graphs): " + e.what_without_backtrace());
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        // An allocation failing inside a capture surfaces as an invalidated capture.
        const bool oom = what.find("out of memory") != std::string::npos;
        throw Error(std::string("cuda_graph: ") + (oom ? "out of memory during capture: " : "capture failed: ") + what);
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
