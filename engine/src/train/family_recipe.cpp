#include "train/family_recipe.h"

#include "libreyolo/errors.h"
#include "registry/family_definition.h"
#include "train/foreach_sgd.h"

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

std::unique_ptr<torch::optim::Optimizer> FamilyRecipe::optimizer_over(const std::vector<ParameterGroup>& groups,
                                                                      const TrainOptions& o) {
    std::vector<ParameterGroup> held;
    lr_ratios_.clear();
    for (const ParameterGroup& g : groups)
        if (!g.params.empty()) {
            held.push_back(g);
            lr_ratios_.push_back(g.lr_ratio);
        }
    return make_grouped_optimizer(held, o);
}

std::unique_ptr<torch::optim::Optimizer> make_grouped_optimizer(const std::vector<ParameterGroup>& groups,
                                                                const TrainOptions& o) {
    if (o.optimizer == Optimizer::SGD)
        return grouped<ForeachSGD>(groups, torch::optim::SGDOptions(o.lr0).momentum(o.momentum).nesterov(true));
    if (o.optimizer == Optimizer::Adam)
        return grouped<torch::optim::Adam>(groups, torch::optim::AdamOptions(o.lr0).betas({o.momentum, 0.999}));
    return grouped<torch::optim::AdamW>(groups, torch::optim::AdamWOptions(o.lr0).betas({o.momentum, 0.999}));
}

std::vector<ParameterGroup> batch_norm_weight_bias_groups(const torch::nn::Module& net, double weight_decay) {
    ParameterGroup bn{{}, 0, 1}, weights{{}, weight_decay, 1}, biases{{}, 0, 1};
    for (const auto& p : net.named_parameters()) {
        if (p.key().ends_with(".bias"))
            biases.params.push_back(p.value());
        else if (p.key().ends_with(".bn.weight"))
            bn.params.push_back(p.value());
        else
            weights.params.push_back(p.value());
    }
    return {bn, weights, biases};
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

std::unique_ptr<FamilyRecipe> make_family_recipe(const std::string& family, const nn::Detector& net, int nc) {
    const registry::FamilyDefinition& definition = registry::family_definition(family);
    if (!definition.make_recipe)
        throw NotSupported("train: the " + definition.traits.display_name + " family cannot be trained yet");
    return definition.make_recipe(net, nc);
}

}  // namespace libreyolo::training
