#pragma once
// RT-DETR's training loss as LibreYOLO computes it (libreyolo/models/rtdetr/loss.py, RTDETRLoss):
// per output level a Hungarian matching of queries to ground truth (focal class cost 2, L1 box cost
// 5, GIoU cost 2; a real assignment solver), then varifocal (IoU-aware, alpha 0.75, gamma 2), L1
// and GIoU losses weighted 1, 5 and 2, normalised by the ground-truth count; the same for every
// auxiliary level, and for the denoising queries against the ground truth they were made from.
#include <torch/torch.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/detr_matcher.h"
#include "models/rtdetr/decoder.h"

namespace libreyolo::models::rtdetr {

struct LossTerms {
    // LibreYOLO's keys: loss_vfl, loss_bbox, loss_giou, with _aux_<i> and _dn_<i> suffixes; weighted.
    std::map<std::string, torch::Tensor> terms;
    torch::Tensor total;
    // Each of the three summed over its levels (LibreYOLO's logged components).
    torch::Tensor vfl, bbox, giou;
    std::vector<MatchedPairs> matched;  // the last decoder layer's assignment
};

class RTDETRCriterion {
public:
    explicit RTDETRCriterion(int64_t num_classes) : num_classes_(num_classes) {}
    LossTerms operator()(const TrainingOutput& outputs, const std::vector<DetrTarget>& targets) const;

    // The ground-truth count over all ranks of a distributed run (identity in one process): the
    // normaliser, so that the ranks' gradients sum to the one-process gradient.
    std::function<torch::Tensor(const torch::Tensor&)> global_target_count;

private:
    std::map<std::string, torch::Tensor> level_losses(const DecoderOutput& level,
                                                      const std::vector<DetrTarget>& targets,
                                                      const std::vector<MatchedPairs>& matched,
                                                      const torch::Tensor& num_boxes) const;
    int64_t num_classes_;
    double alpha_ = 0.75, gamma_ = 2;
};

}  // namespace libreyolo::models::rtdetr
