#pragma once
// The ms_deform_attn slot: multi-scale deformable attention (Deformable DETR's MSDeformAttn core,
// the one RT-DETR and the rest of the deformable line share). Each query samples, per head, a few
// points on every level of a feature pyramid and sums them with its attention weights.
//
// Layout (the classic one, points flattened over levels so per-level counts may differ):
//   value               (N, S, M, D)   S = Σ H_l·W_l: the levels flattened and concatenated
//   sampling_locations  (N, Lq, M, ΣP, 2)  (x, y) in [0, 1] of each level's map, level by level
//   attention_weights   (N, Lq, M, ΣP)
//   result              (N, Lq, M·D)
// The reference is the portable grid_sample formulation (bilinear, zero padding, corners not
// aligned), and RT-DETRv2's integer-index ("discrete") sampling; an accelerated implementation
// must agree with it within float tolerance, forward and backward.
#include <torch/torch.h>

#include <array>
#include <vector>

#include "kernels/slot.h"

namespace libreyolo::kernels {

struct DeformableSampling {
    std::vector<std::array<std::int64_t, 2>> spatial_shapes;  // (H, W) of each level, on the host
    std::vector<std::int64_t> points_per_level;               // sums to ΣP; equal in the classic layout
    bool discrete = false;  // RT-DETRv2's method="discrete": the nearest cell, no interpolation
};

using MsDeformAttnSignature = torch::Tensor(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                                            const torch::Tensor& attention_weights, const DeformableSampling& sampling);

Slot<MsDeformAttnSignature>& ms_deform_attn_slot();

// The reference. Throws InvalidArgument naming the tensor whose shape disagrees with the others.
torch::Tensor ms_deform_attn_reference(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                                       const torch::Tensor& attention_weights, const DeformableSampling& sampling);

// What an accelerated implementation's predicate checks besides device and dtype: eager (not
// traced: a trace must record the portable math), the same number of points on every level,
// bilinear sampling.
bool ms_deform_attn_layout_is_classic(const DeformableSampling& sampling);

}  // namespace libreyolo::kernels
