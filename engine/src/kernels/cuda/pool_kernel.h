#pragma once
// The pool slots' CUDA kernels behind plain launchers, so that only the .cu sees nvcc and no torch
// header does. Maps are channels-last: element (b, y, x, c) at b·batch_stride + (y·W + x)·pixel_stride + c.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo::kernels::cuda {

enum class PoolType { Float32, Float16, BFloat16 };

struct PoolLaunch {
    const void* input = nullptr;
    void* output = nullptr;
    PoolType type = PoolType::Float32;
    int batch = 0, channels = 0, height = 0, width = 0;  // the input map's
    std::int64_t input_batch_stride = 0, input_pixel_stride = 0;
    std::int64_t output_batch_stride = 0, output_pixel_stride = 0;
};

// SPPELAN: output parts k = 1, 2, 3 (each `channels` wide, `channels` apart from the input's) get the
// max over the (4k + 1)-wide window, clipped at the border. input and output point into one buffer.
cudaError_t launch_spp_max_pool(const PoolLaunch& launch, cudaStream_t stream);

// The mean of each 2x2 window (stride 1): output (H - 1) x (W - 1).
cudaError_t launch_avg_pool_2x2(const PoolLaunch& launch, cudaStream_t stream);

}  // namespace libreyolo::kernels::cuda
