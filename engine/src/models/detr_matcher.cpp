#include "models/detr_matcher.h"

#include "core/linear_sum_assignment.h"
#include "models/detr_box_ops.h"

namespace libreyolo::models {
namespace {

torch::Tensor cat_targets(const std::vector<DetrTarget>& targets, bool labels) {
    std::vector<torch::Tensor> parts;
    for (const auto& t : targets) parts.push_back(labels ? t.labels : t.boxes);
    return torch::cat(parts);
}

}  // namespace

std::vector<MatchedPairs> hungarian_match(const torch::Tensor& logits, const torch::Tensor& boxes,
                                          const std::vector<DetrTarget>& targets, const MatcherWeights& w) {
    torch::NoGradGuard no_grad;
    const int64_t batch = logits.size(0), queries = logits.size(1);
    const auto on = logits.options().dtype(torch::kLong);
    const torch::Tensor labels = cat_targets(targets, true), target_boxes = cat_targets(targets, false);
    std::vector<MatchedPairs> out;
    if (labels.size(0) == 0) {
        for (int64_t i = 0; i < batch; ++i) out.push_back({torch::zeros({0}, on), torch::zeros({0}, on)});
        return out;
    }
    const torch::Tensor prob = torch::sigmoid(logits.flatten(0, 1)).index_select(1, labels);
    const torch::Tensor out_boxes = boxes.flatten(0, 1);
    const torch::Tensor negative = (1 - w.alpha) * prob.pow(w.gamma) * (-(1 - prob + 1e-8).log());
    const torch::Tensor positive = w.alpha * (1 - prob).pow(w.gamma) * (-(prob + 1e-8).log());
    const torch::Tensor cost_class = positive - negative;
    const torch::Tensor cost_bbox = (out_boxes.unsqueeze(1) - target_boxes.unsqueeze(0)).abs().sum(-1);
    const torch::Tensor cost_giou = -generalized_box_iou(cxcywh_to_xyxy(out_boxes), cxcywh_to_xyxy(target_boxes));
    torch::Tensor cost =
        (w.cost_bbox * cost_bbox + w.cost_class * cost_class + w.cost_giou * cost_giou).view({batch, queries, -1});
    torch::Tensor host = cost.to(torch::kCPU);
    if (w.nan_cost) host = torch::nan_to_num(host, *w.nan_cost);  // in the cost's dtype, as LibreYOLO
    host = host.to(torch::kFloat64).contiguous();
    int64_t column = 0;
    for (int64_t i = 0; i < batch; ++i) {
        const int64_t n = targets[static_cast<std::size_t>(i)].labels.size(0);
        const torch::Tensor block = host[i].narrow(1, column, n).contiguous();
        column += n;
        const std::vector<double> values(block.data_ptr<double>(), block.data_ptr<double>() + block.numel());
        const Assignment a = linear_sum_assignment(values, queries, n);
        out.push_back(
            {torch::tensor(a.rows, torch::kLong).to(on.device()), torch::tensor(a.cols, torch::kLong).to(on.device())});
    }
    return out;
}

std::pair<torch::Tensor, torch::Tensor> matched_queries(const std::vector<MatchedPairs>& matched) {
    std::vector<torch::Tensor> batch, query;
    for (std::size_t i = 0; i < matched.size(); ++i) {
        batch.push_back(torch::full_like(matched[i].queries, static_cast<int64_t>(i)));
        query.push_back(matched[i].queries);
    }
    return {torch::cat(batch), torch::cat(query)};
}

torch::Tensor matched_targets(const std::vector<DetrTarget>& targets, const std::vector<MatchedPairs>& matched,
                              bool labels) {
    std::vector<torch::Tensor> parts;
    for (std::size_t i = 0; i < matched.size(); ++i)
        parts.push_back((labels ? targets[i].labels : targets[i].boxes).index_select(0, matched[i].targets));
    return torch::cat(parts);
}

std::vector<MatchedPairs> denoising_pairs(const DenoisingGroup& group, const std::vector<DetrTarget>& targets) {
    std::vector<MatchedPairs> pairs;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const int64_t n = targets[i].labels.size(0);
        const auto on = targets[i].labels.options().dtype(torch::kLong);
        if (n > 0)
            pairs.push_back({group.positive_index[i], torch::arange(n, on).tile({group.groups})});
        else
            pairs.push_back({torch::zeros({0}, on), torch::zeros({0}, on)});
    }
    return pairs;
}

}  // namespace libreyolo::models
