#include "models/yolox/recipe.h"

#include <cmath>

#include "core/autocast.h"
#include "libreyolo/log.h"
#include "models/yolox/augment.h"

namespace libreyolo::models::yolox {

torch::Tensor targets_as_labels(const torch::Tensor& targets, int64_t width, int64_t height) {
    using torch::indexing::Slice;
    const torch::Tensor x1 = targets.index({Slice(), Slice(), 1}) * width,
                        y1 = targets.index({Slice(), Slice(), 2}) * height,
                        x2 = targets.index({Slice(), Slice(), 3}) * width,
                        y2 = targets.index({Slice(), Slice(), 4}) * height;
    return torch::stack({targets.index({Slice(), Slice(), 0}), (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1}, -1);
}

std::shared_ptr<const data::SamplePipeline> YOLOXRecipe::sample_pipeline(const data::AugmentOptions& o,
                                                                         float mosaic) const {
    return std::make_shared<YoloxPipeline>(o, mosaic);
}

void YOLOXRecipe::begin_epoch(int epoch, bool mosaic_epoch) {
    if (!mosaic_epoch && !use_l1_)
        log_info("train", "epoch " + std::to_string(epoch) + ": mosaic off, the L1 loss term on");
    use_l1_ = !mosaic_epoch;
}

void YOLOXRecipe::initialise_fresh_network() {
    // YOLOXHead.initialize_biases(0.01): every anchor starts at 1 % objectness and class score.
    const double prior = -std::log((1 - 0.01) / 0.01);
    torch::NoGradGuard no_grad;
    for (const auto* list : {&net_->head->cls_preds, &net_->head->obj_preds})
        for (const auto& conv : **list) conv->named_parameters(false)["bias"].fill_(prior);
}

std::unique_ptr<torch::optim::Optimizer> YOLOXRecipe::make_optimizer(const TrainOptions& o) {
    lr_ratios_ = {1, 1, 1};
    return training::make_grouped_optimizer(training::batch_norm_weight_bias_groups(*net_, o.weight_decay), o);
}

training::StepLoss YOLOXRecipe::loss(const torch::Tensor& images, const torch::Tensor& targets,
                                     training::NetworkGraph& graph, bool amp) {
    loss_fn_.global_positive_sum = global_target_sum;
    // The raw box regressions come out of every forward, so that the L1 switch leaves a captured
    // graph valid; the graph's outputs are what gradients flow through, the anchor grid is built
    // beside it.
    const std::vector<torch::Tensor> out = graph.forward(images, *net_, [&](const torch::Tensor& x) {
        const CudaAutocast autocast(amp);
        TrainMaps m = net_->head->train_maps(net_->features(x), /*with_raw_box=*/true);
        return std::vector<torch::Tensor>{m.outputs, m.raw_box};
    });
    // The loss and SimOTA in float32, as LibreYOLO computes its cost and loss reductions.
    TrainMaps maps;
    maps.outputs = out[0].to(torch::kFloat32);
    maps.raw_box = out[1].to(torch::kFloat32);
    set_anchor_grid(maps, level_sizes(images.size(2), images.size(3)), maps.outputs.options());
    const LossParts parts = loss_fn_(maps, targets_as_labels(targets, images.size(3), images.size(2)), use_l1_);
    return {parts.total, {parts.iou, parts.obj, parts.cls, parts.l1}};
}

}  // namespace libreyolo::models::yolox
