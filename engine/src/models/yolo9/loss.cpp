#include "models/yolo9/loss.h"

#include "nn/box_iou.h"

namespace libreyolo::models::yolo9 {

namespace F = torch::nn::functional;
using torch::indexing::Slice;

AnchorGrid make_anchor_grid(int width, int height, const std::vector<int64_t>& strides, const torch::Device& device) {
    std::vector<torch::Tensor> points, scale;
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32);
    for (int64_t stride : strides) {
        const int64_t count = width / stride * height / stride;
        scale.push_back(torch::full({count}, static_cast<double>(stride), f32));
        const int64_t shift = stride / 2;
        const torch::Tensor ys = torch::arange(0, height, stride, f32) + shift;
        const torch::Tensor xs = torch::arange(0, width, stride, f32) + shift;
        const auto grid = torch::meshgrid({ys, xs}, "ij");
        points.push_back(torch::stack({grid[1].flatten(), grid[0].flatten()}, -1));
    }
    return {torch::cat(points).to(device), torch::cat(scale).to(device), width, height};
}

LossInputs flatten_head_outputs(const std::vector<torch::Tensor>& raw, const AnchorGrid& grid, int64_t reg_max) {
    std::vector<torch::Tensor> cls, dist, ltrb;
    const int64_t box_channels = 4 * reg_max;
    for (const torch::Tensor& p : raw) {
        const int64_t b = p.size(0), h = p.size(2), w = p.size(3);
        cls.push_back(p.index({Slice(), Slice(box_channels)}).permute({0, 2, 3, 1}).reshape({b, h * w, -1}));
        const torch::Tensor d = p.index({Slice(), Slice(0, box_channels)})
                                    .view({b, 4, reg_max, h, w})
                                    .permute({0, 3, 4, 1, 2})
                                    .reshape({b, h * w, 4, reg_max});
        dist.push_back(d);
        const torch::Tensor project = torch::arange(reg_max, d.options()).view({1, 1, 1, -1});
        ltrb.push_back((torch::softmax(d, 3) * project).sum(3));
    }
    const torch::Tensor distances = torch::cat(ltrb, 1) * grid.strides.view({1, -1, 1});
    const auto halves = distances.chunk(2, -1);
    return {torch::cat(cls, 1), torch::cat(dist, 1),
            torch::cat({grid.points - halves[0], grid.points + halves[1]}, -1)};
}

TaskAlignedAssigner::TaskAlignedAssigner(int64_t nc, int64_t reg_max, int64_t topk, double iou_power,
                                         double score_power)
    : nc_(nc), reg_max_(reg_max), topk_(topk), iou_power_(iou_power), score_power_(score_power) {}

Assignment TaskAlignedAssigner::assign(const torch::Tensor& targets, const torch::Tensor& cls_logits,
                                       const torch::Tensor& boxes, const AnchorGrid& grid) const {
    const int64_t batch = cls_logits.size(0), anchors = cls_logits.size(1), count = targets.size(1);
    if (count == 0) {
        return {torch::cat({torch::zeros_like(cls_logits), torch::zeros_like(boxes)}, -1),
                torch::zeros({batch, anchors}, cls_logits.options().dtype(torch::kBool))};
    }
    const auto parts = targets.split_with_sizes({1, 4}, -1);
    const torch::Tensor target_cls = parts[0].to(torch::kLong).clamp_min(0);  // (B, T, 1)
    const torch::Tensor target_box = parts[1];                                // (B, T, 4)

    // Anchors whose centre lies in the box and whose distances fit the distribution's range.
    const auto corners = target_box.unsqueeze(2).unbind(3);                // each (B, T, 1)
    const auto centres = grid.points.unsqueeze(0).unsqueeze(0).unbind(3);  // each (1, 1, A)
    torch::Tensor dist = torch::stack(
        {centres[0] - corners[0], centres[1] - corners[1], corners[2] - centres[0], corners[3] - centres[1]}, -1);
    dist = dist / grid.strides.view({1, 1, -1, 1});
    const torch::Tensor in_grid = (dist.amin(-1) >= 0) & (dist.amax(-1) <= reg_max_ - 1.01);

    torch::Tensor iou = nn::box_iou_batched_pairs(target_box, boxes, nn::IouKind::Ciou).clamp(0, 1);  // (B, T, A)
    const torch::Tensor scores =
        torch::gather(cls_logits.sigmoid().transpose(1, 2), 1, target_cls.expand({-1, -1, anchors}));
    torch::Tensor alignment = iou.pow(iou_power_) * scores.pow(score_power_);

    // Top-k anchors per target, among those in its grid.
    const auto [top_values, top_indices] = (in_grid * alignment).topk(topk_, -1);
    torch::Tensor chosen = torch::zeros_like(alignment).scatter_(-1, top_indices, top_values) > 0;

    // A target left without anchors keeps its best one.
    const auto [best_value, best_index] = alignment.max(-1);
    const torch::Tensor best_anchor =
        torch::zeros_like(alignment, torch::kBool).scatter_(-1, best_index.unsqueeze(-1), true);
    const torch::Tensor orphan = (chosen.sum(-1) == 0) & (best_value > 0);
    chosen = torch::where(orphan.unsqueeze(-1), best_anchor, chosen);

    // An anchor chosen by several targets goes to the one it overlaps most.
    const torch::Tensor shared = (chosen.sum(1, true) > 1).repeat({1, count, 1});
    const torch::Tensor best_target = (chosen * iou).argmax(1).unsqueeze(1);
    const torch::Tensor best_target_mask = torch::zeros_like(shared).scatter_(1, best_target, true);
    chosen = torch::where(shared, best_target_mask, chosen);
    const torch::Tensor target_index = chosen.to(torch::kUInt8).argmax(1).unsqueeze(-1);  // (B, A, 1)
    const torch::Tensor positive = chosen.any(1);

    const torch::Tensor assigned_box = torch::gather(target_box, 1, target_index.repeat({1, 1, 4}));
    const torch::Tensor assigned_cls = torch::gather(target_cls, 1, target_index);
    torch::Tensor one_hot = torch::zeros({batch, anchors, nc_}, cls_logits.options().dtype(torch::kBool));
    one_hot.scatter_(-1, assigned_cls, true);

    // Soft class target: alignment relative to the target's best, times its best IoU.
    iou = iou * chosen;
    alignment = alignment * chosen;
    const torch::Tensor normalised = (alignment / (alignment.amax(-1, true) + 1e-9)) * iou.amax(-1, true);  // (B, T, A)
    const torch::Tensor soft = normalised.permute({0, 2, 1}).gather(2, target_index);
    const torch::Tensor cls_target = one_hot * soft * positive.unsqueeze(-1);
    return {torch::cat({cls_target, assigned_box}, -1), positive};
}

YOLO9Loss::YOLO9Loss(int64_t nc, int64_t reg_max, std::vector<int64_t> strides, double box_weight, double dfl_weight,
                     double cls_weight)
    : nc_(nc),
      reg_max_(reg_max),
      strides_(std::move(strides)),
      box_weight_(box_weight),
      dfl_weight_(dfl_weight),
      cls_weight_(cls_weight),
      assigner_(nc, reg_max) {}

const AnchorGrid& YOLO9Loss::grid(int width, int height, const torch::Device& device) {
    if (!grid_.points.defined() || grid_.width != width || grid_.height != height || grid_.points.device() != device)
        grid_ = make_anchor_grid(width, height, strides_, device);
    return grid_;
}

LossParts YOLO9Loss::operator()(const std::vector<torch::Tensor>& raw, const torch::Tensor& targets, int width,
                                int height) {
    const AnchorGrid& g = grid(width, height, raw.front().device());
    const LossInputs in = flatten_head_outputs(raw, g, reg_max_);
    const torch::Tensor scale =
        torch::tensor({1.0, double(width), double(height), double(width), double(height)}, targets.options());
    const Assignment a = assigner_.assign(targets * scale, in.cls_logits.detach(), in.boxes.detach(), g);
    const auto split = a.targets.split_with_sizes({nc_, 4}, -1);
    const torch::Tensor& cls_target = split[0];
    const torch::Tensor stride = g.strides.view({1, -1, 1});
    const torch::Tensor pred_box = in.boxes / stride;
    const torch::Tensor target_box = split[1] / stride;

    torch::Tensor target_sum = cls_target.detach().to(torch::kFloat32).sum();
    if (global_target_sum) target_sum = global_target_sum(target_sum);
    const torch::Tensor norm = target_sum.clamp_min(1.0);
    const torch::Tensor weight = cls_target.sum(-1).index({a.positive});

    const torch::Tensor cls =
        F::binary_cross_entropy_with_logits(in.cls_logits, cls_target,
                                            F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kNone))
            .sum() /
        norm;
    torch::Tensor box, dfl;
    // One device-to-host sync serves both the branch and the reported count.
    const int64_t positives = a.positive.sum().item<int64_t>();
    if (positives > 0) {
        const torch::Tensor mask4 = a.positive.unsqueeze(-1).expand({-1, -1, 4});
        const torch::Tensor picked_pred = pred_box.index({mask4}).view({-1, 4});
        const torch::Tensor picked_target = target_box.index({mask4}).view({-1, 4});
        box = ((1.0 - nn::box_iou_elementwise(picked_pred, picked_target, nn::IouKind::Ciou)) * weight).sum() / norm;

        const torch::Tensor anchors = (g.points / g.strides.unsqueeze(1)).unsqueeze(0);
        const auto corners = target_box.chunk(2, -1);
        const torch::Tensor target_dist =
            torch::cat({anchors - corners[0], corners[1] - anchors}, -1).clamp(0, reg_max_ - 1.01);
        const torch::Tensor picked_dist = target_dist.index({mask4}).view(-1);
        const torch::Tensor logits =
            in.distributions.index({mask4.unsqueeze(-1).expand({-1, -1, -1, reg_max_})}).view({-1, reg_max_});
        const torch::Tensor left = picked_dist.floor(), right = left + 1;
        const auto ce = [&](const torch::Tensor& label) {
            return F::cross_entropy(logits, label.to(torch::kLong),
                                    F::CrossEntropyFuncOptions().reduction(torch::kNone));
        };
        const torch::Tensor per_side = ce(left) * (right - picked_dist) + ce(right) * (picked_dist - left);
        dfl = (per_side.view({-1, 4}).mean(-1) * weight).sum() / norm;
    } else {
        box = pred_box.sum() * 0.0;
        dfl = in.distributions.sum() * 0.0;
    }
    LossParts parts;
    parts.box = box_weight_ * box;
    parts.dfl = dfl_weight_ * dfl;
    parts.cls = cls_weight_ * cls;
    parts.total = parts.box + parts.dfl + parts.cls;
    parts.positives_per_image = double(positives) / double(std::max<int64_t>(1, raw.front().size(0)));
    return parts;
}

}  // namespace libreyolo::models::yolo9
