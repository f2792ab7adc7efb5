#pragma once
// YOLOX's training loss, as LibreYOLO's YOLOXHead.get_losses (models/yolox/nn.py): per image a
// SimOTA assignment (anchors whose centre lies within 1.5 strides of a box's centre are
// candidates; cost = BCE of √(class · objectness) + 3·(−log IoU) + 10⁶ outside the centre region;
// each box takes the k cheapest candidates, k the sum of its top-10 IoUs; an anchor claimed twice
// goes to the cheaper box), then 5·(1 − IoU²) on the positives' boxes, BCE on every anchor's
// objectness, BCE on the positives' classes against IoU-weighted one-hot targets and, in the last
// epochs, L1 on their raw regressions; each summed and divided by the positive count.
#include <torch/torch.h>

#include <functional>

#include "models/yolox/yolox.h"

namespace libreyolo::models::yolox {

// One image's SimOTA result.
struct SimOtaAssignment {
    torch::Tensor positive;       // (A) bool
    torch::Tensor matched_gt;     // (P) int64: the box each positive anchor took
    torch::Tensor matched_class;  // (P) the box's class
    torch::Tensor matched_iou;    // (P) IoU of the anchor's prediction with that box
    int64_t positives = 0;
};

// gt_boxes (G, 4) and pred_boxes (A, 4): cx, cy, w, h in input pixels; gt_classes (G);
// cls_logits (A, nc), obj_logits (A, 1); x_shifts, y_shifts, strides (A): each anchor's cell and
// stride. No gradients flow (LibreYOLO's @torch.no_grad()).
SimOtaAssignment simota_assign(const torch::Tensor& gt_boxes, const torch::Tensor& gt_classes,
                               const torch::Tensor& pred_boxes, const torch::Tensor& cls_logits,
                               const torch::Tensor& obj_logits, const torch::Tensor& x_shifts,
                               const torch::Tensor& y_shifts, const torch::Tensor& strides, int64_t nc);

struct LossParts {
    torch::Tensor total;              // iou + obj + cls + l1
    torch::Tensor iou, obj, cls, l1;  // iou already × 5; l1 zero while off
    double positives_per_box = 0;     // LibreYOLO's num_fg / num_gts
};

class YOLOXLoss {
public:
    explicit YOLOXLoss(int64_t nc) : nc_(nc) {}
    // labels (B, T, 5): class, cx, cy, w, h in input pixels; rows summing to zero are padding (at
    // the end). maps.raw_box must be defined when use_l1.
    LossParts operator()(const TrainMaps& maps, const torch::Tensor& labels, bool use_l1) const;
    // Distributed runs: the positive count summed over the ranks.
    std::function<torch::Tensor(const torch::Tensor&)> global_positive_sum;

private:
    int64_t nc_;
};

}  // namespace libreyolo::models::yolox
