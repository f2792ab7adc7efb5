#include "kernels/fake_quant_slot.h"

#include "quant/fake_quant.h"
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/fake_quant_fp8_cuda.h"
#endif

namespace libreyolo::kernels {

Slot<FakeQuantSignature>& fake_quant_fp8_slot() {
    static Slot<FakeQuantSignature>& slot = []() -> Slot<FakeQuantSignature>& {
        static Slot<FakeQuantSignature> s(
            "fake_quant_fp8",
            "FP8 E4M3 fake quantization: (x, broadcastable scale) -> x on the E4M3 grid, STE gradient",
            &quant::fake_quant_fp8_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        if (torch::cuda::is_available())
            s.register_impl("cuda", kInTreeCudaProvider, &cuda::fake_quant_fp8, &cuda::fake_quant_fp8_accepts);
        else
            s.register_unavailable("cuda", kInTreeCudaProvider, "no CUDA device");
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
