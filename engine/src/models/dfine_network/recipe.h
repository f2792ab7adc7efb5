#pragma once
// LibreYOLO's D-FINE and DEIM recipe (DFINETrainer, DEIMTrainer): AdamW over four parameter groups
// (the rest with decay, the rest's norms, biases and scales without; the backbone's two likewise,
// at backbone_lr_mult), frozen parameters left out; the samples of DetrPipeline, whose strong
// stage ends at aug_stop_epoch_ratio; the backbone and encoder through the training graph when
// captured (their shapes are fixed) and the decoder eager (its denoising queries follow each
// batch's ground truth); the family's criterion over all levels.
#include "models/dfine_network/criterion.h"
#include "models/dfine_network/dfine_network.h"
#include "train/family_recipe.h"

namespace libreyolo::models::dfine_network {

class DFINERecipe : public training::FamilyRecipe {
public:
    DFINERecipe(std::shared_ptr<DFINENetworkImpl> net, Variant variant, int nc)
        : net_(std::move(net)), variant_(variant), criterion_(variant, nc) {}
    std::vector<std::string> loss_names() const override { return criterion_.component_names(); }
    std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& o) override;
    std::shared_ptr<const data::SamplePipeline> sample_pipeline(const data::AugmentOptions& options,
                                                                float mosaic) const override;
    // LibreYOLO's resolve_aug_stop_epoch: epochs up to min(⌊epochs · aug_stop_epoch_ratio⌋,
    // max(1, epochs − close_mosaic)).
    bool augmentation_epoch(int epoch, const TrainOptions& o) const override;
    // The smallest input (imgsz, or multi_scale's smallest size) must leave the decoder its queries.
    void check_options(const TrainOptions& o) const override;
    training::StepLoss loss(const torch::Tensor& images, const torch::Tensor& targets, training::NetworkGraph& graph,
                            bool amp) override;

private:
    std::shared_ptr<DFINENetworkImpl> net_;
    Variant variant_;
    DFINECriterion criterion_;
};

// LibreYOLO's DFINEConfig (D-FINE) or DEIMConfig (DEIM) for a size.
void training_defaults(Variant variant, TrainOptions& o, const std::string& size);

}  // namespace libreyolo::models::dfine_network
