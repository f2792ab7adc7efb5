#include "kernels/nms_slot.h"

#include "kernels/nms.h"

namespace libreyolo::kernels {

Slot<NmsSignature>& nms_slot() {
    static Slot<NmsSignature> slot("nms", "class-aware NMS: (boxes, scores, classes, iou) -> kept indices",
                                   &kernels::nms_keep);
    return slot;
}

}  // namespace libreyolo::kernels
