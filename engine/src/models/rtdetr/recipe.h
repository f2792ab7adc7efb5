#pragma once
// LibreYOLO's RT-DETR recipe (RTDETRTrainer): four parameter groups (backbone norms: lr_backbone,
// no decay; the rest of the backbone: lr_backbone; encoder/decoder norms and biases: no decay; the
// rest), the backbone and encoder through the training graph when captured (their shapes are
// fixed) and the decoder eager (its denoising queries follow each batch's ground truth), the
// varifocal + L1 + GIoU loss over all levels.
#include "models/rtdetr/criterion.h"
#include "models/rtdetr/rtdetr.h"
#include "train/family_recipe.h"

namespace libreyolo::models::rtdetr {

class RTDETRRecipe : public training::FamilyRecipe {
public:
    RTDETRRecipe(std::shared_ptr<RTDETRModelImpl> net, int nc) : net_(std::move(net)), criterion_(nc) {}
    std::vector<std::string> loss_names() const override { return {"vfl", "bbox", "giou"}; }
    std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& o) override;
    training::StepLoss loss(const torch::Tensor& images, const torch::Tensor& targets, training::NetworkGraph& graph,
                            bool amp) override;

private:
    std::shared_ptr<RTDETRModelImpl> net_;
    RTDETRCriterion criterion_;
};

}  // namespace libreyolo::models::rtdetr
