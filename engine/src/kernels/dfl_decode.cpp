#include "kernels/dfl_decode.h"

namespace libreyolo::kernels {

DflAnchors dfl_anchors(const std::vector<torch::Tensor>& levels, const std::vector<double>& strides, int64_t reg_max) {
    const auto dtype = levels.at(0).scalar_type();
    const auto device = levels.at(0).device();
    const auto options = torch::TensorOptions().dtype(dtype).device(device);
    std::vector<torch::Tensor> points, level_strides;
    for (size_t i = 0; i < levels.size(); ++i) {
        const int64_t h = levels[i].size(2), w = levels[i].size(3);
        torch::Tensor sx = torch::arange(w, torch::TensorOptions().device(device)).to(dtype) + 0.5;
        torch::Tensor sy = torch::arange(h, torch::TensorOptions().device(device)).to(dtype) + 0.5;
        auto grid = torch::meshgrid({sy, sx}, "ij");
        points.push_back(torch::stack({grid[1], grid[0]}, -1).reshape({-1, 2}));
        level_strides.push_back(torch::full({h * w, 1}, strides.at(i), options));
    }
    torch::Tensor project = torch::arange(reg_max, torch::TensorOptions().dtype(torch::kFloat32).device(device))
                                .view({1, 1, reg_max, 1})
                                .to(dtype);
    return {torch::cat(points).transpose(0, 1).unsqueeze(0), torch::cat(level_strides).transpose(0, 1), project};
}

torch::Tensor dfl_decode(const std::vector<torch::Tensor>& levels, const DflAnchors& anchors, int64_t reg_max,
                         int64_t nc) {
    std::vector<torch::Tensor> box_levels, score_levels;
    for (const torch::Tensor& level : levels) {
        auto parts = level.flatten(2).split_with_sizes({4 * reg_max, nc}, 1);
        box_levels.push_back(parts[0]);
        score_levels.push_back(parts[1]);
    }
    torch::Tensor dist = torch::cat(box_levels, 2);
    const int64_t batch = dist.size(0), anchor_count = dist.size(2);
    torch::Tensor distances =
        torch::softmax(dist.view({batch, 4, reg_max, anchor_count}), 2).mul(anchors.project).sum(2);
    auto lt_rb = distances.chunk(2, 1);
    torch::Tensor boxes = torch::cat({anchors.points - lt_rb[0], anchors.points + lt_rb[1]}, 1) * anchors.strides;
    torch::Tensor scores = torch::cat(score_levels, 2).sigmoid();
    return torch::cat({boxes, scores}, 1);
}

}  // namespace libreyolo::kernels
