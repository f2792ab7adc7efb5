#include "models/yolox/family.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "models/weight_shapes.h"
#include "models/yolox/recipe.h"
#include "models/yolox/yolox.h"

namespace libreyolo::models::yolox {
namespace {

constexpr const char* kStemKey = "backbone.backbone.stem.conv.conv.weight";
constexpr const char* kClassHeadKey = "head.cls_preds.0.weight";

// LibreYOLOX.detect_size: the stem's width is 64 × the size's width factor.
std::string detect_size(const registry::WeightMap& w) {
    switch (first_dim(w, kStemKey)) {
        case 16:
            return "n";
        case 24:
            return "t";
        case 32:
            return "s";
        case 48:
            return "m";
        case 64:
            return "l";
        case 80:
            return "x";
        default:
            return "";
    }
}

// LibreYOLOX.can_load: a CSPDarknet inside the PAFPN (backbone.backbone.*) or YOLOX's head stems,
// and not the attention backbone of a family that shares those names.
bool recognises(const registry::WeightMap& w) {
    if (w.count("backbone.backbone._model.blocks.0.attn.gk_proj.0.weight") != 0) return false;
    return has_key_with(w, "backbone.backbone.") || has_key_with(w, "head.stems.");
}

void infer_spec(const registry::WeightMap& weights, const io::CheckpointMeta& meta, const std::string& source,
                registry::NetworkSpec& spec) {
    const std::string detected = detect_size(weights);
    if (detected.empty() && meta.size.empty())
        throw FormatError(source + ": cannot tell the YOLOX size: no 'size' field and no " + kStemKey +
                          " of a known width (16, 24, 32, 48, 64, 80)");
    spec.name.size = meta.size.empty() ? detected : meta.size;
    if (!detected.empty() && detected != spec.name.size)
        throw FormatError(source + ": checkpoint field size='" + spec.name.size + "' but the weights are yolox-" +
                          detected);
    const int64_t nc_from_weights = first_dim(weights, kClassHeadKey);
    spec.nc = nc_from_weights > 0 ? nc_from_weights : meta.nc;
    if (spec.nc <= 0)
        throw FormatError(source + ": cannot tell the class count: no 'nc' field and no " + kClassHeadKey);
    if (meta.nc > 0 && nc_from_weights > 0 && meta.nc != nc_from_weights)
        log_warning("weights", source + ": field nc=" + std::to_string(meta.nc) + " but the class head has " +
                                   std::to_string(nc_from_weights) + " outputs; using the weights");
}

// LibreYOLO's YOLOXConfig (TrainConfig with momentum 0.9 and sync_bn) and YOLOXTrainer: lr0 0.01
// whatever the batch, every size at 640.
void training_defaults(TrainOptions& o, const std::string& /*size*/) {
    o.epochs = 300;
    o.momentum = 0.9;
    o.scheduler = LrScheduler::YoloxWarmCos;
    o.warmup_epochs = 5;
    o.warmup_lr_start = 0;
    o.warmup_momentum = 0.9;
    o.lrf = 0.05;
    o.close_mosaic = 15;
    o.degrees = 10;
    o.shear = 2;
    o.mosaic_scale = {0.1f, 2.0f};
    o.mixup_prob = 1;
    o.mixup_scale = {0.5f, 1.5f};
    o.ema_decay = 0.9998;
    o.eval_interval = 10;
    o.save_period = 10;
    o.sync_bn = true;
}

}  // namespace

registry::FamilyDefinition family() {
    registry::FamilyDefinition f;
    // Inference graphs (detect): replay bit-identically for every size, fp32/fp16, batch 1/8
    // (docs/graph-parity.md). Training graphs (detect): the whole network's forward and backward,
    // step-0 loss and BatchNorm buffers bit-identical to eager (docs/graph-training-parity.md).
    f.traits.family = "yolox";
    f.traits.display_name = "YOLOX";
    f.traits.sizes = {"n", "t", "s", "m", "l", "x"};
    f.traits.tasks = {"detect"};
    f.traits.weights_prefix = "LibreYOLOX";
    f.traits.default_imgsz = 640;
    for (const std::string& size : f.traits.sizes) {
        const int imgsz = size_config(size).default_imgsz;
        if (imgsz != f.traits.default_imgsz) f.traits.size_imgsz[size] = imgsz;
    }
    f.traits.cuda_graph_inference_tasks = {"detect"};
    f.traits.cuda_graph_training_tasks = {"detect"};
    f.traits.fused_attention_default = false;
    // LibreYOLO's YOLOX predict letterboxes with Pillow's bilinear resize; its postprocess keeps
    // the best class of each box (objectness × class score) above conf, with no candidate cap.
    f.traits.input_resize = InputResize::LetterboxPil;
    f.traits.best_class_only = true;
    f.aliases = {"libreyolox"};
    f.recognises = recognises;
    f.infer_spec = infer_spec;
    f.build = [](const registry::NetworkSpec& spec) -> nn::Detector {
        return std::make_shared<YOLOXImpl>(spec.name.size, spec.nc);
    };
    f.training_defaults = training_defaults;
    f.make_recipe = [](const nn::Detector& net, int nc) -> std::unique_ptr<training::FamilyRecipe> {
        auto yolox = std::dynamic_pointer_cast<YOLOXImpl>(net);
        if (!yolox) throw InvalidArgument("yolox recipe: the network is not a YOLOX");
        return std::make_unique<YOLOXRecipe>(yolox, nc);
    };
    return f;
}

}  // namespace libreyolo::models::yolox
