#include "models/dfine_network/registration.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "models/dfine_network/recipe.h"
#include "models/weight_shapes.h"

namespace libreyolo::models::dfine_network {
namespace {

int64_t in_channels(const registry::WeightMap& w, const std::string& key) {
    const auto it = w.find(key);
    return it == w.end() || it->second.dim() < 2 ? -1 : it->second.size(1);
}

// LibreYOLO's can_load: the decoder's pre_bbox_head is D-FINE's alone among the DETRs it ships;
// Dome-DETR, which descends from D-FINE, is told apart by its DeFE encoder.
bool recognises(const registry::WeightMap& w) {
    return has_key_with(w, "decoder.pre_bbox_head.") && !has_key_with(w, "encoder.DeFE.");
}

}  // namespace

std::string detect_size(const registry::WeightMap& w) {
    const int64_t hidden = in_channels(w, "encoder.lateral_convs.0.conv.weight");
    int levels = 0;
    while (w.count("encoder.input_proj." + std::to_string(levels) + ".conv.weight")) ++levels;
    if (hidden == 128 && levels == 2) return "n";
    if (hidden == 384 && levels == 3) return "x";
    if (hidden != 256 || levels != 3) return "";
    switch (in_channels(w, "encoder.input_proj.0.conv.weight")) {
        case 256:
            return "s";
        case 384:
            return "m";
        case 512:
            return "l";
        default:
            return "";
    }
}

registry::FamilyDefinition family_definition(Variant variant, const std::string& family,
                                             const std::string& display_name, const std::string& weights_prefix) {
    registry::FamilyDefinition f;
    f.traits.family = family;
    f.traits.display_name = display_name;
    f.traits.sizes = {"n", "s", "m", "l", "x"};
    f.traits.tasks = {"detect"};
    f.traits.weights_prefix = weights_prefix;
    f.traits.default_imgsz = 640;
    // Every size × float32/float16 × batch 1/8 replays bit-identically (docs/graph-parity.md).
    // Training graphs: the backbone and encoder, the decoder eager (docs/graph-training-parity.md).
    f.traits.cuda_graph_inference_tasks = {"detect"};
    f.traits.cuda_graph_training_tasks = {"detect"};
    f.traits.fused_attention_default = false;
    f.traits.input_resize = InputResize::StretchPil;
    f.traits.nms_free = true;
    f.recognises = recognises;
    f.infer_spec = [family](const registry::WeightMap& weights, const io::CheckpointMeta& meta,
                            const std::string& source, registry::NetworkSpec& spec) {
        if (!recognises(weights))
            throw FormatError(source + ": model_family is " + family +
                              " but the weights have no decoder.pre_bbox_head (a D-FINE decoder)");
        const std::string detected = detect_size(weights);
        if (detected.empty())
            throw FormatError(source +
                              ": the encoder's encoder.lateral_convs.0 / encoder.input_proj shapes are none of " +
                              family + "'s sizes n, s, m, l, x");
        spec.name.size = meta.size.empty() ? detected : meta.size;
        if (detected != spec.name.size)
            throw FormatError(source + ": checkpoint field size='" + spec.name.size + "' but the weights are " +
                              family + "-" + detected);
        const int64_t nc_from_weights = first_dim(weights, "decoder.dec_score_head.0.bias");
        if (nc_from_weights <= 0)
            throw FormatError(source + ": no decoder.dec_score_head.0.bias to tell the class count");
        if (meta.nc > 0 && meta.nc != nc_from_weights)
            log_warning("weights", source + ": field nc=" + std::to_string(meta.nc) + " but the class head has " +
                                       std::to_string(nc_from_weights) + " outputs; using the weights");
        spec.nc = nc_from_weights;
    };
    f.build = [variant](const registry::NetworkSpec& spec) -> nn::Detector {
        return std::make_shared<DFINENetworkImpl>(network_options(variant, spec.name.size, spec.nc));
    };
    f.training_defaults = [variant](TrainOptions& o, const std::string& size) { training_defaults(variant, o, size); };
    f.make_recipe = [variant, family](const nn::Detector& net, int nc) -> std::unique_ptr<training::FamilyRecipe> {
        auto dfine = std::dynamic_pointer_cast<DFINENetworkImpl>(net);
        if (!dfine) throw InvalidArgument(family + " recipe: the network is not a D-FINE network");
        return std::make_unique<DFINERecipe>(dfine, variant, nc);
    };
    return f;
}

}  // namespace libreyolo::models::dfine_network
