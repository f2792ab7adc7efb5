#include "kernels/fake_quant_slot.h"

#include "quant/fake_quant.h"
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/fake_quant_fp8_cuda.h"
#include "kernels/in_tree_cuda.h"
#endif

namespace libreyolo::kernels {

Slot<FakeQuantSignature>& fake_quant_fp8_slot() {
    static Slot<FakeQuantSignature>& slot = []() -> Slot<FakeQuantSignature>& {
        static Slot<FakeQuantSignature> s(
            "fake_quant_fp8",
            "FP8 E4M3 fake quantization: (x, broadcastable scale) -> x on the E4M3 grid, STE gradient",
            &quant::fake_quant_fp8_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::fake_quant_fp8, &cuda::fake_quant_fp8_accepts);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
