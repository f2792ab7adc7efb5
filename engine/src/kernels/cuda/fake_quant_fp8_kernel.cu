#include <cuda_fp8.h>

#include "kernels/cuda/fake_quant_fp8_kernel.h"

namespace libreyolo::kernels::cuda {
namespace {

constexpr float kE4M3Max = 448.0f;
constexpr float kScaleEpsilon = 1e-12f;

// The _rn intrinsics keep nvcc from fusing a multiply and an add into one FMA, which would round
// once where the reference (one kernel per operation) rounds twice.
__device__ float fake_quant(float x, float s) {
    // fminf/fmaxf drop a NaN operand where torch's clamp keeps it: NaN is passed on explicitly.
    if (!isnan(s)) s = fmaxf(s, kScaleEpsilon);
    const float divided = __fdiv_rn(x, s);
    const float scaled = isnan(divided) ? divided : fminf(fmaxf(divided, -kE4M3Max), kE4M3Max);
    const float grid = isnan(scaled) ? scaled
                                     : __half2float(__nv_cvt_fp8_to_halfraw(
                                           __nv_cvt_float_to_fp8(scaled, __NV_SATFINITE, __NV_E4M3), __NV_E4M3));
    const float quantized = __fmul_rn(grid, s);
    return __fadd_rn(x, __fsub_rn(quantized, x));
}

// Four elements per thread and iteration (16-byte loads and stores); the four share a scale, since
// the launcher only takes this path when the scaled axis's inner stride is a multiple of 4.
__global__ void fake_quant_fp8_vec4(const float4* __restrict__ x, const float* __restrict__ scale,
                                    float4* __restrict__ y, unsigned n4, unsigned scale_count, unsigned inner4) {
    const unsigned stride = blockDim.x * gridDim.x;
    const float tensor_scale = scale[0];
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        const float s = scale_count == 1 ? tensor_scale : scale[(i / inner4) % scale_count];
        float4 v = x[i];
        v.x = fake_quant(v.x, s);
        v.y = fake_quant(v.y, s);
        v.z = fake_quant(v.z, s);
        v.w = fake_quant(v.w, s);
        y[i] = v;
    }
}

__global__ void fake_quant_fp8_scalar(const float* __restrict__ x, const float* __restrict__ scale,
                                      float* __restrict__ y, std::int64_t n, std::int64_t scale_count,
                                      std::int64_t inner) {
    const std::int64_t stride = std::int64_t(blockDim.x) * gridDim.x;
    for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float s = scale_count == 1 ? scale[0] : scale[(i / inner) % scale_count];
        y[i] = fake_quant(x[i], s);
    }
}

int blocks_for(std::int64_t items, int threads) {
    const std::int64_t wanted = (items + threads - 1) / threads;
    return static_cast<int>(wanted < 65535 * 8 ? wanted : 65535 * 8);
}

}  // namespace

cudaError_t launch_fake_quant_fp8(const float* x, const float* scale, float* y, std::int64_t n,
                                  std::int64_t scale_count, std::int64_t inner, cudaStream_t stream) {
    if (n == 0) return cudaSuccess;
    constexpr int kThreads = 256;
    const bool aligned = (reinterpret_cast<std::uintptr_t>(x) | reinterpret_cast<std::uintptr_t>(y)) % 16 == 0;
    if (aligned && n % 4 == 0 && (scale_count == 1 || inner % 4 == 0) && n / 4 < (std::int64_t(1) << 32)) {
        fake_quant_fp8_vec4<<<blocks_for(n / 4, kThreads), kThreads, 0, stream>>>(
            reinterpret_cast<const float4*>(x), scale, reinterpret_cast<float4*>(y), static_cast<unsigned>(n / 4),
            static_cast<unsigned>(scale_count), static_cast<unsigned>(scale_count == 1 ? 1 : inner / 4));
    } else {
        fake_quant_fp8_scalar<<<blocks_for(n, kThreads), kThreads, 0, stream>>>(x, scale, y, n, scale_count, inner);
    }
    return cudaGetLastError();
}

}  // namespace libreyolo::kernels::cuda
