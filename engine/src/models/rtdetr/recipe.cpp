#include "models/rtdetr/recipe.h"

#include "core/autocast.h"
#include "libreyolo/errors.h"

namespace libreyolo::models::rtdetr {

std::unique_ptr<torch::optim::Optimizer> RTDETRRecipe::make_optimizer(const TrainOptions& o) {
    if (!(o.lr_backbone > 0)) throw InvalidArgument("lr_backbone: must be positive for RT-DETR");
    const double backbone_ratio = o.lr_backbone / o.lr0;
    // LibreYOLO's rules, first match wins.
    training::ParameterGroup backbone_norm{{}, 0, backbone_ratio}, backbone{{}, o.weight_decay, backbone_ratio},
        head_norm_bias{{}, 0, 1}, rest{{}, o.weight_decay, 1};
    const auto has = [](const std::string& name, const char* part) { return name.find(part) != std::string::npos; };
    for (const auto& p : net_->named_parameters()) {
        const std::string& name = p.key();
        const bool norm = has(name, "norm") || has(name, "bn");
        if (has(name, "backbone"))
            (norm ? backbone_norm : backbone).params.push_back(p.value());
        else if ((has(name, "encoder") || has(name, "decoder")) && (has(name, "norm") || has(name, "bias")))
            head_norm_bias.params.push_back(p.value());
        else
            rest.params.push_back(p.value());
    }
    return optimizer_over({backbone_norm, backbone, head_norm_bias, rest}, o);
}

training::StepLoss RTDETRRecipe::loss(const torch::Tensor& images, const torch::Tensor& targets,
                                      training::NetworkGraph& graph, bool amp) {
    criterion_.global_target_count = global_target_sum;
    const std::vector<DetrTarget> truth = detr_targets(targets);
    const std::vector<torch::Tensor> feats =
        graph.forward(images, net_->feature_extractor(), [&](const torch::Tensor& x) {
            const CudaAutocast autocast(amp);
            return net_->encoder(net_->backbone(x));
        });
    TrainingOutput out;
    {
        const CudaAutocast autocast(amp);
        out = net_->decoder->forward_train(feats, truth, {});
    }
    const LossTerms terms = criterion_(out, truth);  // float32 inside
    return {terms.total, {terms.vfl, terms.bbox, terms.giou}};
}

}  // namespace libreyolo::models::rtdetr
