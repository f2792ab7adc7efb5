#include "distributed/exposed_wait.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>

#include <deque>
#include <utility>

namespace libreyolo::distributed {

struct ExposedWait::CudaIntervals {
    // Pairs not read yet. Reading one waits for it, so begin() reads only the pairs that have run
    // (a training step ends on the host, so that is all but the last), and seconds() the rest.
    std::deque<std::pair<at::cuda::CUDAEvent, at::cuda::CUDAEvent>> pending;

    double read(bool wait) {
        double seconds = 0;
        while (!pending.empty() && (wait || pending.front().second.query())) {
            auto& [start, stop] = pending.front();
            stop.synchronize();
            seconds += start.elapsed_time(stop) / 1e3;
            pending.pop_front();
        }
        return seconds;
    }
};

ExposedWait::ExposedWait(const torch::Device& device)
    : cuda_(device.is_cuda()), device_index_(device.has_index() ? device.index() : 0) {
    if (cuda_) cuda_intervals_ = std::make_unique<CudaIntervals>();
}

ExposedWait::~ExposedWait() = default;

void ExposedWait::begin() {
    if (!cuda_) {
        started_ = std::chrono::steady_clock::now();
        return;
    }
    seconds_ += cuda_intervals_->read(/*wait=*/false);
    cuda_intervals_->pending.emplace_back(at::cuda::CUDAEvent(cudaEventDefault), at::cuda::CUDAEvent(cudaEventDefault));
    cuda_intervals_->pending.back().first.record(at::cuda::getCurrentCUDAStream(device_index_));
}

void ExposedWait::end() {
    if (!cuda_) {
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        return;
    }
    cuda_intervals_->pending.back().second.record(at::cuda::getCurrentCUDAStream(device_index_));
}

double ExposedWait::seconds() {
    if (cuda_) seconds_ += cuda_intervals_->read(/*wait=*/true);
    return seconds_;
}

}  // namespace libreyolo::distributed
