#include "kernels/nms.h"

namespace libreyolo::kernels {

torch::Tensor nms_single_class(const torch::Tensor& boxes_in, const torch::Tensor& scores_in, double iou_threshold) {
    const int64_t n = boxes_in.size(0);
    if (n == 0) return torch::empty({0}, torch::kLong);
    torch::Tensor boxes = boxes_in.to(torch::kCPU, torch::kFloat32).contiguous();
    torch::Tensor scores = scores_in.to(torch::kCPU, torch::kFloat32).contiguous();
    torch::Tensor order = std::get<1>(scores.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));

    auto b = boxes.accessor<float, 2>();
    auto ord = order.accessor<int64_t, 1>();
    std::vector<float> areas(n);
    for (int64_t i = 0; i < n; ++i) areas[i] = (b[i][2] - b[i][0]) * (b[i][3] - b[i][1]);

    std::vector<char> suppressed(n, 0);
    std::vector<int64_t> keep;
    const float threshold = static_cast<float>(iou_threshold);
    for (int64_t oi = 0; oi < n; ++oi) {
        const int64_t i = ord[oi];
        if (suppressed[i]) continue;
        keep.push_back(i);
        for (int64_t oj = oi + 1; oj < n; ++oj) {
            const int64_t j = ord[oj];
            if (suppressed[j]) continue;
            const float w = std::max(0.0f, std::min(b[i][2], b[j][2]) - std::max(b[i][0], b[j][0]));
            const float h = std::max(0.0f, std::min(b[i][3], b[j][3]) - std::max(b[i][1], b[j][1]));
            const float inter = w * h;
            const float iou = inter / (areas[i] + areas[j] - inter);
            if (iou > threshold) suppressed[j] = 1;
        }
    }
    return torch::tensor(keep, torch::kLong);
}

torch::Tensor nms_keep(const torch::Tensor& boxes_in, const torch::Tensor& scores_in, const torch::Tensor& classes_in,
                       double iou_threshold) {
    if (boxes_in.size(0) == 0) return torch::empty({0}, torch::kLong);
    torch::Tensor boxes = boxes_in.to(torch::kCPU, torch::kFloat32);
    torch::Tensor scores = scores_in.to(torch::kCPU, torch::kFloat32);
    torch::Tensor classes = classes_in.to(torch::kCPU, torch::kLong);

    if (boxes.numel() > 4000) {
        // Per class, then merged by score (torchvision's _batched_nms_vanilla).
        torch::Tensor keep_mask = torch::zeros({boxes.size(0)}, torch::kBool);
        torch::Tensor unique = std::get<0>(at::_unique(classes));
        for (int64_t k = 0; k < unique.size(0); ++k) {
            torch::Tensor idx = torch::nonzero(classes == unique[k]).view(-1);
            torch::Tensor kept =
                nms_single_class(boxes.index_select(0, idx), scores.index_select(0, idx), iou_threshold);
            keep_mask.index_put_({idx.index_select(0, kept)}, true);
        }
        torch::Tensor keep = torch::nonzero(keep_mask).view(-1);
        torch::Tensor order = std::get<1>(scores.index_select(0, keep).sort(true, 0, true));
        return keep.index_select(0, order);
    }
    // Offset every class into its own coordinate range (torchvision's coordinate trick).
    torch::Tensor max_coordinate = boxes.max();
    torch::Tensor offsets = classes.to(torch::kFloat32) * (max_coordinate + torch::ones({}, torch::kFloat32));
    return nms_single_class(boxes + offsets.unsqueeze(1), scores, iou_threshold);
}

}  // namespace libreyolo::kernels
