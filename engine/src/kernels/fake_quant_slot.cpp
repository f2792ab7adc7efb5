#include "kernels/fake_quant_slot.h"

#include "quant/fake_quant.h"

namespace libreyolo::kernels {

Slot<FakeQuantSignature>& fake_quant_fp8_slot() {
    static Slot<FakeQuantSignature> slot(
        "fake_quant_fp8", "FP8 E4M3 fake quantization: (x, broadcastable scale) -> x on the E4M3 grid, STE gradient",
        &quant::fake_quant_fp8_reference);
    return slot;
}

}  // namespace libreyolo::kernels
