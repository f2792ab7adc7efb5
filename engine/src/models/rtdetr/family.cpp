#include "models/rtdetr/family.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "models/rtdetr/recipe.h"
#include "models/rtdetr/rtdetr.h"
#include "models/weight_shapes.h"

namespace libreyolo::models::rtdetr {
namespace {

// LibreYOLO's LibreRTDETR.can_load: a PResNet backbone with both input projections.
bool recognises(const registry::WeightMap& w) {
    return has_key_with(w, "backbone.res_layers.") && has_key_with(w, "encoder.input_proj.") &&
           has_key_with(w, "decoder.input_proj.");
}

// LibreYOLO's LibreRTDETR.detect_size for its PResNet sizes: basic blocks are r18 (2 in the first
// stage) or r34 (3); bottlenecks (branch2c) are r101 (more than 6 blocks in the third stage), r50m
// (encoder expansion 0.5: 128 channels in the first CSP layer) or r50.
std::string detect_size(const registry::WeightMap& w) {
    if (!has_key_with(w, "backbone.res_layers.", ".branch2c."))
        return has_key_with(w, "backbone.res_layers.0.blocks.2.") ? "r34" : "r18";
    if (has_key_with(w, "backbone.res_layers.2.blocks.6.")) return "r101";
    return first_dim(w, "encoder.fpn_blocks.0.conv1.conv.weight") == 128 ? "r50m" : "r50";
}

void infer_spec(const registry::WeightMap& weights, const io::CheckpointMeta& meta, const std::string& source,
                registry::NetworkSpec& spec) {
    if (!recognises(weights))
        throw FormatError(source +
                          ": model_family is rtdetr but the weights have no backbone.res_layers / "
                          "encoder.input_proj / decoder.input_proj (a PResNet RT-DETR)");
    const std::string detected = detect_size(weights);
    spec.name.size = meta.size.empty() ? detected : meta.size;
    if (detected != spec.name.size)
        throw FormatError(source + ": checkpoint field size='" + spec.name.size + "' but the weights are rtdetr-" +
                          detected);
    const int64_t nc_from_weights = first_dim(weights, "decoder.enc_score_head.weight");
    if (nc_from_weights <= 0) throw FormatError(source + ": no decoder.enc_score_head.weight to tell the class count");
    if (meta.nc > 0 && meta.nc != nc_from_weights)
        log_warning("weights", source + ": field nc=" + std::to_string(meta.nc) + " but the class head has " +
                                   std::to_string(nc_from_weights) + " outputs; using the weights");
    spec.nc = nc_from_weights;
}

// LibreYOLO's RTDETRConfig.
void training_defaults(TrainOptions& o, const std::string& /*size*/) {
    o.epochs = 72;
    o.batch = 4;
    o.optimizer = Optimizer::AdamW;
    o.lr0 = 1e-4;
    o.lrf = 1.0;  // constant
    o.lr_backbone = 5e-6;
    o.momentum = 0.9;  // AdamW's beta1
    o.weight_decay = 1e-4;
    o.warmup_epochs = 0;
    o.mosaic = 0;
    o.close_mosaic = 0;
    o.clip_max_norm = 0.1;
}

}  // namespace

registry::FamilyDefinition family() {
    registry::FamilyDefinition f;
    // Resized, not letterboxed, to 640; NMS-free. Inference graphs: the whole forward replays
    // bit-identically (docs/graph-parity.md). Training graphs: the backbone and encoder, the
    // decoder eager (docs/graph-training-parity.md).
    f.traits.family = "rtdetr";
    f.traits.display_name = "RT-DETR";
    f.traits.sizes = {"r18", "r34", "r50"};
    f.traits.tasks = {"detect"};
    f.onnx_opset = 17;  // LayerNormalization (17) and GridSample (16)
    f.traits.weights_prefix = "LibreRTDETR";
    f.traits.default_imgsz = 640;
    f.traits.cuda_graph_inference_tasks = {"detect"};
    f.traits.cuda_graph_training_tasks = {"detect"};
    f.traits.fused_attention_default = false;
    f.traits.input_resize = InputResize::Stretch;
    f.traits.nms_free = true;
    f.aliases = {"librertdetr"};
    f.recognises = recognises;
    f.infer_spec = infer_spec;
    f.build = [](const registry::NetworkSpec& spec) -> nn::Detector {
        return std::make_shared<RTDETRModelImpl>(spec.name.size, spec.nc);
    };
    f.training_defaults = training_defaults;
    f.make_recipe = [](const nn::Detector& net, int nc) -> std::unique_ptr<training::FamilyRecipe> {
        auto detr = std::dynamic_pointer_cast<RTDETRModelImpl>(net);
        if (!detr) throw InvalidArgument("rtdetr recipe: the network is not an RT-DETR");
        return std::make_unique<RTDETRRecipe>(detr, nc);
    };
    return f;
}

}  // namespace libreyolo::models::rtdetr
