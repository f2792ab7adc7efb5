#include "models/rtdetr/criterion.h"

#include "models/detr_box_ops.h"

namespace libreyolo::models::rtdetr {
namespace F = torch::nn::functional;
namespace {

constexpr double kWeightVfl = 1, kWeightBbox = 5, kWeightGiou = 2;

}  // namespace

std::map<std::string, torch::Tensor> RTDETRCriterion::level_losses(const DecoderOutput& level,
                                                                   const std::vector<DetrTarget>& targets,
                                                                   const std::vector<MatchedPairs>& matched,
                                                                   const torch::Tensor& num_boxes) const {
    const auto [batch_idx, query_idx] = matched_queries(matched);
    const torch::Tensor src_boxes = level.boxes.index({batch_idx, query_idx});
    const torch::Tensor target_boxes = matched_targets(targets, matched, false);
    std::map<std::string, torch::Tensor> out;

    // Varifocal: the matched class's target is the (detached) IoU of the matched box.
    const torch::Tensor& logits = level.logits;
    torch::Tensor ious = torch::zeros({0}, src_boxes.options());
    if (target_boxes.size(0) > 0)
        ious = torch::diag(box_iou(cxcywh_to_xyxy(src_boxes), cxcywh_to_xyxy(target_boxes)).iou).detach();
    torch::Tensor target_classes =
        torch::full({logits.size(0), logits.size(1)}, num_classes_, logits.options().dtype(torch::kLong));
    target_classes.index_put_({batch_idx, query_idx}, matched_targets(targets, matched, true));
    const torch::Tensor target = F::one_hot(target_classes, num_classes_ + 1).narrow(-1, 0, num_classes_);
    torch::Tensor target_score_o = torch::zeros_like(target_classes, logits.options());
    if (ious.size(0) > 0) target_score_o.index_put_({batch_idx, query_idx}, ious.to(logits.scalar_type()));
    const torch::Tensor target_score = target_score_o.unsqueeze(-1) * target;
    const torch::Tensor pred_score = torch::sigmoid(logits).detach();
    const torch::Tensor weight = alpha_ * pred_score.pow(gamma_) * (1 - target) + target_score;
    const torch::Tensor vfl = F::binary_cross_entropy_with_logits(
        logits, target_score, F::BinaryCrossEntropyWithLogitsFuncOptions().weight(weight).reduction(torch::kNone));
    out["loss_vfl"] = kWeightVfl * (vfl.mean(1).sum() * static_cast<double>(logits.size(1)) / num_boxes);

    if (target_boxes.size(0) == 0) {
        out["loss_bbox"] = kWeightBbox * (src_boxes.sum() * 0);
        out["loss_giou"] = kWeightGiou * (src_boxes.sum() * 0);
        return out;
    }
    out["loss_bbox"] =
        kWeightBbox * (F::l1_loss(src_boxes, target_boxes, F::L1LossFuncOptions(torch::kNone)).sum() / num_boxes);
    const torch::Tensor giou =
        1 - torch::diag(generalized_box_iou(cxcywh_to_xyxy(src_boxes), cxcywh_to_xyxy(target_boxes)));
    out["loss_giou"] = kWeightGiou * (giou.sum() / num_boxes);
    return out;
}

LossTerms RTDETRCriterion::operator()(const TrainingOutput& raw, const std::vector<DetrTarget>& targets) const {
    // Float32 whatever the forward's precision (AMP), as LibreYOLO.
    const auto f32 = [](const DecoderOutput& o) {
        return DecoderOutput{o.logits.to(torch::kFloat32), o.boxes.to(torch::kFloat32)};
    };
    std::vector<DecoderOutput> levels = {f32(raw.main)};
    for (const auto& a : raw.aux) levels.push_back(f32(a));

    LossTerms out;
    const torch::Device device = raw.main.logits.device();
    int64_t count = 0;
    for (const auto& t : targets) count += t.labels.size(0);
    torch::Tensor num_boxes = torch::full({}, static_cast<double>(count), torch::TensorOptions().device(device));
    if (global_target_count) num_boxes = global_target_count(num_boxes);
    num_boxes = num_boxes.clamp_min(1.0);

    const auto add = [&](const std::map<std::string, torch::Tensor>& terms, const std::string& suffix) {
        for (const auto& [name, value] : terms) out.terms[name + suffix] = value;
    };
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::vector<MatchedPairs> matched = hungarian_match(levels[i].logits, levels[i].boxes, targets);
        if (i == 0) out.matched = matched;
        add(level_losses(levels[i], targets, matched, num_boxes), i == 0 ? "" : "_aux_" + std::to_string(i - 1));
    }
    if (raw.group) {
        const std::vector<MatchedPairs> pairs = denoising_pairs(*raw.group, targets);
        const torch::Tensor num_boxes_dn = num_boxes * static_cast<double>(raw.group->groups);
        for (std::size_t i = 0; i < raw.denoising.size(); ++i)
            add(level_losses(f32(raw.denoising[i]), targets, pairs, num_boxes_dn), "_dn_" + std::to_string(i));
    }
    const auto sum_of = [&](const std::string& prefix) {
        torch::Tensor s = torch::zeros({}, torch::TensorOptions().device(device));
        for (const auto& [name, value] : out.terms)
            if (name == prefix || name.rfind(prefix + "_", 0) == 0) s = s + value;
        return s;
    };
    out.vfl = sum_of("loss_vfl");
    out.bbox = sum_of("loss_bbox");
    out.giou = sum_of("loss_giou");
    out.total = out.vfl + out.bbox + out.giou;
    return out;
}

}  // namespace libreyolo::models::rtdetr
