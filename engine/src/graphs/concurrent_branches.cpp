#include "graphs/concurrent_branches.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace libreyolo::graphs {

namespace {

std::atomic<bool>& switch_state() {
    static std::atomic<bool> enabled = [] {
        const char* value = std::getenv("LIBREYOLO_FUSED_STREAMS");
        return value == nullptr || std::strcmp(value, "0") != 0;
    }();
    return enabled;
}

}  // namespace

bool concurrent_branches_enabled() {
    return switch_state().load();
}

void set_concurrent_branches(bool enabled) {
    switch_state().store(enabled);
}

std::vector<torch::Tensor> run_concurrently(const torch::Device& device, const std::vector<Branch>& branches) {
    std::vector<torch::Tensor> results(branches.size());
    if (!device.is_cuda() || branches.size() < 2 || !concurrent_branches_enabled()) {
        for (std::size_t i = 0; i < branches.size(); ++i) results[i] = branches[i]();
        return results;
    }
    const c10::cuda::CUDAGuard guard(device.index());
    const c10::cuda::CUDAStream caller = c10::cuda::getCurrentCUDAStream(device.index());
    at::cuda::CUDAEvent fork;
    fork.record(caller);
    std::vector<at::cuda::CUDAEvent> done(branches.size() - 1);
    std::size_t forked = 0;
    // The caller's stream waits for every forked side stream, also when a branch throws: the
    // branches' inputs must not be freed while a side stream may still read them.
    auto join = [&] {
        for (std::size_t k = 0; k < forked; ++k) done[k].block(caller);
    };
    try {
        for (std::size_t i = 1; i < branches.size(); ++i) {
            const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool(false, device.index());
            fork.block(side);
            ++forked;
            try {
                const c10::cuda::CUDAStreamGuard on_side(side);
                results[i] = branches[i]();
            } catch (...) {
                done[i - 1].record(side);
                throw;
            }
            done[i - 1].record(side);
        }
        results[0] = branches[0]();
    } catch (...) {
        join();
        throw;
    }
    join();
    // A side branch's result was allocated on its stream: tell the allocator that the caller's stream
    // uses it, so that its memory is not handed to the side stream again while the caller reads it.
    for (std::size_t i = 1; i < branches.size(); ++i)
        if (results[i].defined() && results[i].is_cuda())
            c10::cuda::CUDACachingAllocator::recordStream(results[i].storage().data_ptr(), caller);
    return results;
}

}  // namespace libreyolo::graphs
