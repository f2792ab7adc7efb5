#include "models/yolo9/family.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "models/weight_shapes.h"
#include "models/yolo9/recipe.h"
#include "models/yolo9/yolo9.h"

namespace libreyolo::models::yolo9 {
namespace {

// LibreYOLO's LibreYOLO9.detect_size: the stem width tells t and c apart; s and m share a stem
// and differ in the first block.
std::string detect_size(const registry::WeightMap& w) {
    switch (first_dim(w, "backbone.conv0.conv.weight")) {
        case 16:
            return "t";
        case 64:
            return "c";
        case 32: {
            const int64_t mid = first_dim(w, "backbone.elan1.cv1.conv.weight");
            if (mid == 64) return "s";
            if (mid == 128) return "m";
            return "";
        }
        default:
            return "";
    }
}

bool recognises(const registry::WeightMap& w) {
    return w.count("backbone.conv0.conv.weight") != 0 && has_key_with(w, "head.cv3.");
}

void infer_spec(const registry::WeightMap& weights, const io::CheckpointMeta& meta, const std::string& source,
                registry::NetworkSpec& spec) {
    const std::string detected = detect_size(weights);
    if (detected.empty() && meta.size.empty())
        throw FormatError(source +
                          ": cannot tell the model size: no 'size' field and no "
                          "backbone.conv0.conv.weight of a known width");
    spec.name.size = meta.size.empty() ? detected : meta.size;
    if (!detected.empty() && detected != spec.name.size)
        throw FormatError(source + ": checkpoint field size='" + spec.name.size + "' but the weights are " +
                          spec.name.family + "-" + detected);

    const int64_t nc_from_weights = first_dim(weights, "head.cv3.0.2.weight");
    spec.nc = nc_from_weights > 0 ? nc_from_weights : meta.nc;
    if (spec.nc <= 0)
        throw FormatError(source + ": cannot tell the class count: no 'nc' field and no head.cv3.0.2.weight");
    if (meta.nc > 0 && nc_from_weights > 0 && meta.nc != nc_from_weights)
        log_warning("weights", source + ": field nc=" + std::to_string(meta.nc) + " but the class head has " +
                                   std::to_string(nc_from_weights) + " outputs; using the weights");
    // Fine-tuned checkpoints keep the source model's class-tower width (80 for COCO towers reused
    // at a new nc), which a fresh build at that nc would not reproduce.
    spec.class_hidden = std::max<int64_t>(0, first_dim(weights, "head.cv3.0.0.conv.weight"));
}

}  // namespace

registry::FamilyDefinition family() {
    registry::FamilyDefinition f;
    // Inference graphs (detect): replay bit-identically for t/s/m/c, fp32/fp16, batch 1/8
    // (docs/graph-parity.md). Training graphs (detect): step-0 loss and BatchNorm buffers
    // bit-identical to eager (docs/graph-training-parity.md).
    // Quantization: LibreYOLO's fp8 recipe in simulation, first conv and head kept in float.
    f.traits.family = "yolo9";
    f.traits.display_name = "YOLOv9";
    f.traits.sizes = {"t", "s", "m", "c"};
    f.traits.tasks = {"detect"};
    f.onnx_opset = 13;
    f.onnx_embedded_nms = true;
    f.traits.weights_prefix = "LibreYOLO9";
    f.traits.default_imgsz = 640;
    f.traits.cuda_graph_inference_tasks = {"detect"};
    f.traits.cuda_graph_training_tasks = {"detect"};
    f.traits.fused_attention_default = false;
    f.traits.quant_recipes = {"fp8"};
    f.traits.quant_keep_high_precision = {"head.", "backbone.conv0."};
    f.traits.input_resize = InputResize::Letterbox;
    f.aliases = {"yolov9", "libreyolo9"};
    f.recognises = recognises;
    f.infer_spec = infer_spec;
    f.build = [](const registry::NetworkSpec& spec) -> nn::Detector {
        return std::make_shared<YOLO9Impl>(spec.name.size, spec.nc, spec.class_hidden);
    };
    // LibreYOLO's YOLO9Config is TrainOptions{} as it stands.
    f.make_recipe = [](const nn::Detector& net, int nc) -> std::unique_ptr<training::FamilyRecipe> {
        auto yolo = std::dynamic_pointer_cast<YOLO9Impl>(net);
        if (!yolo) throw InvalidArgument("yolo9 recipe: the network is not a YOLOv9");
        return std::make_unique<YOLO9Recipe>(yolo, nc);
    };
    return f;
}

}  // namespace libreyolo::models::yolo9
