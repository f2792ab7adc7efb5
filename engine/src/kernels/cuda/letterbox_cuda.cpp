#include "kernels/cuda/letterbox_cuda.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <limits>

#include "kernels/cuda/letterbox_kernel.h"
#include "libreyolo/errors.h"

namespace libreyolo::kernels::cuda {
namespace {

bool int_sized(int64_t v) {
    return v >= 0 && v <= std::numeric_limits<int>::max();
}

}  // namespace

bool letterbox_accepts(const torch::Tensor& pixels, const InputCanvas& c) {
    const auto dtype = c.dtype;
    if (!pixels.is_cuda() || pixels.dim() != 4 || pixels.size(1) != 3 || pixels.scalar_type() != torch::kUInt8)
        return false;
    if (dtype != torch::kFloat32 && dtype != torch::kFloat16 && dtype != torch::kBFloat16) return false;
    // Interleaved channels, packed pixels; rows and images at any stride.
    if (pixels.stride(1) != 1 || pixels.stride(3) != 3) return false;
    return int_sized(pixels.size(0)) && int_sized(pixels.size(2)) && int_sized(pixels.size(3)) && int_sized(c.height) &&
           int_sized(c.width) && c.height < 65536 && pixels.size(0) < 65536 && c.image_height >= 1 &&
           c.image_width >= 1 && c.image_height <= c.height && c.image_width <= c.width;
}

torch::Tensor letterbox(const torch::Tensor& pixels, const InputCanvas& c) {
    const c10::cuda::CUDAGuard guard(pixels.device());
    const auto format = c.channels_last ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
    torch::Tensor canvas =
        torch::empty({pixels.size(0), 3, c.height, c.width}, pixels.options().dtype(c.dtype).memory_format(format));
    LetterboxLaunch launch;
    launch.pixels = pixels.data_ptr<std::uint8_t>();
    launch.batch_stride = pixels.stride(0);
    launch.row_stride = pixels.stride(2);
    launch.batch = static_cast<int>(pixels.size(0));
    launch.source_height = static_cast<int>(pixels.size(2));
    launch.source_width = static_cast<int>(pixels.size(3));
    launch.canvas = canvas.data_ptr();
    launch.height = static_cast<int>(c.height);
    launch.width = static_cast<int>(c.width);
    launch.image_height = static_cast<int>(c.image_height);
    launch.image_width = static_cast<int>(c.image_width);
    launch.fill = static_cast<float>(c.fill) * kPixelScale;
    launch.pixel_scale = kPixelScale;
    launch.type = c.dtype == torch::kFloat16    ? CanvasType::Float16
                  : c.dtype == torch::kBFloat16 ? CanvasType::BFloat16
                                                : CanvasType::Float32;
    launch.channels_last = c.channels_last;
    const cudaError_t status = launch_letterbox(launch, c10::cuda::getCurrentCUDAStream());
    if (status != cudaSuccess) throw Error(std::string("letterbox (cuda): ") + cudaGetErrorString(status));
    return canvas;
}

}  // namespace libreyolo::kernels::cuda
