#include "kernels/cuda/decode_topk_cuda.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "kernels/cuda/decode_topk_kernel.h"
#include "libreyolo/errors.h"

namespace libreyolo::kernels::cuda {

bool decode_topk_accepts(const std::vector<torch::Tensor>& levels, const DflHead& head, double /*conf*/) {
    if (levels.empty() || static_cast<int>(levels.size()) > kMaxDecodeLevels || !levels[0].is_cuda()) return false;
    const auto dtype = levels[0].scalar_type();
    if (dtype != torch::kFloat32 && dtype != torch::kFloat16 && dtype != torch::kBFloat16) return false;
    candidate_layout(levels, head);  // throws (declines) for levels that do not fit
    return true;
}

torch::Tensor decode_topk(const std::vector<torch::Tensor>& levels, const DflHead& head, double conf) {
    const CandidateLayout layout = candidate_layout(levels, head);
    const c10::cuda::CUDAGuard guard(levels[0].device());
    const auto int32 = levels[0].options().dtype(torch::kInt32);
    torch::Tensor packed = torch::empty({layout.words()}, int32);
    const int batch = static_cast<int>(layout.batch), anchors = static_cast<int>(layout.anchors);
    torch::Tensor scratch = torch::empty({decode_topk_scratch_words(batch, anchors)}, int32);

    DecodeTopkLaunch launch;
    launch.level_count = static_cast<int>(levels.size());
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const torch::Tensor& level = levels[i];
        launch.levels[i] = {level.data_ptr(),
                            level.stride(0),
                            level.stride(1),
                            level.stride(2),
                            level.stride(3),
                            static_cast<int>(level.size(2)),
                            static_cast<int>(level.size(3)),
                            static_cast<float>(head.strides[i])};
    }
    launch.batch = batch;
    launch.anchors = anchors;
    launch.classes = static_cast<int>(layout.classes);
    launch.reg_max = static_cast<int>(head.reg_max);
    // The threshold compares in float32, as LibTorch compares a float tensor with a double scalar.
    launch.conf = static_cast<float>(conf);
    launch.type = levels[0].scalar_type() == torch::kFloat16    ? MapType::Float16
                  : levels[0].scalar_type() == torch::kBFloat16 ? MapType::BFloat16
                                                                : MapType::Float32;
    launch.packed = packed.data_ptr<std::int32_t>();
    launch.images_begin = layout.images_begin();
    launch.image_words = layout.image_words();
    launch.scratch = scratch.data_ptr<std::int32_t>();
    const cudaError_t status = launch_decode_topk(launch, c10::cuda::getCurrentCUDAStream());
    if (status != cudaSuccess) throw Error(std::string("decode_topk (cuda): ") + cudaGetErrorString(status));
    return packed;
}

}  // namespace libreyolo::kernels::cuda
