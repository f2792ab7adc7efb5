#pragma once
// The CUDA kernels of the ms_deform_attn slot behind plain launchers (no torch header here), for
// the classic layout: every level samples the same number of points, bilinearly, with zeros
// outside the map (grid_sample's align_corners=False convention: pixel = location · size − 0.5).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo::kernels::cuda {

constexpr int kMaxDeformableLevels = 8;

// Passed by value to the kernels: no device buffer, so a CUDA graph can record the launch.
struct DeformableLevels {
    int count = 0;
    int height[kMaxDeformableLevels] = {};
    int width[kMaxDeformableLevels] = {};
    std::int64_t start[kMaxDeformableLevels] = {};  // first cell of the level in value's S axis
};

struct DeformableDims {
    std::int64_t batch, cells, heads, channels, queries, points;  // points per level
};

// value (N, S, M, D), locations (N, Lq, M, L·P, 2), weights (N, Lq, M, L·P), out (N, Lq, M·D);
// all contiguous float32.
cudaError_t launch_ms_deform_attn_forward(const float* value, const float* locations, const float* weights, float* out,
                                          DeformableLevels levels, DeformableDims dims, cudaStream_t stream);

// grad_value, grad_locations and grad_weights must be zeroed by the caller (they are accumulated).
cudaError_t launch_ms_deform_attn_backward(const float* value, const float* locations, const float* weights,
                                           const float* grad_out, float* grad_value, float* grad_locations,
                                           float* grad_weights, DeformableLevels levels, DeformableDims dims,
                                           cudaStream_t stream);

}  // namespace libreyolo::kernels::cuda
