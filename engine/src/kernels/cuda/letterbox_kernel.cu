#include "kernels/cuda/element_conversions.cuh"
#include "kernels/cuda/letterbox_kernel.h"

namespace libreyolo::kernels::cuda {
namespace {

// OpenCV INTER_LINEAR's taps for output position i of `out` from `in` (letterbox_slot.cpp's
// linear_taps, operation for operation).
struct Tap {
    int first, second;
    float weight;
};

__device__ Tap linear_tap(int i, float scale, int in) {
    const float source = fmaxf(__fsub_rn(__fmul_rn(__fadd_rn(static_cast<float>(i), 0.5f), scale), 0.5f), 0.0f);
    float first = floorf(source);
    float weight = __fsub_rn(source, first);
    if (first >= static_cast<float>(in - 1)) {
        first = static_cast<float>(in - 1);
        weight = 0.0f;
    }
    const int index = static_cast<int>(first);
    return {index, min(index + 1, in - 1), weight};
}

__device__ float lerp_rn(float a, float b, float weight) {
    return __fadd_rn(__fmul_rn(a, __fsub_rn(1.0f, weight)), __fmul_rn(b, weight));
}

template <class T>
__global__ void letterbox_kernel(LetterboxLaunch p, float scale_y, float scale_x) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    const int b = blockIdx.z;
    if (x >= p.width) return;
    float rgb[3] = {p.fill, p.fill, p.fill};
    if (y < p.image_height && x < p.image_width) {
        const Tap ty = linear_tap(y, scale_y, p.source_height);
        const Tap tx = linear_tap(x, scale_x, p.source_width);
        const std::uint8_t* image = p.pixels + b * p.batch_stride;
        const std::uint8_t* top = image + ty.first * p.row_stride;
        const std::uint8_t* bottom = image + ty.second * p.row_stride;
        for (int c = 0; c < 3; ++c) {
            const float upper = lerp_rn(top[tx.first * 3 + c], top[tx.second * 3 + c], tx.weight);
            const float lower = lerp_rn(bottom[tx.first * 3 + c], bottom[tx.second * 3 + c], tx.weight);
            rgb[c] = __fmul_rn(lerp_rn(upper, lower, ty.weight), p.pixel_scale);
        }
    }
    T* canvas = static_cast<T*>(p.canvas);
    const std::int64_t plane = std::int64_t(p.height) * p.width;
    const std::int64_t pixel = std::int64_t(y) * p.width + x;
    if (p.channels_last) {
        T* out = canvas + (b * plane + pixel) * 3;
        for (int c = 0; c < 3; ++c) out[c] = from_float<T>(rgb[c]);
    } else {
        T* out = canvas + b * plane * 3 + pixel;
        for (int c = 0; c < 3; ++c) out[c * plane] = from_float<T>(rgb[c]);
    }
}

}  // namespace

cudaError_t launch_letterbox(const LetterboxLaunch& p, cudaStream_t stream) {
    if (p.batch == 0 || p.height == 0 || p.width == 0) return cudaSuccess;
    constexpr int kThreads = 128;
    const dim3 grid((p.width + kThreads - 1) / kThreads, p.height, p.batch);
    // Python's float(in / out), as letterbox_slot.cpp computes it.
    const float scale_y = static_cast<float>(static_cast<double>(p.source_height) / p.image_height);
    const float scale_x = static_cast<float>(static_cast<double>(p.source_width) / p.image_width);
    switch (p.type) {
        case CanvasType::Float32:
            letterbox_kernel<float><<<grid, kThreads, 0, stream>>>(p, scale_y, scale_x);
            break;
        case CanvasType::Float16:
            letterbox_kernel<__half><<<grid, kThreads, 0, stream>>>(p, scale_y, scale_x);
            break;
        case CanvasType::BFloat16:
            letterbox_kernel<__nv_bfloat16><<<grid, kThreads, 0, stream>>>(p, scale_y, scale_x);
            break;
    }
    return cudaGetLastError();
}

}  // namespace libreyolo::kernels::cuda
