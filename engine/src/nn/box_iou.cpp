#include "nn/box_iou.h"

#include <numbers>

namespace libreyolo::nn {
namespace {

constexpr double kEps = 1e-7;

// a and b broadcast against each other; the last dimension is xyxy.
torch::Tensor iou_of_broadcast(torch::Tensor a, torch::Tensor b, IouKind kind) {
    const auto dtype = a.scalar_type();
    a = a.to(torch::kFloat32);
    b = b.to(torch::kFloat32);
    auto x = [](const torch::Tensor& t, int64_t i) { return t.select(-1, i); };
    const torch::Tensor inter = torch::clamp(torch::min(x(a, 2), x(b, 2)) - torch::max(x(a, 0), x(b, 0)), 0) *
                                torch::clamp(torch::min(x(a, 3), x(b, 3)) - torch::max(x(a, 1), x(b, 1)), 0);
    const torch::Tensor area_a = (x(a, 2) - x(a, 0)) * (x(a, 3) - x(a, 1));
    const torch::Tensor area_b = (x(b, 2) - x(b, 0)) * (x(b, 3) - x(b, 1));
    const torch::Tensor iou = inter / (area_a + area_b - inter + kEps);
    if (kind == IouKind::Iou) return iou.to(dtype);

    const torch::Tensor cx1 = (x(a, 2) + x(a, 0)) / 2, cy1 = (x(a, 3) + x(a, 1)) / 2;
    const torch::Tensor cx2 = (x(b, 2) + x(b, 0)) / 2, cy2 = (x(b, 3) + x(b, 1)) / 2;
    const torch::Tensor centre = (cx1 - cx2).pow(2) + (cy1 - cy2).pow(2);
    const torch::Tensor cw = torch::max(x(a, 2), x(b, 2)) - torch::min(x(a, 0), x(b, 0));
    const torch::Tensor ch = torch::max(x(a, 3), x(b, 3)) - torch::min(x(a, 1), x(b, 1));
    const torch::Tensor diagonal = cw.pow(2) + ch.pow(2) + kEps;
    const torch::Tensor diou = iou - centre / diagonal;
    const torch::Tensor arctan = torch::atan((x(a, 2) - x(a, 0)) / (x(a, 3) - x(a, 1) + kEps)) -
                                 torch::atan((x(b, 2) - x(b, 0)) / (x(b, 3) - x(b, 1) + kEps));
    const torch::Tensor v = (4 / (std::numbers::pi * std::numbers::pi)) * arctan.pow(2);
    torch::Tensor alpha;
    {
        torch::NoGradGuard no_grad;
        alpha = v / (v - iou + 1 + kEps);
    }
    return (diou - alpha * v).to(dtype);
}

}  // namespace

torch::Tensor box_iou_elementwise(const torch::Tensor& a, const torch::Tensor& b, IouKind kind) {
    TORCH_CHECK(a.sizes() == b.sizes(), "box_iou_elementwise: shapes differ, ", a.sizes(), " vs ", b.sizes());
    return iou_of_broadcast(a, b, kind);
}

torch::Tensor box_iou_batched_pairs(const torch::Tensor& a, const torch::Tensor& b, IouKind kind) {
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "box_iou_batched_pairs: expected (B, N, 4) and (B, M, 4)");
    return iou_of_broadcast(a.unsqueeze(2), b.unsqueeze(1), kind);
}

}  // namespace libreyolo::nn
