#pragma once
// How long training stood still waiting for collectives: the part of the gradient all-reduce that
// backward did not hide. On the CPU (gloo) the host blocks in the wait, so the wall clock tells; on
// CUDA (NCCL) the wait only makes the compute stream wait for the communication stream, so two
// timing events recorded on the compute stream around it measure the stall on the GPU itself.
#include <torch/torch.h>

#include <chrono>
#include <memory>

namespace libreyolo::distributed {

class ExposedWait {
public:
    explicit ExposedWait(const torch::Device& device);
    ~ExposedWait();
    ExposedWait(const ExposedWait&) = delete;
    ExposedWait& operator=(const ExposedWait&) = delete;

    void begin();  // before the waits
    void end();    // after them
    // Every interval so far, summed (waits for the GPU's events to have run).
    double seconds();

private:
    struct CudaIntervals;
    bool cuda_;
    c10::DeviceIndex device_index_ = 0;  // the stream the waits stall is this device's current one
    std::chrono::steady_clock::time_point started_;
    double seconds_ = 0;
    std::unique_ptr<CudaIntervals> cuda_intervals_;
};

}  // namespace libreyolo::distributed
