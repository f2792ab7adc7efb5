#include "kernels/nms_slot.h"

#include "predict/nms.h"

namespace libreyolo::kernels {

Slot<NmsSignature>& nms_slot() {
    static Slot<NmsSignature> slot("nms", "class-aware NMS: (boxes, scores, classes, iou) -> kept indices",
                                   &predict::nms_keep);
    return slot;
}

}  // namespace libreyolo::kernels
