#include "models/dfine_network/recipe.h"

#include <algorithm>
#include <cmath>

#include "core/autocast.h"
#include "libreyolo/errors.h"
#include "models/detr_target.h"
#include "models/dfine_network/augment.h"
#include "train/schedule.h"

namespace libreyolo::models::dfine_network {

std::unique_ptr<torch::optim::Optimizer> DFINERecipe::make_optimizer(const TrainOptions& o) {
    const auto has = [](const std::string& name, const char* part) { return name.find(part) != std::string::npos; };
    training::ParameterGroup head{{}, o.weight_decay, 1}, head_plain{{}, 0, 1},
        backbone{{}, o.weight_decay, o.backbone_lr_mult}, backbone_plain{{}, 0, o.backbone_lr_mult};
    for (const auto& p : net_->named_parameters()) {
        if (!p.value().requires_grad()) continue;  // the frozen stem (and stages)
        const std::string& name = p.key();
        const bool plain = has(name, "norm") || has(name, ".bn.") || has(name, "bias") || has(name, "lab.scale");
        const bool in_backbone = name.rfind("backbone.", 0) == 0;
        (in_backbone ? (plain ? backbone_plain : backbone) : (plain ? head_plain : head)).params.push_back(p.value());
    }
    return optimizer_over({head, head_plain, backbone, backbone_plain}, o);
}

std::shared_ptr<const data::SamplePipeline> DFINERecipe::sample_pipeline(const data::AugmentOptions& options,
                                                                         float /*mosaic*/) const {
    return std::make_shared<DetrPipeline>(options, /*fit_first=*/variant_ == Variant::DFINE);
}

void DFINERecipe::check_options(const TrainOptions& o) const {
    const DecoderOptions& d = net_->options().decoder;
    const std::vector<int> sizes = training::multi_scale_sizes(o.imgsz, o.base_size_repeat);
    const int smallest = o.multi_scale ? *std::min_element(sizes.begin(), sizes.end()) : o.imgsz;
    int64_t cells = 0;
    for (const int64_t stride : d.feat_strides) cells += (smallest / stride) * (smallest / stride);
    if (cells < d.num_queries)
        throw InvalidArgument("imgsz: " + std::string(o.multi_scale ? "multi_scale's smallest size " : "") +
                              std::to_string(smallest) + " leaves the decoder " + std::to_string(cells) +
                              " cells for its " + std::to_string(d.num_queries) + " queries; use a larger imgsz" +
                              (o.multi_scale ? " or multi_scale=false" : ""));
}

bool DFINERecipe::augmentation_epoch(int epoch, const TrainOptions& o) const {
    int stop = static_cast<int>(o.epochs * o.aug_stop_epoch_ratio);
    if (o.close_mosaic > 0) stop = std::min(stop, std::max(1, o.epochs - o.close_mosaic));
    return epoch <= stop;
}

training::StepLoss DFINERecipe::loss(const torch::Tensor& images, const torch::Tensor& targets,
                                     training::NetworkGraph& graph, bool amp) {
    criterion_.global_target_count = global_target_sum;
    std::vector<DetrTarget> truth = detr_targets(targets);
    for (DetrTarget& t : truth) t.boxes = t.boxes.clamp(0.0, 1.0);  // LibreYOLO's on_forward
    const std::vector<torch::Tensor> feats =
        graph.forward(images, net_->feature_extractor(), [&](const torch::Tensor& x) {
            const CudaAutocast autocast(amp);
            return net_->encoder(net_->backbone(x));
        });
    TrainingOutput out;
    {
        const CudaAutocast autocast(amp);
        out = net_->decoder->forward_train(feats, truth, denoising_options());
    }
    const LossTerms terms = criterion_(out, truth, net_->decoder->up, net_->decoder->reg_scale);
    return {terms.total.to(torch::kFloat32), terms.components};
}

void training_defaults(Variant variant, TrainOptions& o, const std::string& size) {
    const bool deim = variant == Variant::DEIM;
    o.epochs = 132;
    o.batch = 16;
    o.optimizer = Optimizer::AdamW;
    o.lr0 = deim ? 1e-4 : 2e-4;
    o.lrf = 0.05;  // min_lr_ratio
    o.scheduler = LrScheduler::FlatCosine;
    o.momentum = 0.9;  // AdamW's beta1
    o.weight_decay = 1e-4;
    o.warmup_epochs = 2;
    o.warmup_lr_start = 1e-6;
    o.close_mosaic = deim ? 12 : 4;  // no_aug_epochs
    o.mosaic = 0;
    o.mixup_prob = 0;
    o.hsv_prob = 0;
    o.flip_prob = 0.5f;
    // DEIMConfig's degrees and translate, which its pipeline (like D-FINE's) does not use.
    o.degrees = deim ? 10.0f : 0.0f;
    o.translate = deim ? 0.1f : 0.0f;
    o.shear = 0;
    o.ema_decay = 0.9999;
    o.ema_restart_decay = 0.9999;
    o.clip_max_norm = 0.1;
    o.aug_stop_epoch_ratio = deim ? 0.91 : 0.85;
    if (deim) {
        o.backbone_lr_mult = size == "m" ? 0.1 : size == "l" ? 0.05 : size == "x" ? 0.01 : 0.5;
        o.multi_scale = true;
        o.base_size_repeat = 3;
    } else {
        // DFINE_BASE_SIZE_REPEAT: n keeps every batch at imgsz.
        o.backbone_lr_mult = 0.5;
        o.multi_scale = size != "n";
        o.base_size_repeat = size == "s" ? 20 : size == "m" ? 6 : size == "l" ? 4 : 3;
    }
}

}  // namespace libreyolo::models::dfine_network
