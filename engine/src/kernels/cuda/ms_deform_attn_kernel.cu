#include "kernels/cuda/ms_deform_attn_kernel.h"

namespace libreyolo::kernels::cuda {
namespace {

// The four neighbours of (h, w) on one head-channel plane of a level, each with its bilinear
// weight; a neighbour outside the map counts as zero (and takes no gradient).
struct Bilinear {
    std::int64_t offset[4];  // into value, or -1 outside
    float weight[4];
    float lh, lw;  // fractional parts, for the location gradients
};

__device__ Bilinear neighbours(float h, float w, int height, int width, std::int64_t base, std::int64_t row_stride) {
    Bilinear b;
    const int h_low = static_cast<int>(floorf(h)), w_low = static_cast<int>(floorf(w));
    const int h_high = h_low + 1, w_high = w_low + 1;
    b.lh = h - h_low;
    b.lw = w - w_low;
    const float hh = 1.0f - b.lh, hw = 1.0f - b.lw;
    const int hs[4] = {h_low, h_low, h_high, h_high}, ws[4] = {w_low, w_high, w_low, w_high};
    const float weights[4] = {hh * hw, hh * b.lw, b.lh * hw, b.lh * b.lw};
    for (int k = 0; k < 4; ++k) {
        const bool inside = hs[k] >= 0 && hs[k] < height && ws[k] >= 0 && ws[k] < width;
        b.offset[k] = inside ? base + (std::int64_t(hs[k]) * width + ws[k]) * row_stride : -1;
        b.weight[k] = weights[k];
    }
    return b;
}

// Calls visit(point, neighbours, values, H, W) for every sampling point of output element
// i = (n, q, m, d) that falls on its level's H × W map (h > -1, w > -1, h < H, w < W; the others
// add nothing): point indexes locations (·2) and weights, values are the four neighbours of this
// channel (0 outside).
template <typename Visit>
__device__ void for_each_sample(std::int64_t i, const float* __restrict__ value, const float* __restrict__ locations,
                                const DeformableLevels& levels, const DeformableDims& dims, Visit&& visit) {
    const std::int64_t row_stride = dims.heads * dims.channels;  // one cell of value
    const std::int64_t points = std::int64_t(levels.count) * dims.points;
    const std::int64_t d = i % dims.channels, m = (i / dims.channels) % dims.heads;
    const std::int64_t nq = i / (dims.channels * dims.heads), n = nq / dims.queries;
    const std::int64_t head = nq * dims.heads + m;  // (n, q, m) for locations and weights
    for (int l = 0; l < levels.count; ++l) {
        const int height = levels.height[l], width = levels.width[l];
        const std::int64_t base = (n * dims.cells + levels.start[l]) * row_stride + m * dims.channels + d;
        for (std::int64_t p = 0; p < dims.points; ++p) {
            const std::int64_t point = head * points + l * dims.points + p;
            const float h = locations[point * 2 + 1] * height - 0.5f, w = locations[point * 2] * width - 0.5f;
            if (!(h > -1.0f && w > -1.0f && h < height && w < width)) continue;
            const Bilinear b = neighbours(h, w, height, width, base, row_stride);
            float v[4];
            for (int k = 0; k < 4; ++k) v[k] = b.offset[k] >= 0 ? value[b.offset[k]] : 0.0f;
            visit(point, b, v, float(height), float(width));
        }
    }
}

// One thread per output element.
__global__ void ms_deform_attn_forward(const float* __restrict__ value, const float* __restrict__ locations,
                                       const float* __restrict__ weights, float* __restrict__ out,
                                       DeformableLevels levels, DeformableDims dims) {
    const std::int64_t total = dims.batch * dims.queries * dims.heads * dims.channels;
    const std::int64_t stride = std::int64_t(blockDim.x) * gridDim.x;
    for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
        float sum = 0.0f;
        for_each_sample(i, value, locations, levels, dims,
                        [&](std::int64_t point, const Bilinear& b, const float* v, float, float) {
                            float sampled = 0.0f;
                            for (int k = 0; k < 4; ++k)
                                if (b.offset[k] >= 0) sampled += b.weight[k] * v[k];
                            sum += weights[point] * sampled;
                        });
        out[i] = sum;
    }
}

// One thread per output element, the transposed sums: value gradients scattered to the four
// neighbours, location and weight gradients summed over the channels of the head.
__global__ void ms_deform_attn_backward(const float* __restrict__ value, const float* __restrict__ locations,
                                        const float* __restrict__ weights, const float* __restrict__ grad_out,
                                        float* __restrict__ grad_value, float* __restrict__ grad_locations,
                                        float* __restrict__ grad_weights, DeformableLevels levels,
                                        DeformableDims dims) {
    const std::int64_t total = dims.batch * dims.queries * dims.heads * dims.channels;
    const std::int64_t stride = std::int64_t(blockDim.x) * gridDim.x;
    for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
        const float g = grad_out[i];
        for_each_sample(i, value, locations, levels, dims,
                        [&](std::int64_t point, const Bilinear& b, const float* v, float height, float width) {
                            const float a = weights[point];
                            const float sampled =
                                b.weight[0] * v[0] + b.weight[1] * v[1] + b.weight[2] * v[2] + b.weight[3] * v[3];
                            for (int k = 0; k < 4; ++k)
                                if (b.offset[k] >= 0) atomicAdd(grad_value + b.offset[k], a * g * b.weight[k]);
                            atomicAdd(grad_weights + point, g * sampled);
                            const float hh = 1.0f - b.lh, hw = 1.0f - b.lw;
                            const float d_h = -hw * v[0] - b.lw * v[1] + hw * v[2] + b.lw * v[3];
                            const float d_w = -hh * v[0] + hh * v[1] - b.lh * v[2] + b.lh * v[3];
                            atomicAdd(grad_locations + point * 2, width * a * g * d_w);
                            atomicAdd(grad_locations + point * 2 + 1, height * a * g * d_h);
                        });
    }
}

int blocks_for(std::int64_t items, int threads) {
    const std::int64_t wanted = (items + threads - 1) / threads;
    return static_cast<int>(wanted < 65535 * 8 ? (wanted > 0 ? wanted : 1) : 65535 * 8);
}

constexpr int kThreads = 256;

}  // namespace

cudaError_t launch_ms_deform_attn_forward(const float* value, const float* locations, const float* weights, float* out,
                                          DeformableLevels levels, DeformableDims dims, cudaStream_t stream) {
    const std::int64_t total = dims.batch * dims.queries * dims.heads * dims.channels;
    ms_deform_attn_forward<<<blocks_for(total, kThreads), kThreads, 0, stream>>>(value, locations, weights, out, levels,
                                                                                 dims);
    return cudaGetLastError();
}

cudaError_t launch_ms_deform_attn_backward(const float* value, const float* locations, const float* weights,
                                           const float* grad_out, float* grad_value, float* grad_locations,
                                           float* grad_weights, DeformableLevels levels, DeformableDims dims,
                                           cudaStream_t stream) {
    const std::int64_t total = dims.batch * dims.queries * dims.heads * dims.channels;
    ms_deform_attn_backward<<<blocks_for(total, kThreads), kThreads, 0, stream>>>(
        value, locations, weights, grad_out, grad_value, grad_locations, grad_weights, levels, dims);
    return cudaGetLastError();
}

}  // namespace libreyolo::kernels::cuda
