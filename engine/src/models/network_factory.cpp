#include "models/network_factory.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "models/common/attention_policy.h"
#include "models/rtdetr/rtdetr.h"
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

bool has_key_with(const std::map<std::string, torch::Tensor>& w, const std::string& prefix,
                  const std::string& infix = "") {
    for (const auto& [key, tensor] : w)
        if (key.rfind(prefix, 0) == 0 && key.find(infix, prefix.size()) != std::string::npos) return true;
    return false;
}

// LibreYOLO's LibreRTDETR.can_load: a PResNet backbone with both input projections.
bool looks_like_rtdetr(const std::map<std::string, torch::Tensor>& w) {
    return has_key_with(w, "backbone.res_layers.") && has_key_with(w, "encoder.input_proj.") &&
           has_key_with(w, "decoder.input_proj.");
}

// LibreYOLO's LibreRTDETR.detect_size for its PResNet sizes: basic blocks are r18 (2 in the first
// stage) or r34 (3); bottlenecks (branch2c) are r101 (more than 6 blocks in the third stage), r50m
// (encoder expansion 0.5: 128 channels in the first CSP layer) or r50.
std::string detect_rtdetr_size(const std::map<std::string, torch::Tensor>& w) {
    if (!has_key_with(w, "backbone.res_layers.", ".branch2c."))
        return has_key_with(w, "backbone.res_layers.0.blocks.2.") ? "r34" : "r18";
    if (has_key_with(w, "backbone.res_layers.2.blocks.6.")) return "r101";
    return dim0(w, "encoder.fpn_blocks.0.conv1.conv.weight") == 128 ? "r50m" : "r50";
}

NetworkSpec infer_rtdetr_spec(const std::map<std::string, torch::Tensor>& weights, const io::CheckpointMeta& meta,
                              const std::string& source, NetworkSpec spec) {
    if (!looks_like_rtdetr(weights))
        throw FormatError(source +
                          ": model_family is rtdetr but the weights have no backbone.res_layers / "
                          "encoder.input_proj / decoder.input_proj (a PResNet RT-DETR)");
    const std::string detected = detect_rtdetr_size(weights);
    spec.name.size = meta.size.empty() ? detected : meta.size;
    if (detected != spec.name.size)
        throw FormatError(source + ": checkpoint field size='" + spec.name.size + "' but the weights are rtdetr-" +
                          detected);
    const int64_t nc_from_weights = dim0(weights, "decoder.enc_score_head.weight");
    if (nc_from_weights <= 0) throw FormatError(source + ": no decoder.enc_score_head.weight to tell the class count");
    if (meta.nc > 0 && meta.nc != nc_from_weights)
        log_warning("weights", source + ": field nc=" + std::to_string(meta.nc) + " but the class head has " +
                                   std::to_string(nc_from_weights) + " outputs; using the weights");
    spec.nc = nc_from_weights;
    return spec;
}

}  // namespace

Detector build_network(const NetworkSpec& spec) {
    const FamilyTraits& traits = family_traits(spec.name.family);
    if (std::find(traits.tasks.begin(), traits.tasks.end(), spec.name.task) == traits.tasks.end())
        throw UnknownModel("model family " + traits.family + " has no task '" + spec.name.task + "'");
    Detector net;
    if (spec.name.family == "yolo9")
        net = std::make_shared<yolo9::YOLO9Impl>(spec.name.size, spec.nc, spec.class_hidden);
    else if (spec.name.family == "rtdetr")
        net = std::make_shared<rtdetr::RTDETRModelImpl>(spec.name.size, spec.nc);
    else
        throw UnknownModel("no network builder for family '" + spec.name.family + "'");
    set_fused_attention(*net, traits.fused_attention_default);
    return net;
}

NetworkSpec infer_network_spec(const std::map<std::string, torch::Tensor>& weights, const io::CheckpointMeta& meta,
                               const std::string& source) {
    NetworkSpec spec;
    if (!meta.model_family.empty())
        spec.name.family = canonical_family(meta.model_family);
    else
        spec.name.family = looks_like_rtdetr(weights) ? "rtdetr" : "yolo9";
    const FamilyTraits& traits = family_traits(spec.name.family);
    spec.name.task = meta.task.empty() ? traits.tasks.front() : meta.task;
    if (spec.name.family == "rtdetr") return infer_rtdetr_spec(weights, meta, source, spec);

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
