#include "models/network_factory.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "models/common/attention_policy.h"
#include "models/yolo9/yolo9.h"

namespace libreyolo::models {
namespace {

int64_t dim0(const std::map<std::string, torch::Tensor>& w, const std::string& key) {
    auto it = w.find(key);
    return it == w.end() || it->second.dim() == 0 ? -1 : it->second.size(0);
}

// LibreYOLO's LibreYOLO9.detect_size: the stem width tells t and c apart; s and m share a stem
// and differ in the first block.
std::string detect_yolo9_size(const std::map<std::string, torch::Tensor>& w) {
    switch (dim0(w, "backbone.conv0.conv.weight")) {
        case 16:
            return "t";
        case 64:
            return "c";
        case 32: {
            const int64_t mid = dim0(w, "backbone.elan1.cv1.conv.weight");
            if (mid == 64) return "s";
            if (mid == 128) return "m";
            return "";
        }
        default:
            return "";
    }
}

}  // namespace

Detector build_network(const NetworkSpec& spec) {
    const FamilyTraits& traits = family_traits(spec.name.family);
    if (std::find(traits.tasks.begin(), traits.tasks.end(), spec.name.task) == traits.tasks.end())
        throw UnknownModel("model family " + traits.family + " has no task '" + spec.name.task + "'");
    Detector net;
    if (spec.name.family == "yolo9")
        net = std::make_shared<yolo9::YOLO9Impl>(spec.name.size, spec.nc, spec.class_hidden);
    else
        throw UnknownModel("no network builder for family '" + spec.name.family + "'");
    set_fused_attention(*net, traits.fused_attention_default);
    return net;
}

NetworkSpec infer_network_spec(const std::map<std::string, torch::Tensor>& weights, const io::CheckpointMeta& meta,
                               const std::string& source) {
    NetworkSpec spec;
    spec.name.family = meta.model_family.empty() ? "yolo9" : meta.model_family;
    if (spec.name.family == "LibreYOLO9" || spec.name.family == "yolov9") spec.name.family = "yolo9";
    const FamilyTraits& traits = family_traits(spec.name.family);
    spec.name.task = meta.task.empty() ? traits.tasks.front() : meta.task;

    const std::string detected = spec.name.family == "yolo9" ? detect_yolo9_size(weights) : "";
    if (detected.empty() && meta.size.empty())
        throw FormatError(source +
                          ": cannot tell the model size: no 'size' field and no "
                          "backbone.conv0.conv.weight of a known width");
    spec.name.size = meta.size.empty() ? detected : meta.size;
    if (!detected.empty() && detected != spec.name.size)
        throw FormatError(source + ": checkpoint field size='" + spec.name.size + "' but the weights are " +
                          spec.name.family + "-" + detected);

    const int64_t nc_from_weights = dim0(weights, "head.cv3.0.2.weight");
    spec.nc = nc_from_weights > 0 ? nc_from_weights : meta.nc;
    if (spec.nc <= 0)
        throw FormatError(source + ": cannot tell the class count: no 'nc' field and no head.cv3.0.2.weight");
    if (meta.nc > 0 && nc_from_weights > 0 && meta.nc != nc_from_weights)
        log_warning("weights", source + ": field nc=" + std::to_string(meta.nc) + " but the class head has " +
                                   std::to_string(nc_from_weights) + " outputs; using the weights");
    // Fine-tuned checkpoints keep the source model's class-tower width (80 for COCO towers reused
    // at a new nc), which a fresh build at that nc would not reproduce.
    spec.class_hidden = std::max<int64_t>(0, dim0(weights, "head.cv3.0.0.conv.weight"));
    return spec;
}

std::int64_t count_parameters(const torch::nn::Module& module) {
    std::int64_t n = 0;
    for (const auto& p : module.parameters()) n += p.numel();
    return n;
}

}  // namespace libreyolo::models
