#include "train/family_recipe.h"

#include "libreyolo/errors.h"
#include "models/rtdetr/rtdetr.h"
#include "models/yolo9/yolo9.h"
#include "train/foreach_sgd.h"
#include "train/rtdetr_recipe.h"
#include "train/yolo9_recipe.h"

namespace libreyolo::training {
namespace {

template <typename Optim, typename Options>
std::unique_ptr<torch::optim::Optimizer> grouped(const std::vector<ParameterGroup>& groups, const Options& base) {
    std::vector<torch::optim::OptimizerParamGroup> g;
    for (const auto& group : groups) {
        auto o = std::make_unique<Options>(base);
        o->weight_decay(group.weight_decay);
        o->lr(base.lr() * group.lr_ratio);
        g.emplace_back(group.params, std::move(o));
    }
    return std::make_unique<Optim>(g, base);
}

}  // namespace

std::unique_ptr<torch::optim::Optimizer> make_grouped_optimizer(const std::vector<ParameterGroup>& groups,
                                                                const TrainOptions& o) {
    if (o.optimizer == "SGD")
        return grouped<ForeachSGD>(groups, torch::optim::SGDOptions(o.lr0).momentum(o.momentum).nesterov(true));
    if (o.optimizer == "Adam")
        return grouped<torch::optim::Adam>(groups, torch::optim::AdamOptions(o.lr0).betas({o.momentum, 0.999}));
    return grouped<torch::optim::AdamW>(groups, torch::optim::AdamWOptions(o.lr0).betas({o.momentum, 0.999}));
}

void optimizer_step(torch::optim::Optimizer& optimizer, GradScaler& scaler, bool amp, double clip_max_norm,
                    torch::nn::Module& net) {
    const auto clip = [&] {
        if (clip_max_norm > 0) torch::nn::utils::clip_grad_norm_(net.parameters(), clip_max_norm);
    };
    if (amp) {
        scaler.step(optimizer, clip);
        scaler.update();
    } else {
        clip();
        optimizer.step();
    }
}

std::unique_ptr<FamilyRecipe> make_family_recipe(const models::Detector& net, int nc) {
    if (auto yolo = std::dynamic_pointer_cast<models::yolo9::YOLO9Impl>(net))
        return std::make_unique<YOLO9Recipe>(yolo, nc);
    if (auto detr = std::dynamic_pointer_cast<models::rtdetr::RTDETRModelImpl>(net))
        return std::make_unique<RTDETRRecipe>(detr, nc);
    throw NotSupported("train: this model family cannot be trained yet");
}

}  // namespace libreyolo::training
