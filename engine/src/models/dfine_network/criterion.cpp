#include "models/dfine_network/criterion.h"

#include <cmath>
#include <optional>
#include <unordered_set>

#include "models/detr_box_ops.h"
#include "models/dfine_network/fdr.h"

namespace libreyolo::models::dfine_network {
namespace F = torch::nn::functional;
namespace {

constexpr double kWeightClass = 1, kWeightBbox = 5, kWeightGiou = 2, kWeightFgl = 0.15, kWeightDdf = 1.5;
constexpr double kDistillTemperature = 5;

// The losses run in float32 under AMP (half outputs) and in the outputs' precision otherwise.
torch::Tensor at_least_float32(const torch::Tensor& t) {
    if (!t.defined()) return t;
    return t.scalar_type() == torch::kHalf || t.scalar_type() == torch::kBFloat16 ? t.to(torch::kFloat32) : t;
}

torch::Tensor matched_ious(const torch::Tensor& src_boxes, const torch::Tensor& target_boxes) {
    if (target_boxes.size(0) == 0) return torch::zeros({0}, src_boxes.options());
    return torch::diag(box_iou(cxcywh_to_xyxy(src_boxes), cxcywh_to_xyxy(target_boxes)).iou);
}

// LibreYOLO's unimodal_distribution_focal_loss: cross-entropy of each edge distribution against its
// two neighbouring bins, weighted by their shares and the box's IoU, summed over avg_factor.
torch::Tensor unimodal_distribution_focal_loss(const torch::Tensor& pred, const DistanceTargets& t,
                                               const torch::Tensor& weight, const torch::Tensor& avg_factor) {
    const torch::Tensor left = t.bins.to(torch::kLong), right = left + 1;
    const auto none = F::CrossEntropyFuncOptions().reduction(torch::kNone);
    torch::Tensor loss = F::cross_entropy(pred, left, none) * t.weight_left.reshape(-1) +
                         F::cross_entropy(pred, right, none) * t.weight_right.reshape(-1);
    loss = loss * weight.to(torch::kFloat32);
    return loss.sum() / avg_factor;
}

}  // namespace

// One output level as the loss reads it; corners, references and the teacher are undefined where
// the level has none (pre-boxes, the query selection).
struct DFINECriterion::Level {
    torch::Tensor logits, boxes, corners, references, teacher_corners, teacher_logits;
    bool denoising = false;
};

// What LibreYOLO's criterion keeps between levels: the localisation targets (computed at the
// first level of each kind from its references, which every layer shares) and DDF's balance of
// matched and unmatched queries (from the last matching level, reused by the denoising levels).
struct DFINECriterion::Cache {
    std::optional<DistanceTargets> targets, denoising_targets;
    torch::Tensor num_pos, num_neg;
};

std::vector<MatchedPairs> union_of_matches(const std::vector<std::vector<MatchedPairs>>& levels) {
    const std::size_t images = levels.front().size();
    std::vector<torch::Tensor> rows;
    for (std::size_t i = 0; i < images; ++i)
        for (const auto& level : levels) {
            const torch::Tensor& q = level[i].queries;
            rows.push_back(torch::stack({torch::full_like(q, static_cast<int64_t>(i)), q, level[i].targets}, 1));
        }
    const torch::Tensor all = torch::cat(rows);
    const auto on = levels.front().front().queries.options();
    std::vector<MatchedPairs> out;
    if (all.size(0) == 0) {
        for (std::size_t i = 0; i < images; ++i) out.push_back({torch::zeros({0}, on), torch::zeros({0}, on)});
        return out;
    }
    // The same operations as LibreYOLO's (one unique over the batch, then per image a descending
    // argsort of the counts), so that ties between partners resolve the same way.
    const auto [unique, inverse, counts] = torch::unique_dim(all.cpu(), 0, /*sorted=*/true, false, true);
    const torch::Tensor sizes = torch::bincount(unique.select(1, 0), {}, static_cast<int64_t>(images));
    int64_t offset = 0;
    for (std::size_t i = 0; i < images; ++i) {
        const int64_t size = sizes[static_cast<int64_t>(i)].item<int64_t>();
        const torch::Tensor order = torch::argsort(counts.narrow(0, offset, size), 0, /*descending=*/true);
        const torch::Tensor pairs = unique.narrow(0, offset, size).narrow(1, 1, 2).index_select(0, order).contiguous();
        offset += size;
        std::vector<int64_t> queries, targets;
        std::unordered_set<int64_t> seen;
        const int64_t* p = pairs.data_ptr<int64_t>();
        for (int64_t k = 0; k < size; ++k)
            if (seen.insert(p[2 * k]).second) {
                queries.push_back(p[2 * k]);
                targets.push_back(p[2 * k + 1]);
            }
        out.push_back({torch::tensor(queries, torch::kLong).to(on.device()),
                       torch::tensor(targets, torch::kLong).to(on.device())});
    }
    return out;
}

DFINECriterion::DFINECriterion(Variant variant, int64_t num_classes, int64_t reg_max)
    : variant_(variant), num_classes_(num_classes), reg_max_(reg_max) {
    matcher_.nan_cost = 1.0;
}

std::vector<std::string> DFINECriterion::component_names() const {
    return {variant_ == Variant::DEIM ? "mal" : "vfl", "bbox", "giou", "fgl", "ddf"};
}

torch::Tensor DFINECriterion::class_loss(const Level& level, const std::vector<DetrTarget>& targets,
                                         const std::vector<MatchedPairs>& matched,
                                         const torch::Tensor& num_boxes) const {
    const auto [batch_idx, query_idx] = matched_queries(matched);
    const torch::Tensor& logits = level.logits;
    const torch::Tensor ious =
        matched_ious(level.boxes.index({batch_idx, query_idx}), matched_targets(targets, matched, false)).detach();
    torch::Tensor target_classes =
        torch::full({logits.size(0), logits.size(1)}, num_classes_, logits.options().dtype(torch::kLong));
    target_classes.index_put_({batch_idx, query_idx}, matched_targets(targets, matched, true));
    const torch::Tensor target = F::one_hot(target_classes, num_classes_ + 1).narrow(-1, 0, num_classes_);
    torch::Tensor target_score_o = torch::zeros_like(target_classes, logits.options());
    target_score_o.index_put_({batch_idx, query_idx}, ious.to(logits.scalar_type()));
    torch::Tensor target_score = target_score_o.unsqueeze(-1) * target;
    const torch::Tensor pred_score = torch::sigmoid(logits).detach();
    torch::Tensor weight;
    if (variant_ == Variant::DEIM) {  // MAL, LibreYOLO's mal_alpha None
        constexpr double gamma = 1.5;
        target_score = target_score.pow(gamma);
        weight = pred_score.pow(gamma) * (1 - target) + target;
    } else {  // VFL
        constexpr double alpha = 0.75, gamma = 2;
        weight = alpha * pred_score.pow(gamma) * (1 - target) + target_score;
    }
    const torch::Tensor loss = F::binary_cross_entropy_with_logits(
        logits, target_score, F::BinaryCrossEntropyWithLogitsFuncOptions().weight(weight).reduction(torch::kNone));
    return loss.mean(1).sum() * static_cast<double>(logits.size(1)) / num_boxes;
}

DFINECriterion::Terms DFINECriterion::box_losses(const Level& level, const std::vector<DetrTarget>& targets,
                                                 const std::vector<MatchedPairs>& matched,
                                                 const torch::Tensor& num_boxes) const {
    const auto [batch_idx, query_idx] = matched_queries(matched);
    const torch::Tensor src = level.boxes.index({batch_idx, query_idx});
    const torch::Tensor target = matched_targets(targets, matched, false);
    if (target.size(0) == 0) return {{"loss_bbox", src.sum() * 0}, {"loss_giou", src.sum() * 0}};
    const torch::Tensor giou = 1 - torch::diag(generalized_box_iou(cxcywh_to_xyxy(src), cxcywh_to_xyxy(target)));
    return {{"loss_bbox", F::l1_loss(src, target, F::L1LossFuncOptions(torch::kNone)).sum() / num_boxes},
            {"loss_giou", giou.sum() / num_boxes}};
}

DFINECriterion::Terms DFINECriterion::local_losses(const Level& level, const std::vector<DetrTarget>& targets,
                                                   const std::vector<MatchedPairs>& matched,
                                                   const torch::Tensor& num_boxes, const torch::Tensor& up,
                                                   const torch::Tensor& reg_scale, Cache& cache) const {
    Terms out;
    if (!level.corners.defined()) return out;
    const int64_t bins = reg_max_ + 1;
    const auto [batch_idx, query_idx] = matched_queries(matched);
    const torch::Tensor target_boxes = matched_targets(targets, matched, false);
    const torch::Tensor pred = level.corners.index({batch_idx, query_idx}).reshape({-1, bins});
    std::optional<DistanceTargets>& fine = level.denoising ? cache.denoising_targets : cache.targets;
    if (!fine)
        fine = box_to_distance(level.references.index({batch_idx, query_idx}).detach(), cxcywh_to_xyxy(target_boxes),
                               reg_max_, reg_scale, up);
    const torch::Tensor ious = matched_ious(level.boxes.index({batch_idx, query_idx}), target_boxes);
    const torch::Tensor iou_weight = ious.unsqueeze(-1).repeat({1, 1, 4}).reshape(-1).detach();
    out["loss_fgl"] = unimodal_distribution_focal_loss(pred, *fine, iou_weight, num_boxes);

    if (!level.teacher_corners.defined()) return out;
    const torch::Tensor all = level.corners.reshape({-1, bins});
    const torch::Tensor teacher = level.teacher_corners.reshape({-1, bins});
    if (torch::equal(all, teacher)) {
        out["loss_ddf"] = all.sum() * 0;
        return out;
    }
    torch::Tensor weight = std::get<0>(torch::sigmoid(level.teacher_logits.detach()).max(-1)).clone();
    torch::Tensor mask = torch::zeros_like(weight, weight.options().dtype(torch::kBool));
    mask.index_put_({batch_idx, query_idx}, true);
    mask = mask.unsqueeze(-1).repeat({1, 1, 4}).reshape(-1);
    weight.index_put_({batch_idx, query_idx}, ious.detach().to(weight.scalar_type()));
    weight = weight.unsqueeze(-1).repeat({1, 1, 4}).reshape(-1);
    constexpr double T = kDistillTemperature;
    const torch::Tensor divergence =
        F::kl_div(F::log_softmax(all / T, F::LogSoftmaxFuncOptions(1)),
                  F::softmax(teacher.detach() / T, F::SoftmaxFuncOptions(1)), F::KLDivFuncOptions(torch::kNone));
    const torch::Tensor loss = weight * (T * T) * divergence.sum(-1);
    if (!level.denoising) {
        // LibreYOLO scales the counts to a batch of 8 and balances by their square roots.
        const double batch_scale = 8.0 / static_cast<double>(level.boxes.size(0));
        cache.num_pos = (mask.sum() * batch_scale).to(torch::kFloat32).pow(0.5);
        cache.num_neg = ((~mask).sum() * batch_scale).to(torch::kFloat32).pow(0.5);
    }
    const torch::Tensor zero = torch::zeros({}, loss.options());
    const torch::Tensor matched_part = mask.any().item<bool>() ? loss.index({mask}).mean() : zero;
    const torch::Tensor unmatched_part = (~mask).any().item<bool>() ? loss.index({~mask}).mean() : zero;
    out["loss_ddf"] = (matched_part * cache.num_pos + unmatched_part * cache.num_neg) / (cache.num_pos + cache.num_neg);
    return out;
}

LossTerms DFINECriterion::operator()(const TrainingOutput& raw, const std::vector<DetrTarget>& targets,
                                     const torch::Tensor& up, const torch::Tensor& reg_scale) const {
    const auto layer_level = [](const LayerOutput& l, const LayerOutput* teacher, bool denoising) {
        Level level;
        level.logits = at_least_float32(l.logits);
        level.boxes = at_least_float32(l.boxes);
        level.corners = at_least_float32(l.corners);
        level.references = at_least_float32(l.references);
        if (teacher) {
            level.teacher_corners = at_least_float32(teacher->corners);
            level.teacher_logits = at_least_float32(teacher->logits);
        }
        level.denoising = denoising;
        return level;
    };
    const auto plain_level = [](const DecoderOutput& o, bool denoising) {
        Level level;
        level.logits = at_least_float32(o.logits);
        level.boxes = at_least_float32(o.boxes);
        level.denoising = denoising;
        return level;
    };
    const std::size_t layers = raw.layers.size();
    const LayerOutput& last = raw.layers.back();
    const Level main = layer_level(last, nullptr, false);
    std::vector<Level> aux;
    for (std::size_t i = 0; i + 1 < layers; ++i) aux.push_back(layer_level(raw.layers[i], &last, false));
    const Level pre = plain_level(raw.pre, false);
    const Level encoder = plain_level(raw.encoder_top, false);

    const auto match = [&](const Level& l) { return hungarian_match(l.logits, l.boxes, targets, matcher_); };
    LossTerms out;
    out.matched = match(main);
    std::vector<std::vector<MatchedPairs>> aux_matched;
    for (const Level& l : aux) aux_matched.push_back(match(l));
    const std::vector<MatchedPairs> pre_matched = match(pre), encoder_matched = match(encoder);
    std::vector<std::vector<MatchedPairs>> every{out.matched};
    every.insert(every.end(), aux_matched.begin(), aux_matched.end());
    every.push_back(pre_matched);
    every.push_back(encoder_matched);
    out.union_matched = union_of_matches(every);

    const torch::Device device = main.logits.device();
    const auto normaliser = [&](int64_t count) {
        torch::Tensor n =
            torch::full({}, static_cast<double>(count), torch::TensorOptions().device(device).dtype(torch::kFloat32));
        if (global_target_count) n = global_target_count(n);
        return n.clamp_min(1.0);
    };
    int64_t truth = 0, union_count = 0;
    for (const auto& t : targets) truth += t.labels.size(0);
    for (const auto& m : out.union_matched) union_count += m.queries.size(0);
    const torch::Tensor num_boxes = normaliser(truth), num_boxes_union = normaliser(union_count);

    const std::string class_key = variant_ == Variant::DEIM ? "loss_mal" : "loss_vfl";
    Cache cache;
    const auto add = [&](const Terms& terms, const std::string& suffix) {
        for (const auto& [name, value] : terms) out.terms[name + suffix] = value;
    };
    const auto level_terms = [&](const Level& level, const std::vector<MatchedPairs>& class_matched,
                                 const std::vector<MatchedPairs>& box_matched, const torch::Tensor& class_count,
                                 const torch::Tensor& box_count, const std::string& suffix) {
        Terms t{{class_key, kWeightClass * class_loss(level, targets, class_matched, class_count)}};
        for (const auto& [name, value] : box_losses(level, targets, box_matched, box_count))
            t[name] = (name == "loss_bbox" ? kWeightBbox : kWeightGiou) * value;
        for (const auto& [name, value] : local_losses(level, targets, box_matched, box_count, up, reg_scale, cache))
            t[name] = (name == "loss_fgl" ? kWeightFgl : kWeightDdf) * value;
        add(t, suffix);
    };
    level_terms(main, out.matched, out.union_matched, num_boxes, num_boxes_union, "");
    for (std::size_t i = 0; i < aux.size(); ++i)
        level_terms(aux[i], aux_matched[i], out.union_matched, num_boxes, num_boxes_union, "_aux_" + std::to_string(i));
    level_terms(pre, pre_matched, out.union_matched, num_boxes, num_boxes_union, "_pre");
    level_terms(encoder, encoder_matched, out.union_matched, num_boxes, num_boxes_union, "_enc_0");

    if (raw.group) {
        const std::vector<MatchedPairs> pairs = denoising_pairs(*raw.group, targets);
        const torch::Tensor num_boxes_dn = num_boxes * static_cast<double>(raw.group->groups);
        const LayerOutput& teacher = raw.denoising_layers.back();
        for (std::size_t i = 0; i < raw.denoising_layers.size(); ++i)
            level_terms(layer_level(raw.denoising_layers[i], &teacher, true), pairs, pairs, num_boxes_dn, num_boxes_dn,
                        "_dn_" + std::to_string(i));
        level_terms(plain_level(raw.denoising_pre, true), pairs, pairs, num_boxes_dn, num_boxes_dn, "_dn_pre");
    }

    for (auto& [name, value] : out.terms) value = torch::nan_to_num(value, 0.0);
    torch::Tensor total = torch::zeros({}, torch::TensorOptions().device(device).dtype(main.logits.scalar_type()));
    for (const std::string& kind : component_names()) {
        const std::string prefix = kind == "vfl" || kind == "mal" ? class_key : "loss_" + kind;
        torch::Tensor sum = torch::zeros_like(total);
        for (const auto& [name, value] : out.terms)
            if (name == prefix || name.rfind(prefix + "_", 0) == 0) sum = sum + value;
        out.components.push_back(sum);
        total = total + sum;
    }
    out.total = total;
    return out;
}

}  // namespace libreyolo::models::dfine_network
