#include "models/dfine_network/fdr.h"

#include <vector>

#include "libreyolo/errors.h"
#include "models/detr_box_ops.h"

namespace libreyolo::models::dfine_network {

torch::Tensor weighting_function(int64_t reg_max, const torch::Tensor& up, const torch::Tensor& reg_scale) {
    if (reg_max < 4 || reg_max % 2 != 0)
        throw InvalidArgument("dfine: reg_max must be even and at least 4, got " + std::to_string(reg_max));
    // The same operations as LibreYOLO's, in its order, so the values agree to the last bit.
    const torch::Tensor up0 = up.select(0, 0);
    const torch::Tensor bound1 = up0.abs() * reg_scale.abs();
    const torch::Tensor bound2 = up0.abs() * reg_scale.abs() * 2;
    const torch::Tensor step = (bound1 + 1).pow(2.0 / static_cast<double>(reg_max - 2));
    std::vector<torch::Tensor> values{-bound2};
    for (int64_t i = reg_max / 2 - 1; i > 0; --i) values.push_back(-step.pow(i) + 1);
    values.push_back(torch::zeros_like(up0.unsqueeze(0)));
    for (int64_t i = 1; i < reg_max / 2; ++i) values.push_back(step.pow(i) - 1);
    values.push_back(bound2);
    return torch::cat(values, 0);
}

torch::Tensor integral(const torch::Tensor& corners, const torch::Tensor& project, int64_t reg_max) {
    std::vector<int64_t> shape = corners.sizes().vec();
    const torch::Tensor p = torch::softmax(corners.reshape({-1, reg_max + 1}), 1);
    shape.back() = -1;
    return torch::nn::functional::linear(p, project.to(p.device())).reshape({-1, 4}).reshape(shape);
}

torch::Tensor distance_to_box(const torch::Tensor& points, const torch::Tensor& distance,
                              const torch::Tensor& reg_scale) {
    const torch::Tensor s = reg_scale.abs();
    const auto p = points.unbind(-1);
    const auto d = distance.unbind(-1);
    const torch::Tensor x1 = p[0] - (0.5 * s + d[0]) * (p[2] / s);
    const torch::Tensor y1 = p[1] - (0.5 * s + d[1]) * (p[3] / s);
    const torch::Tensor x2 = p[0] + (0.5 * s + d[2]) * (p[2] / s);
    const torch::Tensor y2 = p[1] + (0.5 * s + d[3]) * (p[3] / s);
    return xyxy_to_cxcywh(torch::stack({x1, y1, x2, y2}, -1));
}

DistanceTargets box_to_distance(const torch::Tensor& points, const torch::Tensor& boxes, int64_t reg_max,
                                const torch::Tensor& reg_scale, const torch::Tensor& up) {
    torch::NoGradGuard no_grad;
    const torch::Tensor s = reg_scale.abs();
    const auto p = points.unbind(-1);
    const auto b = boxes.unbind(-1);
    const torch::Tensor left = (p[0] - b[0]) / (p[2] / s + 1e-16) - 0.5 * s;
    const torch::Tensor top = (p[1] - b[1]) / (p[3] / s + 1e-16) - 0.5 * s;
    const torch::Tensor right = (b[2] - p[0]) / (p[2] / s + 1e-16) - 0.5 * s;
    const torch::Tensor bottom = (b[3] - p[1]) / (p[3] / s + 1e-16) - 0.5 * s;
    const torch::Tensor offsets = torch::stack({left, top, right, bottom}, -1).reshape(-1);

    // translate_gt: LibreYOLO keeps the bin indices and weights in float32 whatever the boxes' dtype.
    const torch::Tensor values = weighting_function(reg_max, up, reg_scale);
    torch::Tensor bins = ((values.unsqueeze(0) - offsets.unsqueeze(1)) <= 0).sum(1).sub(1).to(torch::kFloat32);
    const torch::Tensor inside = (bins >= 0) & (bins < reg_max);
    const torch::Tensor left_bin = bins.clamp(0, static_cast<double>(reg_max - 1)).to(torch::kLong);
    const torch::Tensor left_gap = (offsets - values.index_select(0, left_bin)).abs();
    const torch::Tensor right_gap = (values.index_select(0, left_bin + 1) - offsets).abs();
    const torch::Tensor zero = torch::zeros_like(bins);
    torch::Tensor weight_right = torch::where(inside, (left_gap / (left_gap + right_gap)).to(torch::kFloat32), zero);
    torch::Tensor weight_left = torch::where(inside, 1.0 - weight_right, zero);
    const torch::Tensor below = bins < 0, above = bins >= reg_max;
    weight_right = torch::where(below, zero, torch::where(above, torch::ones_like(bins), weight_right));
    weight_left = torch::where(below, torch::ones_like(bins), torch::where(above, zero, weight_left));
    bins = torch::where(below, zero, torch::where(above, torch::full_like(bins, reg_max - 0.1), bins));
    return {bins.clamp(0, reg_max - 0.1), weight_right, weight_left};
}

}  // namespace libreyolo::models::dfine_network
