#pragma once
// YOLOv9's training loss, as LibreYOLO's models/yolo9/loss.py (itself from MultimediaTechLab/YOLO):
// task-aligned assignment (top-k 10, IoU^6 · score^0.5), then 7.5·CIoU + 1.5·DFL + 0.5·BCE, each
// normalised by the sum of the soft class targets.
#include <torch/torch.h>

#include <functional>

#include <vector>

namespace libreyolo::models::yolo9 {

// Anchor centres in pixels (A, 2) and each anchor's stride (A), level by level, row-major.
struct AnchorGrid {
    torch::Tensor points;
    torch::Tensor strides;
    int width = 0, height = 0;
};
AnchorGrid make_anchor_grid(int width, int height, const std::vector<int64_t>& strides, const torch::Device& device);

// The head's raw maps flattened over levels: class logits (B, A, nc), box distributions
// (B, A, 4, reg_max) and the boxes they decode to, xyxy in pixels (B, A, 4).
struct LossInputs {
    torch::Tensor cls_logits;
    torch::Tensor distributions;
    torch::Tensor boxes;
};
LossInputs flatten_head_outputs(const std::vector<torch::Tensor>& raw, const AnchorGrid& grid, int64_t reg_max);

struct Assignment {
    torch::Tensor targets;   // (B, A, nc + 4): soft class targets, then the xyxy box in pixels
    torch::Tensor positive;  // (B, A) bool
};

class TaskAlignedAssigner {
public:
    TaskAlignedAssigner(int64_t nc, int64_t reg_max, int64_t topk = 10, double iou_power = 6.0,
                        double score_power = 0.5);
    // targets (B, T, 5): class, x1, y1, x2, y2 in pixels; rows of zeros are padding.
    Assignment assign(const torch::Tensor& targets, const torch::Tensor& cls_logits, const torch::Tensor& boxes,
                      const AnchorGrid& grid) const;

private:
    int64_t nc_, reg_max_, topk_;
    double iou_power_, score_power_;
};

struct LossParts {
    torch::Tensor total;  // box + dfl + cls, each already weighted
    torch::Tensor box, dfl, cls;
    double positives_per_image = 0;
};

class YOLO9Loss {
public:
    explicit YOLO9Loss(int64_t nc, int64_t reg_max = 16, std::vector<int64_t> strides = {8, 16, 32},
                       double box_weight = 7.5, double dfl_weight = 1.5, double cls_weight = 0.5);
    // raw: the head's per-level maps; targets (B, T, 5): class, x1, y1, x2, y2 normalised to [0, 1].
    LossParts operator()(const std::vector<torch::Tensor>& raw, const torch::Tensor& targets, int width, int height);
    const TaskAlignedAssigner& assigner() const { return assigner_; }
    const AnchorGrid& grid(int width, int height, const torch::Device& device);
    // Distributed runs: maps this rank's soft-target sum to the global batch's (an all-reduce),
    // so each rank's loss is its share of the one-process loss and the summed gradients equal the
    // one-process gradients.
    std::function<torch::Tensor(const torch::Tensor&)> global_target_sum;

private:
    int64_t nc_, reg_max_;
    std::vector<int64_t> strides_;
    double box_weight_, dfl_weight_, cls_weight_;
    TaskAlignedAssigner assigner_;
    AnchorGrid grid_;  // rebuilt when the input size or device changes
};

}  // namespace libreyolo::models::yolo9
