#pragma once
// What the training loop asks of a model family: the names of its loss parts, its optimizer's
// parameter groups (with their learning rates relative to lr0), and one batch's forward and loss.
// The loop itself (schedule, AMP, EMA, validation, checkpoints, distributed runs) is shared.
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "data/sample_pipeline.h"
#include "libreyolo/train.h"
#include "nn/detector.h"
#include "train/grad_scaler.h"
#include "train/network_graph.h"

namespace libreyolo::training {

struct ParameterGroup {
    std::vector<torch::Tensor> params;
    double weight_decay = 0;
    double lr_ratio = 1;
};

struct StepLoss {
    torch::Tensor total;               // float32, what backward starts from
    std::vector<torch::Tensor> parts;  // in loss_names() order, each already weighted
};

class FamilyRecipe {
public:
    virtual ~FamilyRecipe() = default;
    // results.csv's train/<name>_loss columns, in order.
    virtual std::vector<std::string> loss_names() const = 0;
    // The optimizer over the family's parameter groups; lr_ratios() gives each group's learning
    // rate as a multiple of the schedule's.
    virtual std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& o) = 0;
    const std::vector<double>& lr_ratios() const { return lr_ratios_; }
    // The family's own training samples (null: the loader's StandardPipeline).
    virtual std::shared_ptr<const data::SamplePipeline> sample_pipeline(const data::AugmentOptions&, float) const {
        return nullptr;
    }
    // Throws InvalidArgument naming the key when the run's options cannot work for this network.
    virtual void check_options(const TrainOptions& /*o*/) const {}
    // Whether epoch (1-based) still has the strong augmentations (mosaic and the like) and
    // multi_scale: all but the last close_mosaic epochs, unless the family stops them earlier.
    virtual bool augmentation_epoch(int epoch, const TrainOptions& o) const {
        return epoch <= o.epochs - o.close_mosaic;
    }
    // Before each epoch's first batch; mosaic_epoch: augmentation_epoch(epoch).
    virtual void begin_epoch(int /*epoch*/, bool /*mosaic_epoch*/) {}
    // Before the optimizer and the EMA exist, for a network not loaded from weights.
    virtual void initialise_fresh_network() {}
    // Whether its BatchNorm layers go through distributed::batch_norm, so that sync_bn applies.
    virtual bool supports_sync_batch_norm() const { return false; }
    // images (B, 3, H, W) on the device; targets (B, T, 5) class, x1, y1, x2, y2 normalised, zero
    // rows padding. The forward goes through graph (replayed once captured) where the family has a
    // capturable part; amp: the forward under float16 autocast, the loss in float32.
    virtual StepLoss loss(const torch::Tensor& images, const torch::Tensor& targets, NetworkGraph& graph, bool amp) = 0;
    // Distributed runs: the loss's normaliser (the ground-truth count) summed over the ranks.
    std::function<torch::Tensor(const torch::Tensor&)> global_target_sum;

protected:
    // make_grouped_optimizer over the groups that hold parameters, their multiples kept as lr_ratios().
    std::unique_ptr<torch::optim::Optimizer> optimizer_over(const std::vector<ParameterGroup>& groups,
                                                            const TrainOptions& o);
    std::vector<double> lr_ratios_;
};

// The recipe the family registers for net (built by the registry for that family). Throws
// NotSupported naming the family when it cannot be trained.
std::unique_ptr<FamilyRecipe> make_family_recipe(const std::string& family, const nn::Detector& net, int nc);

// One optimizer of o.optimizer's kind (SGD with Nesterov momentum, Adam, AdamW; beta1 = momentum)
// over groups, each with its own weight decay and learning rate multiple.
std::unique_ptr<torch::optim::Optimizer> make_grouped_optimizer(const std::vector<ParameterGroup>& groups,
                                                                const TrainOptions& o);

// LibreYOLO's three groups of a convolutional network whose BatchNorm layers are named "bn": the
// BatchNorm weights (no decay), every other weight (weight_decay), the biases (no decay).
std::vector<ParameterGroup> batch_norm_weight_bias_groups(const torch::nn::Module& net, double weight_decay);

// After backward: the optimizer step, through the GradScaler with amp, the gradients of net
// clipped to clip_max_norm (> 0) first, after unscaling (LibreYOLO's clip_max_norm).
void optimizer_step(torch::optim::Optimizer& optimizer, GradScaler& scaler, bool amp, double clip_max_norm,
                    torch::nn::Module& net);

}  // namespace libreyolo::training
