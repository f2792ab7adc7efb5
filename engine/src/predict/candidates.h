#pragma once
// The fused GPU path's candidates (kernels/decode_topk_slot.h) to detections: the counts and the
// few candidates a predict call usually has travel to the host in three small copies and finish
// there; many (a low conf, as validation's) finish on the device, as postprocess_detections does.
// Either way the same candidates in the same order meet the same top-k, NMS and max_det.
#include <torch/torch.h>

#include <vector>

#include "kernels/decode_topk_slot.h"
#include "predict/postprocess.h"

namespace libreyolo::predict {

// Up to this many candidates an image finishes on the host.
inline constexpr int64_t kHostCandidates = 4096;

class PackedCandidates {
public:
    // packed: decode_topk's result (on any device); reads its header and counts.
    explicit PackedCandidates(const torch::Tensor& packed);

    const kernels::CandidateLayout& layout() const { return layout_; }
    int64_t count(int64_t image) const { return counts_.at(static_cast<std::size_t>(image)); }
    // The candidates of one image as postprocess_detections's multi-label selection gives them:
    // boxes (N, 4) in input pixels, scores (N), classes (N, int64), on `device`. Throws
    // libreyolo::Error for a corrupt header or count.
    struct Selected {
        torch::Tensor boxes, conf, class_ids;
    };
    Selected select(int64_t image, const torch::Device& device) const;
    // select() on the host or the device (by the count), then detections_of_candidates.
    std::vector<Detection> detections(int64_t image, const PostprocessOptions& options) const;

private:
    torch::Tensor packed_;
    kernels::CandidateLayout layout_;
    std::vector<int64_t> counts_;
};

}  // namespace libreyolo::predict
