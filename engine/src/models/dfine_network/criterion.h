#pragma once
// D-FINE's and DEIM's training loss as LibreYOLO computes them (libreyolo/models/dfine/loss.py
// DFINECriterion, models/deim/loss.py DEIMCriterion). Every output level (each decoder layer, the
// first layer's pre-boxes, the query selection's top cells) is matched to the ground truth by the
// Hungarian matcher (focal class cost 2, L1 5, GIoU 2); the box and localisation losses of all
// levels use the union of those assignments (GO-LSD: per query its most frequent partner). Terms,
// weighted: the class loss (D-FINE varifocal, alpha 0.75, gamma 2; DEIM matchability-aware, gamma
// 1.5) 1, L1 5, GIoU 2, fine-grained localisation (FGL: the edge distributions against their
// two-bin targets, weighted by IoU) 0.15, and decoupled distillation (DDF: each earlier layer's
// distributions against the last layer's, matched and unmatched queries balanced) 1.5; the same
// for the denoising queries against the ground truth they were made from.
#include <torch/torch.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/detr_matcher.h"
#include "models/dfine_network/decoder.h"
#include "models/dfine_network/dfine_network.h"

namespace libreyolo::models::dfine_network {

struct LossTerms {
    // LibreYOLO's keys, weighted: loss_vfl (DEIM: loss_mal), loss_bbox, loss_giou, loss_fgl,
    // loss_ddf, with _aux_<i>, _pre, _enc_0, _dn_<i> and _dn_pre suffixes.
    std::map<std::string, torch::Tensor> terms;
    torch::Tensor total;
    // Each kind summed over its levels, in component_names() order (LibreYOLO's logged components).
    std::vector<torch::Tensor> components;
    std::vector<MatchedPairs> matched;        // the last decoder layer's assignment
    std::vector<MatchedPairs> union_matched;  // the union of every level's assignment
};

// The queries each level matched, merged per image: every (query, ground truth) pair counted over
// the levels, and each query kept once with its most frequent partner (LibreYOLO's _get_go_indices,
// ties in its order).
std::vector<MatchedPairs> union_of_matches(const std::vector<std::vector<MatchedPairs>>& levels);

class DFINECriterion {
public:
    DFINECriterion(Variant variant, int64_t num_classes, int64_t reg_max = 32);
    LossTerms operator()(const TrainingOutput& outputs, const std::vector<DetrTarget>& targets, const torch::Tensor& up,
                         const torch::Tensor& reg_scale) const;
    // {"vfl" or "mal", "bbox", "giou", "fgl", "ddf"}: results.csv's loss columns.
    std::vector<std::string> component_names() const;

    // A count over all ranks of a distributed run (identity in one process): the normalisers, so
    // that the ranks' gradients sum to the one-process gradient.
    std::function<torch::Tensor(const torch::Tensor&)> global_target_count;

private:
    struct Level;
    struct Cache;
    using Terms = std::map<std::string, torch::Tensor>;
    torch::Tensor class_loss(const Level& level, const std::vector<DetrTarget>& targets,
                             const std::vector<MatchedPairs>& matched, const torch::Tensor& num_boxes) const;
    Terms box_losses(const Level& level, const std::vector<DetrTarget>& targets,
                     const std::vector<MatchedPairs>& matched, const torch::Tensor& num_boxes) const;
    Terms local_losses(const Level& level, const std::vector<DetrTarget>& targets,
                       const std::vector<MatchedPairs>& matched, const torch::Tensor& num_boxes,
                       const torch::Tensor& up, const torch::Tensor& reg_scale, Cache& cache) const;

    Variant variant_;
    int64_t num_classes_, reg_max_;
    MatcherWeights matcher_;
};

}  // namespace libreyolo::models::dfine_network
