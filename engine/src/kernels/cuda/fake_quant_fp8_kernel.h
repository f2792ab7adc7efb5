#pragma once
// The CUDA kernel of the fake_quant_fp8 slot, behind a plain launcher so that only this file's
// .cu sees nvcc and no torch header does.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo::kernels::cuda {

// y[i] = x[i] + (q(x[i] / s) · s − x[i]) with s = max(scale[c], 1e-12), q = clamp to ±448 and round
// to the nearest E4M3 value; each step rounded as the reference's separate float32 kernels round
// it. x, y: n contiguous floats; scale: scale_count floats, where element i uses
// scale[(i / inner) % scale_count] (scale_count 1: per tensor; the scaled axis's inner stride else).
cudaError_t launch_fake_quant_fp8(const float* x, const float* scale, float* y, std::int64_t n,
                                  std::int64_t scale_count, std::int64_t inner, cudaStream_t stream);

}  // namespace libreyolo::kernels::cuda
