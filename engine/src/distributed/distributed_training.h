#pragma once
// What the training loop does differently when several processes train one model (spec:
// distributed runs train eager): one process group, the parameters and buffers of rank 0 handed
// to all at the start, gradients summed by the bucketed reducer while backward runs, BatchNorm
// buffers re-broadcast before every forward (DDP's broadcast_buffers) unless SyncBatchNorm keeps
// them equal, the per-step numbers summed, the decisions of rank 0 (stop, next epoch) handed to
// all, and at the end a check that every rank holds bit-identical weights.
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "distributed/gradient_reducer.h"
#include "distributed/process_group.h"
#include "distributed/rank_statistics.h"
#include "distributed/sync_batch_norm.h"

namespace libreyolo::distributed {

// The device a rank trains on: an explicit "cuda:N" or "cpu" as given; otherwise (auto, cuda, a
// device list) the GPU numbered LOCAL_RANK, or the CPU where LibTorch sees no GPU.
std::string rank_device(const std::string& requested, const RankInfo& rank);

class DistributedTraining {
public:
    DistributedTraining(const RankInfo& rank, const torch::Device& device, std::chrono::milliseconds timeout,
                        torch::nn::Module& net, bool sync_batch_norm);
    ~DistributedTraining();

    bool is_main() const { return group_.rank() == 0; }
    int world_size() const { return group_.size(); }
    ProcessGroup& group() { return group_; }

    void begin_step();       // before the forward
    void finish_backward();  // after backward: gradients summed into .grad
    void end_step();         // after the step's numbers reached the host
    // Sums a small tensor of numbers over the ranks (a copy).
    torch::Tensor sum(const torch::Tensor& local);
    // Rank 0's decision, for every rank.
    bool decision_of_main(bool mine);
    // SHA-256 of the parameters' bytes; throws Error when any rank's differs from rank 0's.
    std::string verify_identical_weights();
    // Every rank's statistics, on every rank (a collective: all ranks call it).
    std::vector<RankStatistics> statistics_of_ranks();

private:
    ProcessGroup group_;
    torch::nn::Module& net_;
    torch::Device device_;
    std::vector<torch::Tensor> buffers_;
    bool sync_batch_norm_;
    std::optional<SyncBatchNormScope> sync_scope_;
    std::unique_ptr<GradientReducer> reducer_;
    // LIBREYOLO_DIST_FAULT=kill:RANK:STEP: this rank kills itself (SIGKILL) as step STEP begins,
    // for the tests of a rank dying mid-run.
    int kill_at_step_ = -1;
    int steps_ = 0;
    std::chrono::steady_clock::time_point step_started_;
    double step_seconds_ = 0;
};

}  // namespace libreyolo::distributed
