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

}  // namespace libreyolo::models::dfine_network
