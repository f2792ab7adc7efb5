#pragma once
// Batch normalisation over the whole global batch of a distributed run (SyncBatchNorm): each
// rank's per-channel sums are summed over the ranks, so every rank normalises with, and moves its
// running statistics by, the mean and variance a single process would see on the global batch.
// Autograd differentiates through the all-reduce (its gradient is the all-reduce of the
// gradients), so backward needs no hand-written formula.
#include <torch/torch.h>

#include "distributed/process_group.h"

namespace libreyolo::distributed {

// While alive, batch_norm() synchronises every BatchNorm in training mode over group. One at a
// time per process (the training loop's).
class SyncBatchNormScope {
public:
    explicit SyncBatchNormScope(ProcessGroup& group);
    ~SyncBatchNormScope();
    SyncBatchNormScope(const SyncBatchNormScope&) = delete;
    SyncBatchNormScope& operator=(const SyncBatchNormScope&) = delete;
};

// bn(x); inside a SyncBatchNormScope and in training mode, the synchronised form.
torch::Tensor batch_norm(torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x);

}  // namespace libreyolo::distributed
