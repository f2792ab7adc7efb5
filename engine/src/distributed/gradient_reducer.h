#pragma once
// The C++ counterpart of DistributedDataParallel's reducer, on c10d collectives: every parameter's
// gradient summed over the ranks in buckets (parameters in reverse registration order, roughly the
// order backward produces them; the first bucket 1 MiB, so that communication starts early, the
// others 25 MiB, DDP's sizes). A bucket's all-reduce starts as soon as backward has
// accumulated all of its gradients and every earlier bucket has started, so the communication
// overlaps the rest of backward; all ranks start the buckets in the same order, which is what
// matches their collectives. finish_step() starts what is left (a parameter without a gradient
// counts as zeros), waits, and writes the sums into .grad.
#include <torch/torch.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "distributed/exposed_wait.h"
#include "distributed/process_group.h"

namespace libreyolo::distributed {

class GradientReducer {
public:
    GradientReducer(ProcessGroup& group, std::vector<torch::Tensor> parameters, std::int64_t bucket_bytes = 25 << 20,
                    std::int64_t first_bucket_bytes = 1 << 20);
    ~GradientReducer();  // removes the hooks
    GradientReducer(const GradientReducer&) = delete;
    GradientReducer& operator=(const GradientReducer&) = delete;

    void begin_step();   // before backward
    void finish_step();  // after backward, before the optimizer step
    std::size_t buckets() const { return buckets_.size(); }
    // Buckets whose all-reduce started while backward was still running, in the last step.
    int started_during_backward() const { return started_during_backward_; }
    // The time every step so far stood waiting for the all-reduces after backward (ExposedWait).
    double exposed_wait_seconds() { return exposed_wait_.seconds(); }

private:
    struct Bucket {
        std::vector<std::size_t> members;  // indices into parameters_
        torch::Tensor flat;                // the members' gradients, concatenated
        std::size_t ready = 0;
        std::optional<PendingReduction> pending;
    };
    void on_gradient_accumulated(std::size_t parameter);
    void start_ready_buckets();  // under mutex_
    void start(Bucket& bucket);

    ProcessGroup& group_;
    std::vector<torch::Tensor> parameters_;
    std::vector<std::size_t> bucket_of_;
    std::vector<Bucket> buckets_;
    std::size_t next_to_start_ = 0;
    bool in_backward_ = false;
    int started_during_backward_ = 0;
    std::mutex mutex_;  // the hooks run on autograd's threads
    ExposedWait exposed_wait_;
};

// Overwrites every tensor with rank root's, one broadcast per dtype (flattened together).
void broadcast_coalesced(ProcessGroup& group, const std::vector<torch::Tensor>& tensors, int root = 0);

}  // namespace libreyolo::distributed
