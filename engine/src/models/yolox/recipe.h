#pragma once
// LibreYOLO's YOLOX recipe (models/yolox/trainer.py): the three parameter groups, the class and
// objectness biases of a fresh network set to the prior −log(99), the forward through the
// training graph when captured, the YOLOX loss (iou, obj, cls, l1) with the L1 term from the first
// epoch without mosaic, and YOLOX's own training samples.
#include "models/yolox/loss.h"
#include "models/yolox/yolox.h"
#include "train/family_recipe.h"

namespace libreyolo::models::yolox {

class YOLOXRecipe : public training::FamilyRecipe {
public:
    YOLOXRecipe(std::shared_ptr<YOLOXImpl> net, int nc) : net_(std::move(net)), loss_fn_(nc) {}
    std::vector<std::string> loss_names() const override { return {"iou", "obj", "cls", "l1"}; }
    bool supports_sync_batch_norm() const override { return true; }
    std::shared_ptr<const data::SamplePipeline> sample_pipeline(const data::AugmentOptions& o,
                                                                float mosaic) const override;
    void begin_epoch(int epoch, bool mosaic_epoch) override;
    void initialise_fresh_network() override;
    std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& o) override;
    training::StepLoss loss(const torch::Tensor& images, const torch::Tensor& targets, training::NetworkGraph& graph,
                            bool amp) override;

private:
    std::shared_ptr<YOLOXImpl> net_;
    YOLOXLoss loss_fn_;
    bool use_l1_ = false;
};

// The loader's targets (B, T, 5: class, x1, y1, x2, y2 normalised) as YOLOX's labels (class, cx,
// cy, w, h in pixels of a width × height input); padding rows stay zero.
torch::Tensor targets_as_labels(const torch::Tensor& targets, int64_t width, int64_t height);

}  // namespace libreyolo::models::yolox
