#pragma once
// LibreYOLO's YOLOv9 recipe: three parameter groups (BatchNorm weights, decayed conv weights,
// biases), the forward through the training graph when captured, the YOLOv9 loss (box, cls, dfl).
#include "models/yolo9/loss.h"
#include "models/yolo9/yolo9.h"
#include "train/family_recipe.h"

namespace libreyolo::models::yolo9 {

class YOLO9Recipe : public training::FamilyRecipe {
public:
    YOLO9Recipe(std::shared_ptr<YOLO9Impl> net, int nc) : net_(std::move(net)), loss_fn_(nc) {}
    std::vector<std::string> loss_names() const override { return {"box", "cls", "dfl"}; }
    bool supports_sync_batch_norm() const override { return true; }
    std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& o) override;
    training::StepLoss loss(const torch::Tensor& images, const torch::Tensor& targets, training::NetworkGraph& graph,
                            bool amp) override;

private:
    std::shared_ptr<YOLO9Impl> net_;
    YOLO9Loss loss_fn_;
};

}  // namespace libreyolo::models::yolo9
