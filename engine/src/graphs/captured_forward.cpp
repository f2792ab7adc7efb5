#include "graphs/captured_forward.h"

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

}  // namespace

CapturedForward::CapturedForward(const torch::Tensor& example, const Forward& forward, at::cuda::MempoolId_t pool,
                                 int warmup_passes) {
    const c10::DeviceIndex index = example.device().index();
    const c10::cuda::CUDAGuard device_guard(index);
    const auto started = std::chrono::steady_clock::now();
    const std::int64_t reserved_before = reserved_bytes(index);
    c10::InferenceMode inference;
    static_input_ = example.clone();

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
        for (int i = 0; i < warmup_passes; ++i) forward(static_input_);
        side.synchronize();
        graph_.capture_begin(pool, cudaStreamCaptureModeThreadLocal);
        try {
            static_output_ = forward(static_input_);
        } catch (...) {
            try {
                graph_.capture_end();
            } catch (...) {
            }
            throw;
        }
        graph_.capture_end();
        side.synchronize();
    } catch (const c10::OutOfMemoryError& e) {
        throw Error("cuda_graph: out of memory while capturing a " + std::to_string(example.size(0)) + "x" +
                    std::to_string(example.size(1)) + "x" + std::to_string(example.size(2)) + "x" +
                    std::to_string(example.size(3)) +
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

torch::Tensor CapturedForward::replay(const torch::Tensor& input) {
    const c10::cuda::CUDAGuard device_guard(static_input_.device().index());
    c10::InferenceMode inference;
    static_input_.copy_(input);
    graph_.replay();
    ++replays_;
    return static_output_.clone();
}

}  // namespace libreyolo::graphs
