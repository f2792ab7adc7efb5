#include "models/yolo9/recipe.h"

#include "core/autocast.h"

namespace libreyolo::models::yolo9 {

std::unique_ptr<torch::optim::Optimizer> YOLO9Recipe::make_optimizer(const TrainOptions& o) {
    lr_ratios_ = {1, 1, 1};
    return training::make_grouped_optimizer(training::batch_norm_weight_bias_groups(*net_, o.weight_decay), o);
}

training::StepLoss YOLO9Recipe::loss(const torch::Tensor& images, const torch::Tensor& targets,
                                     training::NetworkGraph& graph, bool amp) {
    loss_fn_.global_target_sum = global_target_sum;
    std::vector<torch::Tensor> outputs = graph.forward(images, *net_, [&](const torch::Tensor& x) {
        const CudaAutocast autocast(amp);
        return net_->forward_raw(x);
    });
    // The loss in float32: sums over thousands of anchors and the IoU terms lose too much in float16.
    if (amp)
        for (auto& out : outputs) out = out.to(torch::kFloat32);
    const LossParts parts =
        loss_fn_(outputs, targets, static_cast<int>(images.size(3)), static_cast<int>(images.size(2)));
    return {parts.total, {parts.box, parts.cls, parts.dfl}};
}

}  // namespace libreyolo::models::yolo9
