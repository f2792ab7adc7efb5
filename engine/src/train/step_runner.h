#pragma once
// One optimisation step of a run: the schedule, the batch's size (multi_scale), forward and loss
// through the training graph, backward (scaled under AMP), the optimizer step and the EMA update,
// then the loss read back once. The graph policy: which runs may capture, and a backward replay that
// fails computing the batch again eagerly.
#include <torch/torch.h>

#include <atomic>
#include <string>
#include <vector>

#include "data/batch.h"
#include "distributed/distributed_training.h"
#include "libreyolo/families.h"
#include "train/family_recipe.h"
#include "train/grad_scaler.h"
#include "train/model_ema.h"
#include "train/network_graph.h"
#include "train/schedule.h"

namespace libreyolo::training {

// Why this run cannot capture its training step ("" when it can): distributed runs, non-CUDA
// devices and families that have not opted in train eager.
std::string training_graphs_ruled_out(const distributed::DistributedTraining* dist, const torch::Device& device,
                                      const FamilyTraits& traits, const ModelName& name);

struct StepOutcome {
    // The loss and its parts, in the recipe's loss_names() order (in a distributed run the sum of
    // every rank's share: the loss one process would report).
    std::vector<double> values;
    bool finite = true;  // false: a float16 overflow the scaler skipped (AMP only)
    bool stop = false;   // a stop was requested, on any rank
    double lr = 0;
};

class StepRunner {
public:
    struct Parts {
        FamilyRecipe& recipe;
        torch::optim::Optimizer& optimizer;
        GradScaler& scaler;
        NetworkGraph& graph;
        ModelEma& ema;
        torch::nn::Module& net;
        distributed::DistributedTraining* dist = nullptr;  // null: one process
    };
    StepRunner(const TrainOptions& o, Parts parts, torch::Device device, bool amp, int batches_per_epoch);

    // Trains on batch, the b-th (1-based) of epoch. Throws Error when the loss diverged (not finite
    // in float32, or more than 20 steps in a row under AMP).
    StepOutcome run(const data::Batch& batch, int epoch, int b, const std::atomic<bool>* stop);

private:
    torch::Tensor sized_for_step(torch::Tensor images, int64_t step, int epoch) const;
    StepLoss forward_and_backward(const torch::Tensor& images, const torch::Tensor& targets);
    StepOutcome read_back(const StepLoss& loss, const std::atomic<bool>* stop);

    const TrainOptions& o_;
    Parts p_;
    torch::Device device_;
    bool amp_;
    int batches_per_epoch_;
    Schedule schedule_;
    std::vector<int> scales_;
    int nonfinite_in_a_row_ = 0;
};

}  // namespace libreyolo::training
