#include "models/detr_heads.h"

#include <cmath>

#include "models/constant_tables.h"

namespace libreyolo::models {

MLPImpl::MLPImpl(int64_t in, int64_t hidden, int64_t out, int layers, HeadActivation act) : act_(act) {
    layers_list = register_module("layers", torch::nn::ModuleList());
    for (int i = 0; i < layers; ++i) {
        linears_.push_back(torch::nn::Linear(i == 0 ? in : hidden, i == layers - 1 ? out : hidden));
        layers_list->push_back(linears_.back());
    }
}

torch::Tensor MLPImpl::forward(torch::Tensor x) {
    for (std::size_t i = 0; i < linears_.size(); ++i) {
        x = linears_[i](x);
        if (i + 1 < linears_.size()) x = apply_activation(x, act_);
    }
    return x;
}

torch::Tensor MLPImpl::forward_fused(torch::Tensor x) {
    if (act_ != HeadActivation::ReLU) return forward(x);
    for (std::size_t i = 0; i + 1 < linears_.size(); ++i) x = linear_relu(linears_[i], x);
    return linears_.back()(x);
}

torch::Tensor linear_relu(const torch::nn::Linear& linear, const torch::Tensor& x) {
    const int64_t in = linear->weight.size(1), out = linear->weight.size(0);
    std::vector<int64_t> shape = x.sizes().vec();
    shape.back() = out;
    return at::_addmm_activation(linear->bias, x.reshape({-1, in}), linear->weight.t()).view(shape);
}

torch::Tensor apply_activation(const torch::Tensor& x, HeadActivation act) {
    return act == HeadActivation::SiLU ? torch::silu(x) : torch::relu(x);
}

torch::Tensor gather_rows(const torch::Tensor& t, const torch::Tensor& index) {
    return t.gather(1, index.unsqueeze(-1).expand({-1, -1, t.size(-1)}));
}

GridAnchors grid_anchors(const std::vector<std::array<int64_t, 2>>& spatial_shapes, const torch::Tensor& like,
                         double invalid) {
    constexpr double kGridSize = 0.05, kEps = 1e-2;
    const auto table = torch::TensorOptions().dtype(constant_table_dtype(like.scalar_type())).device(like.device());
    std::vector<torch::Tensor> levels;
    for (std::size_t l = 0; l < spatial_shapes.size(); ++l) {
        const auto [h, w] = spatial_shapes[l];
        const auto grid = torch::meshgrid({torch::arange(h, table), torch::arange(w, table)}, "ij");
        const torch::Tensor xy = torch::stack({grid[1], grid[0]}, -1).unsqueeze(0) + 0.5;
        const torch::Tensor normalised =
            torch::stack({xy.select(-1, 0) / static_cast<double>(w), xy.select(-1, 1) / static_cast<double>(h)}, -1);
        const torch::Tensor wh = torch::ones_like(normalised) * kGridSize * std::pow(2.0, static_cast<double>(l));
        levels.push_back(torch::cat({normalised, wh}, -1).reshape({-1, h * w, 4}));
    }
    torch::Tensor a = torch::cat(levels, 1);
    const torch::Tensor valid = ((a > kEps) * (a < 1 - kEps)).all(-1, true);
    a = torch::log(a / (1 - a));
    return {torch::where(valid, a, torch::full({}, invalid, table)), valid};
}

}  // namespace libreyolo::models
