#include "models/detr_denoising.h"

#include <algorithm>

#include "models/detr_box_ops.h"

namespace libreyolo::models {

using torch::indexing::Slice;

std::optional<DenoisingGroup> contrastive_denoising_group(const std::vector<DetrTarget>& targets, int64_t num_classes,
                                                          int64_t num_queries, torch::nn::Embedding& class_embed,
                                                          const DenoisingOptions& o) {
    if (o.num_denoising <= 0 || targets.empty()) return std::nullopt;
    std::vector<int64_t> counts;
    for (const auto& t : targets) counts.push_back(t.labels.size(0));
    const int64_t max_gt = *std::max_element(counts.begin(), counts.end());
    if (max_gt == 0) return std::nullopt;
    const int64_t groups = std::max<int64_t>(1, o.num_denoising / max_gt);
    const int64_t batch = static_cast<int64_t>(targets.size());
    const torch::Device device = targets.front().labels.device();
    const auto on = torch::TensorOptions().device(device);

    torch::Tensor classes = torch::full({batch, max_gt}, num_classes, on.dtype(torch::kInt));
    torch::Tensor boxes = torch::zeros({batch, max_gt, 4}, on.dtype(torch::kFloat32));
    torch::Tensor padded = torch::zeros({batch, max_gt}, on.dtype(torch::kBool));
    for (int64_t i = 0; i < batch; ++i) {
        const int64_t n = counts[static_cast<std::size_t>(i)];
        if (n == 0) continue;
        classes.index_put_({i, Slice(0, n)}, targets[static_cast<std::size_t>(i)].labels.to(torch::kInt));
        boxes.index_put_({i, Slice(0, n)}, targets[static_cast<std::size_t>(i)].boxes.to(torch::kFloat32));
        padded.index_put_({i, Slice(0, n)}, true);
    }
    classes = classes.tile({1, 2 * groups});
    boxes = boxes.tile({1, 2 * groups, 1});
    padded = padded.tile({1, 2 * groups});

    torch::Tensor negative = torch::zeros({batch, max_gt * 2, 1}, on.dtype(torch::kFloat32));
    negative.index_put_({Slice(), Slice(max_gt)}, 1);
    negative = negative.tile({1, groups, 1});
    const torch::Tensor positive = (1 - negative).squeeze(-1) * padded;
    const torch::Tensor positive_columns = torch::nonzero(positive).select(1, 1);
    std::vector<int64_t> split;
    for (const int64_t n : counts) split.push_back(n * groups);

    DenoisingGroup g;
    g.positive_index = positive_columns.split_with_sizes(split);
    g.groups = groups;
    g.queries = max_gt * 2 * groups;

    if (o.label_noise_ratio > 0) {
        const torch::Tensor flip =
            torch::rand_like(classes, classes.options().dtype(torch::kFloat32)) < o.label_noise_ratio * 0.5;
        const torch::Tensor new_label = torch::randint_like(flip, 0, num_classes, classes.options());
        classes = torch::where(flip & padded, new_label, classes);
    }
    if (o.box_noise_scale > 0) {
        torch::Tensor corners = cxcywh_to_xyxy(boxes);
        const torch::Tensor diff = torch::tile(boxes.index({"...", Slice(2)}) * 0.5, {1, 1, 2}) * o.box_noise_scale;
        const torch::Tensor sign = torch::randint_like(boxes, 0, 2) * 2.0 - 1.0;
        torch::Tensor part = torch::rand_like(boxes);
        part = (part + 1.0) * negative + part * (1 - negative);
        part *= sign;
        corners += part * diff;
        corners.clamp_(0.0, 1.0);
        torch::Tensor noised = xyxy_to_cxcywh(corners);
        if (o.positive_sizes) noised = noised.abs();
        boxes = inverse_sigmoid(noised);
    }
    g.class_queries = class_embed(classes.to(torch::kLong));
    g.box_logits = boxes;

    const int64_t total = g.queries + num_queries, span = max_gt * 2;
    torch::Tensor mask = torch::zeros({total, total}, on.dtype(torch::kBool));
    mask.index_put_({Slice(g.queries), Slice(0, g.queries)}, true);
    for (int64_t i = 0; i < groups; ++i) {
        const Slice rows(span * i, span * (i + 1));
        if (i == 0) mask.index_put_({rows, Slice(span * (i + 1), g.queries)}, true);
        if (i == groups - 1) {
            mask.index_put_({rows, Slice(0, span * i)}, true);
        } else {
            mask.index_put_({rows, Slice(span * (i + 1), g.queries)}, true);
            mask.index_put_({rows, Slice(0, span * i)}, true);
        }
    }
    g.attn_mask = mask;
    return g;
}

}  // namespace libreyolo::models
