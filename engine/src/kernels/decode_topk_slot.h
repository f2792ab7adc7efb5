#pragma once
// The decode_topk slot: a DFL head's maps to the candidate detections of a score threshold, the
// part of LibreYOLO's YOLOv9 postprocess that runs before NMS, in one step that a CUDA graph can
// record (no host synchronisation, fixed-size output). Per image it decodes each anchor's box
// (kernels/dfl_decode.h, computed in float32 whatever the maps' dtype) and keeps every (anchor, class)
// whose sigmoid score is above conf, in the order of LibreYOLO's nonzero over the (anchor, class)
// scores, so that top-k and NMS see the same candidates in the same order.
//
// The result is one int32 tensor, read with CandidateLayout: a header (anchors, classes, batch),
// each image's candidate count, then per image the boxes of its anchors (float32 x1 y1 x2 y2 in
// input pixels; only the anchors that have a candidate are guaranteed written) and its candidates
// as pairs (anchor · classes + class, float32 score bits), count of them. Room for every pair of
// every anchor: the count never overflows.
//
// Reference: LibTorch operations in float32, capturable (the ordering by a prefix sum and a
// scatter). The CUDA implementation is one kernel (and a reset of its tile counters): one thread
// per anchor, tiles ordered by a ticket and chained by their candidate totals.
#include <torch/torch.h>

#include <vector>

#include "kernels/slot.h"

namespace libreyolo::kernels {

struct DflHead {
    std::vector<double> strides;  // per level
    int64_t reg_max = 16;
    int64_t classes = 80;
};

// Where things are in the packed result (word offsets into the int32 tensor).
struct CandidateLayout {
    static constexpr int64_t kHeaderWords = 4;  // anchors, classes, batch, 0
    int64_t batch = 0, anchors = 0, classes = 0;

    int64_t count_word(int64_t image) const { return kHeaderWords + image; }
    int64_t images_begin() const { return (kHeaderWords + batch + 3) / 4 * 4; }
    int64_t image_words() const { return 4 * anchors + 2 * anchors * classes; }
    int64_t boxes_begin(int64_t image) const { return images_begin() + image * image_words(); }
    int64_t pairs_begin(int64_t image) const { return boxes_begin(image) + 4 * anchors; }
    int64_t words() const { return images_begin() + batch * image_words(); }
};

// levels: (B, 4·reg_max + classes, H, W) per stride, one dtype and device, any strides. Throws
// InvalidArgument for levels that do not fit the head or too many pairs for int32 indices.
CandidateLayout candidate_layout(const std::vector<torch::Tensor>& levels, const DflHead& head);

torch::Tensor decode_topk_reference(const std::vector<torch::Tensor>& levels, const DflHead& head, double conf);

using DecodeTopkSignature = torch::Tensor(const std::vector<torch::Tensor>& levels, const DflHead& head, double conf);

Slot<DecodeTopkSignature>& decode_topk_slot();

}  // namespace libreyolo::kernels
