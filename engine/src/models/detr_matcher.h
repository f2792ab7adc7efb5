#pragma once
// The Hungarian matcher of the DETR families (LibreYOLO's HungarianMatcher for RT-DETR, D-FINE
// and DEIM): per image, the minimum-cost one-to-one assignment of queries to ground truth under a
// focal class cost, an L1 box cost and a GIoU cost (a real assignment solver, as scipy's
// linear_sum_assignment), and the index bookkeeping the criteria share.
#include <torch/torch.h>

#include <optional>
#include <utility>
#include <vector>

#include "models/detr_denoising.h"
#include "models/detr_target.h"

namespace libreyolo::models {

// Per image: the matched queries and, in the same order, the ground-truth rows they predict.
struct MatchedPairs {
    torch::Tensor queries, targets;  // int64
};

struct MatcherWeights {
    double cost_class = 2, cost_bbox = 5, cost_giou = 2, alpha = 0.25, gamma = 2;
    // D-FINE's and DEIM's matcher replace NaN costs by this; RT-DETR's has none (NaN is an error).
    std::optional<double> nan_cost;
};

// logits (B, Q, nc), boxes (B, Q, 4) cx, cy, w, h. Every ground truth gets a query; the pairs come
// in query order, as scipy returns them.
std::vector<MatchedPairs> hungarian_match(const torch::Tensor& logits, const torch::Tensor& boxes,
                                          const std::vector<DetrTarget>& targets, const MatcherWeights& weights = {});

// (batch index, query index) of every matched pair, images in order.
std::pair<torch::Tensor, torch::Tensor> matched_queries(const std::vector<MatchedPairs>& matched);

// The matched ground truth's labels (or boxes), in the order of matched_queries.
torch::Tensor matched_targets(const std::vector<DetrTarget>& targets, const std::vector<MatchedPairs>& matched,
                              bool labels);

// LibreYOLO's get_cdn_matched_indices: the positive denoising queries of each group against the
// ground truth they were made from.
std::vector<MatchedPairs> denoising_pairs(const DenoisingGroup& group, const std::vector<DetrTarget>& targets);

}  // namespace libreyolo::models
