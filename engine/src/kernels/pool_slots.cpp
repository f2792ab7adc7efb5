#include "kernels/pool_slots.h"

#include "kernels/in_tree_cuda.h"
#include "libreyolo/errors.h"

#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/pool_cuda.h"
#endif

namespace libreyolo::kernels {

namespace F = torch::nn::functional;

torch::Tensor spp_max_pool_reference(const torch::Tensor& buffer, int64_t channels) {
    if (buffer.dim() != 4 || channels <= 0 || buffer.size(1) != 4 * channels)
        throw InvalidArgument("spp_max_pool: the buffer must be (B, 4·channels, H, W) with channels > 0");
    for (int64_t k = 1; k < 4; ++k)
        buffer.slice(1, k * channels, (k + 1) * channels)
            .copy_(F::max_pool2d(buffer.slice(1, (k - 1) * channels, k * channels),
                                 F::MaxPool2dFuncOptions(5).stride(1).padding(2)));
    return buffer;
}

torch::Tensor avg_pool_2x2_reference(const torch::Tensor& x) {
    if (x.dim() != 4 || x.size(2) < 2 || x.size(3) < 2)
        throw InvalidArgument("avg_pool_2x2: x must be (B, C, H, W) with H, W >= 2");
    return F::avg_pool2d(x, F::AvgPool2dFuncOptions(2).stride(1).padding(0).ceil_mode(false).count_include_pad(true));
}

Slot<SppMaxPoolSignature>& spp_max_pool_slot() {
    static Slot<SppMaxPoolSignature>& slot = []() -> Slot<SppMaxPoolSignature>& {
        static Slot<SppMaxPoolSignature> s(
            "spp_max_pool", "SPPELAN's three cascaded 5x5 max pools, in place: (buffer (B, 4c, H, W), c) -> buffer",
            &spp_max_pool_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::spp_max_pool, &cuda::spp_max_pool_accepts);
#endif
        return s;
    }();
    return slot;
}

Slot<AvgPool2x2Signature>& avg_pool_2x2_slot() {
    static Slot<AvgPool2x2Signature>& slot = []() -> Slot<AvgPool2x2Signature>& {
        static Slot<AvgPool2x2Signature> s("avg_pool_2x2",
                                           "avg_pool2d(x, 2, stride 1, padding 0): (x) -> (B, C, H - 1, W - 1)",
                                           &avg_pool_2x2_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::avg_pool_2x2, &cuda::avg_pool_2x2_accepts);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
