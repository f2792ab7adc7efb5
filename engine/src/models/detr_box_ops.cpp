#include "models/detr_box_ops.h"

namespace libreyolo::models {

using torch::indexing::None;
using torch::indexing::Slice;

torch::Tensor cxcywh_to_xyxy(const torch::Tensor& boxes) {
    const std::vector<torch::Tensor> c = boxes.unbind(-1);
    return torch::stack({c[0] - 0.5 * c[2], c[1] - 0.5 * c[3], c[0] + 0.5 * c[2], c[1] + 0.5 * c[3]}, -1);
}

torch::Tensor inverse_sigmoid(const torch::Tensor& x, double eps) {
    const torch::Tensor clipped = x.clamp(0.0, 1.0);
    return torch::log(clipped.clamp_min(eps) / (1 - clipped).clamp_min(eps));
}

torch::Tensor xyxy_to_cxcywh(const torch::Tensor& boxes) {
    const std::vector<torch::Tensor> c = boxes.unbind(-1);
    return torch::stack({(c[0] + c[2]) / 2, (c[1] + c[3]) / 2, c[2] - c[0], c[3] - c[1]}, -1);
}

PairwiseIou box_iou(const torch::Tensor& a, const torch::Tensor& b) {
    const torch::Tensor area_a = (a.select(1, 2) - a.select(1, 0)) * (a.select(1, 3) - a.select(1, 1));
    const torch::Tensor area_b = (b.select(1, 2) - b.select(1, 0)) * (b.select(1, 3) - b.select(1, 1));
    const torch::Tensor lt =
        torch::max(a.index({Slice(), None, Slice(None, 2)}), b.index({None, Slice(), Slice(None, 2)}));
    const torch::Tensor rb = torch::min(a.index({Slice(), None, Slice(2)}), b.index({None, Slice(), Slice(2)}));
    const torch::Tensor wh = (rb - lt).clamp_min(0);
    const torch::Tensor inter = wh.select(2, 0) * wh.select(2, 1);
    const torch::Tensor union_area = area_a.index({Slice(), None}) + area_b.index({None, Slice()}) - inter;
    return {inter / (union_area + 1e-6), union_area};
}

torch::Tensor generalized_box_iou(const torch::Tensor& a, const torch::Tensor& b) {
    const PairwiseIou p = box_iou(a, b);
    const torch::Tensor lt =
        torch::min(a.index({Slice(), None, Slice(None, 2)}), b.index({None, Slice(), Slice(None, 2)}));
    const torch::Tensor rb = torch::max(a.index({Slice(), None, Slice(2)}), b.index({None, Slice(), Slice(2)}));
    const torch::Tensor wh = (rb - lt).clamp_min(0);
    const torch::Tensor area = wh.select(2, 0) * wh.select(2, 1);
    return p.iou - (area - p.union_area) / (area + 1e-6);
}

}  // namespace libreyolo::models
