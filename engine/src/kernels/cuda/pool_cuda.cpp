#include "kernels/cuda/pool_cuda.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <limits>

#include "kernels/cuda/pool_kernel.h"
#include "libreyolo/errors.h"

namespace libreyolo::kernels::cuda {
namespace {

PoolType pool_type(const torch::Tensor& t) {
    return t.scalar_type() == torch::kFloat16    ? PoolType::Float16
           : t.scalar_type() == torch::kBFloat16 ? PoolType::BFloat16
                                                 : PoolType::Float32;
}

// A (B, C, H, W) map on a CUDA device in float32, float16 or bfloat16 whose channels are innermost
// and whose pixels are packed row after row (a channels-last tensor, or a channel slice of one),
// with sizes an int holds.
bool channels_last_map(const torch::Tensor& t) {
    const auto d = t.scalar_type();
    if (!t.is_cuda() || t.dim() != 4 || (d != torch::kFloat32 && d != torch::kFloat16 && d != torch::kBFloat16))
        return false;
    constexpr int64_t most = std::numeric_limits<int>::max();
    for (int64_t i = 0; i < 4; ++i)
        if (t.size(i) > most) return false;
    return t.stride(1) == 1 && t.stride(3) >= t.size(1) && t.stride(2) == t.size(3) * t.stride(3) &&
           t.stride(0) >= t.size(2) * t.stride(2);
}

PoolLaunch launch_for(const torch::Tensor& in, const torch::Tensor& out) {
    PoolLaunch p;
    p.input = in.data_ptr();
    p.output = out.data_ptr();
    p.type = pool_type(in);
    p.batch = static_cast<int>(in.size(0));
    p.height = static_cast<int>(in.size(2));
    p.width = static_cast<int>(in.size(3));
    p.input_batch_stride = in.stride(0);
    p.input_pixel_stride = in.stride(3);
    p.output_batch_stride = out.stride(0);
    p.output_pixel_stride = out.stride(3);
    return p;
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) throw Error(std::string(what) + " (cuda): " + cudaGetErrorString(status));
}

}  // namespace

bool spp_max_pool_accepts(const torch::Tensor& buffer, int64_t channels) {
    return channels > 0 && buffer.dim() == 4 && buffer.size(1) == 4 * channels && channels_last_map(buffer);
}

torch::Tensor spp_max_pool(const torch::Tensor& buffer, int64_t channels) {
    const c10::cuda::CUDAGuard guard(buffer.device());
    PoolLaunch p = launch_for(buffer, buffer);
    p.channels = static_cast<int>(channels);
    check(launch_spp_max_pool(p, c10::cuda::getCurrentCUDAStream()), "spp_max_pool");
    return buffer;
}

bool avg_pool_2x2_accepts(const torch::Tensor& x) {
    return channels_last_map(x) && x.size(2) >= 2 && x.size(3) >= 2;
}

torch::Tensor avg_pool_2x2(const torch::Tensor& x) {
    const c10::cuda::CUDAGuard guard(x.device());
    const torch::Tensor y = torch::empty({x.size(0), x.size(1), x.size(2) - 1, x.size(3) - 1},
                                         x.options().memory_format(torch::MemoryFormat::ChannelsLast));
    PoolLaunch p = launch_for(x, y);
    p.channels = static_cast<int>(x.size(1));
    check(launch_avg_pool_2x2(p, c10::cuda::getCurrentCUDAStream()), "avg_pool_2x2");
    return y;
}

}  // namespace libreyolo::kernels::cuda
