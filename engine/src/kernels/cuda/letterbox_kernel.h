#pragma once
// The CUDA kernel of the letterbox slot, behind a plain launcher so that only this file's .cu
// sees nvcc and no torch header does.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo::kernels::cuda {

enum class CanvasType { Float32, Float16, BFloat16 };

struct LetterboxLaunch {
    const std::uint8_t* pixels = nullptr;           // interleaved RGB rows
    std::int64_t batch_stride = 0, row_stride = 0;  // in bytes; a pixel is 3 bytes
    int batch = 0, source_height = 0, source_width = 0;
    void* canvas = nullptr;
    int height = 0, width = 0, image_height = 0, image_width = 0;
    float fill = 0;         // already scaled
    float pixel_scale = 0;  // 8-bit value to canvas value
    CanvasType type = CanvasType::Float32;
    bool channels_last = false;
};

// One thread per canvas pixel (its three channels): the reference's float32 operations, one
// rounding each, then the cast.
cudaError_t launch_letterbox(const LetterboxLaunch& launch, cudaStream_t stream);

}  // namespace libreyolo::kernels::cuda
