#include "models/yolox/loss.h"

#include <algorithm>

namespace libreyolo::models::yolox {

namespace F = torch::nn::functional;
using torch::indexing::None;
using torch::indexing::Slice;

namespace {

torch::Tensor xy(const torch::Tensor& b) {
    return b.index({Slice(), Slice(0, 2)});
}
torch::Tensor wh(const torch::Tensor& b) {
    return b.index({Slice(), Slice(2, 4)});
}

// LibreYOLO's bboxes_iou(a, b, xyxy=False): (G, A) IoU of cx, cy, w, h boxes.
torch::Tensor pairwise_iou(const torch::Tensor& a, const torch::Tensor& b) {
    const torch::Tensor a_xy = xy(a).unsqueeze(1), a_wh = wh(a).unsqueeze(1);
    const torch::Tensor tl = torch::max(a_xy - a_wh / 2, xy(b) - wh(b) / 2);
    const torch::Tensor br = torch::min(a_xy + a_wh / 2, xy(b) + wh(b) / 2);
    const torch::Tensor area_a = wh(a).prod(1), area_b = wh(b).prod(1);
    const torch::Tensor inside = (tl < br).to(tl.dtype()).prod(2);
    const torch::Tensor area_i = (br - tl).prod(2) * inside;
    return area_i / (area_a.unsqueeze(1) + area_b - area_i);
}

// LibreYOLO's IoULoss(loss_type="iou"), reduction none: 1 − IoU² of matched cx, cy, w, h pairs.
torch::Tensor iou_loss(const torch::Tensor& pred, const torch::Tensor& target) {
    const torch::Tensor tl = torch::max(xy(pred) - wh(pred) / 2, xy(target) - wh(target) / 2);
    const torch::Tensor br = torch::min(xy(pred) + wh(pred) / 2, xy(target) + wh(target) / 2);
    const torch::Tensor area_p = wh(pred).prod(1), area_g = wh(target).prod(1);
    const torch::Tensor inside = (tl < br).to(tl.dtype()).prod(1);
    const torch::Tensor area_i = (br - tl).prod(1) * inside;
    const torch::Tensor iou = area_i / (area_p + area_g - area_i + 1e-16);
    return 1 - iou.pow(2);
}

// LibreYOLO's get_geometry_constraint: which anchors have their centre within 1.5 strides of
// some box's centre (the candidates), and for those, which boxes (G, candidates).
std::pair<torch::Tensor, torch::Tensor> centre_prior(const torch::Tensor& gt_boxes, const torch::Tensor& x_shifts,
                                                     const torch::Tensor& y_shifts, const torch::Tensor& strides) {
    const torch::Tensor x_centres = ((x_shifts + 0.5) * strides).unsqueeze(0);
    const torch::Tensor y_centres = ((y_shifts + 0.5) * strides).unsqueeze(0);
    const torch::Tensor radius = strides.unsqueeze(0) * 1.5;
    const torch::Tensor gx = gt_boxes.index({Slice(), Slice(0, 1)}), gy = gt_boxes.index({Slice(), Slice(1, 2)});
    const torch::Tensor deltas = torch::stack(
        {x_centres - (gx - radius), y_centres - (gy - radius), (gx + radius) - x_centres, (gy + radius) - y_centres},
        2);
    const torch::Tensor in_centre = std::get<0>(deltas.min(-1)) > 0.0;
    const torch::Tensor candidates = in_centre.sum(0) > 0;
    return {candidates, in_centre.index({Slice(), candidates})};
}

// LibreYOLO's simota_matching: (G, C) cost and IoUs of the candidates → which candidates are
// positive and the box each takes.
struct Matching {
    torch::Tensor matched;     // (C) bool
    torch::Tensor matched_gt;  // (P)
    torch::Tensor matched_iou;
};
Matching simota_matching(const torch::Tensor& cost, const torch::Tensor& ious) {
    torch::Tensor matching = torch::zeros_like(cost, torch::kUInt8);
    const int64_t candidates_k = std::min<int64_t>(10, ious.size(1));
    const torch::Tensor dynamic_ks = std::get<0>(ious.topk(candidates_k, 1)).sum(1).to(torch::kInt).clamp_min(1);
    const auto ks = dynamic_ks.to(torch::kCPU);
    for (int64_t g = 0; g < cost.size(0); ++g) {
        const torch::Tensor picked = std::get<1>(cost[g].topk(ks[g].item<int>(), -1, /*largest=*/false));
        matching[g].index_put_({picked}, 1);
    }
    const torch::Tensor claims = matching.sum(0);
    if (claims.max().item<int64_t>() > 1) {
        const torch::Tensor contested = claims > 1;
        const torch::Tensor cheapest = std::get<1>(cost.index({Slice(), contested}).min(0));
        matching.index_put_({Slice(), contested}, 0);
        matching.index_put_({cheapest, contested.nonzero().view(-1)}, 1);
    }
    Matching m;
    m.matched = claims > 0;
    const torch::Tensor kept = matching.index({Slice(), m.matched});
    m.matched_gt = kept.argmax(0);
    m.matched_iou = (matching * ious).sum(0).index({m.matched});
    return m;
}

}  // namespace

SimOtaAssignment simota_assign(const torch::Tensor& gt_boxes, const torch::Tensor& gt_classes,
                               const torch::Tensor& pred_boxes, const torch::Tensor& cls_logits,
                               const torch::Tensor& obj_logits, const torch::Tensor& x_shifts,
                               const torch::Tensor& y_shifts, const torch::Tensor& strides, int64_t nc) {
    torch::NoGradGuard no_grad;
    auto [positive, in_centre] = centre_prior(gt_boxes, x_shifts, y_shifts, strides);
    SimOtaAssignment a;
    const torch::Tensor boxes = pred_boxes.index({positive});
    if (boxes.size(0) == 0) {
        a.positive = positive;
        a.matched_gt = torch::zeros({0}, gt_classes.options().dtype(torch::kLong));
        a.matched_class = gt_classes.new_zeros({0});
        a.matched_iou = torch::zeros({0}, gt_classes.options().dtype(torch::kFloat));
        return a;
    }
    const int64_t num_gt = gt_boxes.size(0), candidates = boxes.size(0);
    const torch::Tensor ious = pairwise_iou(gt_boxes, boxes);
    const torch::Tensor gt_onehot = F::one_hot(gt_classes.to(torch::kLong), nc).to(torch::kFloat);
    const torch::Tensor iou_cost = -torch::log(ious + 1e-8);
    // In float32 whatever the forward's precision (LibreYOLO disables autocast here).
    const torch::Tensor joint = (cls_logits.index({positive}).to(torch::kFloat).sigmoid() *
                                 obj_logits.index({positive}).to(torch::kFloat).sigmoid())
                                    .sqrt();
    const torch::Tensor cls_cost = F::binary_cross_entropy(joint.unsqueeze(0).repeat({num_gt, 1, 1}),
                                                           gt_onehot.unsqueeze(1).repeat({1, candidates, 1}),
                                                           F::BinaryCrossEntropyFuncOptions().reduction(torch::kNone))
                                       .sum(-1);
    const torch::Tensor cost = cls_cost + 3.0 * iou_cost + 1e6 * in_centre.logical_not();
    const Matching m = simota_matching(cost, ious);
    a.positives = m.matched.sum().item<int64_t>();
    a.positive = positive.clone();
    a.positive.index_put_({positive}, m.matched);
    a.matched_gt = m.matched_gt;
    a.matched_class = gt_classes.index({m.matched_gt});
    a.matched_iou = m.matched_iou;
    return a;
}

LossParts YOLOXLoss::operator()(const TrainMaps& maps, const torch::Tensor& labels, bool use_l1) const {
    const torch::Tensor& outputs = maps.outputs;
    const torch::Tensor box_preds = outputs.index({Slice(), Slice(), Slice(0, 4)});
    const torch::Tensor obj_preds = outputs.index({Slice(), Slice(), Slice(4, 5)});
    const torch::Tensor cls_preds = outputs.index({Slice(), Slice(), Slice(5, None)});
    const int64_t batch = outputs.size(0), anchors = outputs.size(1);
    const torch::Tensor counts = (labels.sum(2) > 0).sum(1).to(torch::kCPU);
    const torch::Tensor xs = maps.x_shifts[0], ys = maps.y_shifts[0], strides = maps.strides[0];

    std::vector<torch::Tensor> cls_targets, box_targets, l1_targets, obj_targets, positives;
    int64_t total_positives = 0, total_boxes = 0;
    for (int64_t b = 0; b < batch; ++b) {
        const int64_t num_gt = counts[b].item<int64_t>();
        total_boxes += num_gt;
        if (num_gt == 0) {
            obj_targets.push_back(outputs.new_zeros({anchors, 1}));
            positives.push_back(torch::zeros({anchors}, outputs.options().dtype(torch::kBool)));
            continue;
        }
        const torch::Tensor gt_boxes = labels.index({b, Slice(0, num_gt), Slice(1, 5)});
        const torch::Tensor gt_classes = labels.index({b, Slice(0, num_gt), 0});
        const SimOtaAssignment a =
            simota_assign(gt_boxes, gt_classes, box_preds[b], cls_preds[b], obj_preds[b], xs, ys, strides, nc_);
        total_positives += a.positives;
        cls_targets.push_back(F::one_hot(a.matched_class.to(torch::kLong), nc_) * a.matched_iou.unsqueeze(-1));
        obj_targets.push_back(a.positive.unsqueeze(-1).to(outputs.dtype()));
        const torch::Tensor matched_boxes = gt_boxes.index({a.matched_gt});
        box_targets.push_back(matched_boxes);
        positives.push_back(a.positive);
        if (use_l1) {
            // LibreYOLO's get_l1_target: the regression that would decode to the box.
            const torch::Tensor s = strides.index({a.positive});
            l1_targets.push_back(torch::stack(
                {matched_boxes.select(1, 0) / s - xs.index({a.positive}),
                 matched_boxes.select(1, 1) / s - ys.index({a.positive}),
                 torch::log(matched_boxes.select(1, 2) / s + 1e-8), torch::log(matched_boxes.select(1, 3) / s + 1e-8)},
                1));
        }
    }
    const torch::Tensor positive = torch::cat(positives, 0);
    torch::Tensor norm = torch::tensor(static_cast<double>(total_positives), outputs.options().dtype(torch::kFloat));
    if (global_positive_sum) norm = global_positive_sum(norm);
    norm = norm.clamp_min(1.0);

    const auto bce = F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kNone);
    const auto flat = [&](const torch::Tensor& t, int64_t width) { return t.reshape({-1, width}).index({positive}); };
    const auto cat_or_empty = [&](const std::vector<torch::Tensor>& parts, int64_t width) {
        return parts.empty() ? outputs.new_zeros({0, width}) : torch::cat(parts, 0);
    };
    LossParts p;
    p.iou = 5.0 * (iou_loss(flat(box_preds, 4), cat_or_empty(box_targets, 4)).sum() / norm);
    p.obj =
        F::binary_cross_entropy_with_logits(obj_preds.reshape({-1, 1}), torch::cat(obj_targets, 0), bce).sum() / norm;
    p.cls = F::binary_cross_entropy_with_logits(flat(cls_preds, nc_),
                                                cat_or_empty(cls_targets, nc_).to(outputs.dtype()), bce)
                .sum() /
            norm;
    p.l1 = use_l1 ? torch::abs(flat(maps.raw_box, 4) - cat_or_empty(l1_targets, 4)).sum() / norm
                  : torch::zeros({}, outputs.options());
    p.total = p.iou + p.obj + p.cls + p.l1;
    p.positives_per_box = static_cast<double>(total_positives) / static_cast<double>(std::max<int64_t>(total_boxes, 1));
    return p;
}

}  // namespace libreyolo::models::yolox
