#pragma once
// One process's membership in a distributed training run, on PyTorch's own c10d: the rank as an
// external launcher (torchrun, Slurm, `libreyolo train device=0,1`) describes it in RANK,
// WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT; a TCPStore rendezvous at that address; and
// the collectives of a c10d backend: NCCL between CUDA devices, gloo on the CPU. Every collective
// waits at most the group's timeout, and any failure (a peer that died, a timeout) surfaces as a
// libreyolo::Error naming this rank, so a run never hangs on a missing peer.
#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace libreyolo::distributed {

struct RankInfo {
    int rank = 0;
    int world_size = 1;
    int local_rank = 0;
    std::string master_addr = "127.0.0.1";
    int master_port = 29500;
};

// The rank from the environment; nullopt when WORLD_SIZE is unset. Throws InvalidArgument naming
// the variable that is missing or malformed (RANK outside [0, WORLD_SIZE), a port that is not one).
std::optional<RankInfo> rank_from_environment();

// An all-reduce in flight; wait() blocks until it is done (throws Error on failure).
class PendingReduction {
public:
    struct State;
    explicit PendingReduction(std::shared_ptr<State> state);
    void wait();

private:
    std::shared_ptr<State> state_;
};

// SIGPIPE ignored for the whole process (every process group does it first): a peer that died
// makes a write fail with EPIPE, reported as an error, instead of killing this rank.
void ignore_broken_pipes();

class ProcessGroup {
public:
    // Connects to the others (rank 0 serves the store); returns once all have joined.
    ProcessGroup(const RankInfo& rank, const torch::Device& device, std::chrono::milliseconds timeout);
    ~ProcessGroup();
    ProcessGroup(const ProcessGroup&) = delete;
    ProcessGroup& operator=(const ProcessGroup&) = delete;

    int rank() const { return rank_.rank; }
    int size() const { return rank_.world_size; }
    const std::string& backend() const { return backend_name_; }

    // Sums each tensor over the ranks, in place (blocking).
    void all_reduce_sum(std::vector<torch::Tensor>& tensors);
    // Starts summing tensor over the ranks in place; the caller keeps it alive until wait().
    PendingReduction all_reduce_sum_async(torch::Tensor& tensor);
    // Overwrites each tensor with root's (blocking).
    void broadcast(std::vector<torch::Tensor>& tensors, int root = 0);
    void barrier();

private:
    struct State;
    std::unique_ptr<State> state_;
    RankInfo rank_;
    std::string backend_name_;
    std::chrono::milliseconds timeout_;
};

}  // namespace libreyolo::distributed
