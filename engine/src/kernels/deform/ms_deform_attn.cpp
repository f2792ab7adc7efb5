#include "kernels/deform/ms_deform_attn.h"

#include <torch/csrc/jit/frontend/tracer.h>

#include <algorithm>

#include "core/shape_text.h"
#include "kernels/manual_math.h"
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/ms_deform_attn_cuda.h"
#include "kernels/in_tree_cuda.h"
#endif

namespace libreyolo::kernels {
namespace F = torch::nn::functional;
namespace {

void check_layout(const torch::Tensor& value, const torch::Tensor& locations, const torch::Tensor& weights,
                  const DeformableSampling& sampling) {
    const auto fail = [&](const std::string& what) {
        throw InvalidArgument("ms_deform_attn: " + what + " (value " + shape_text(value.sizes()) +
                              ", sampling_locations " + shape_text(locations.sizes()) + ", attention_weights " +
                              shape_text(weights.sizes()) + ")");
    };
    if (value.dim() != 4) fail("value must be (N, S, heads, channels)");
    if (sampling.spatial_shapes.empty() || sampling.spatial_shapes.size() != sampling.points_per_level.size())
        fail("spatial_shapes and points_per_level must name the same levels");
    std::int64_t cells = 0, points = 0;
    for (const auto& [h, w] : sampling.spatial_shapes) cells += h * w;
    for (const std::int64_t p : sampling.points_per_level) points += p;
    if (value.size(1) != cells)
        fail("value holds " + std::to_string(value.size(1)) + " cells, the levels " + std::to_string(cells));
    const std::int64_t n = value.size(0), heads = value.size(2);
    if (locations.dim() != 5 || locations.size(0) != n || locations.size(2) != heads || locations.size(3) != points ||
        locations.size(4) != 2)
        fail("sampling_locations must be (N, queries, heads, " + std::to_string(points) + " points, 2)");
    if (weights.dim() != 4 || weights.size(0) != n || weights.size(1) != locations.size(1) ||
        weights.size(2) != heads || weights.size(3) != points)
        fail("attention_weights must be (N, queries, heads, points)");
}

}  // namespace

torch::Tensor ms_deform_attn_reference(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                                       const torch::Tensor& attention_weights, const DeformableSampling& sampling) {
    check_layout(value, sampling_locations, attention_weights, sampling);
    const std::int64_t n = value.size(0), heads = value.size(2), channels = value.size(3);
    const std::int64_t queries = sampling_locations.size(1), points = sampling_locations.size(3);
    std::vector<std::int64_t> cells;
    for (const auto& [h, w] : sampling.spatial_shapes) cells.push_back(h * w);
    const auto values = value.split_with_sizes(cells, 1);
    const auto locations = sampling_locations.split_with_sizes(sampling.points_per_level, 3);
    std::vector<torch::Tensor> sampled;
    for (std::size_t l = 0; l < cells.size(); ++l) {
        const auto [h, w] = sampling.spatial_shapes[l];
        const std::int64_t p = sampling.points_per_level[l];
        // (N, HW, M, D) → (N·M, D, H, W); locations (N, Lq, M, P, 2) → (N·M, Lq, P, 2).
        const torch::Tensor map = values[l].flatten(2).transpose(1, 2).reshape({n * heads, channels, h, w});
        const torch::Tensor where = locations[l].transpose(1, 2).flatten(0, 1);
        if (!sampling.discrete) {
            sampled.push_back(F::grid_sample(map, 2 * where - 1,
                                             F::GridSampleFuncOptions()
                                                 .mode(torch::kBilinear)
                                                 .padding_mode(torch::kZeros)
                                                 .align_corners(false)));  // (N·M, D, Lq, P)
            continue;
        }
        // RT-DETRv2's discrete sampling, clamp included as it writes it (both axes to [0, H-1]).
        const torch::Tensor cell =
            (where * torch::tensor({double(w), double(h)}, where.options()) + 0.5).to(torch::kLong).clamp(0, h - 1);
        const torch::Tensor index = (cell.select(-1, 1) * w + cell.select(-1, 0)).reshape({n * heads, 1, queries * p});
        sampled.push_back(map.flatten(2)
                              .gather(2, index.expand({n * heads, channels, queries * p}))
                              .view({n * heads, channels, queries, p}));
    }
    const torch::Tensor weights = attention_weights.transpose(1, 2).reshape({n * heads, 1, queries, points});
    return (torch::cat(sampled, -1) * weights)
        .sum(-1)
        .view({n, heads * channels, queries})
        .transpose(1, 2)
        .contiguous();
}

bool ms_deform_attn_layout_is_classic(const DeformableSampling& sampling) {
    if (sampling.discrete || kernels::manual_attention_required() || torch::jit::tracer::isTracing()) return false;
    const auto& p = sampling.points_per_level;
    return !p.empty() && std::all_of(p.begin(), p.end(), [&](std::int64_t k) { return k == p.front(); });
}

Slot<MsDeformAttnSignature>& ms_deform_attn_slot() {
    static Slot<MsDeformAttnSignature>& slot = []() -> Slot<MsDeformAttnSignature>& {
        static Slot<MsDeformAttnSignature> s(
            "ms_deform_attn",
            "multi-scale deformable attention: (value, sampling_locations, attention_weights, levels) -> "
            "(N, queries, heads·channels)",
            &ms_deform_attn_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::ms_deform_attn, &cuda::ms_deform_attn_accepts);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
