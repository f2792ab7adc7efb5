#pragma once
// From the network's decoded output to detections in original-image pixels, as LibreYOLO's
// YOLOv9 postprocess: multi-label candidates over conf, at most 30,000 by score, undo the
// letterbox, clamp, drop empty boxes, class-aware NMS, keep the best max_det. Its YOLOX
// postprocess differs only in the candidates: each box's best class, if above conf, uncapped. The NMS-free
// families (DETR) take the best max_det (query, class) scores instead, as LibreYOLO's RT-DETR
// postprocess.
#include <torch/torch.h>

#include <vector>

#include "libreyolo/families.h"
#include "libreyolo/results.h"

namespace libreyolo::predict {

inline constexpr int64_t kMaxNmsCandidates = 30000;

struct PostprocessOptions {
    float conf = 0.25f;
    float iou = 0.45f;
    int max_det = 300;
    int input_h = 640, input_w = 640;
    int orig_h = 0, orig_w = 0;
    InputResize resize = InputResize::Letterbox;  // how the image became the input
    bool best_class_only = false;                 // FamilyTraits::best_class_only
};

// prediction: (4 + nc, anchors) for one image.
std::vector<Detection> postprocess_detections(const torch::Tensor& prediction, const PostprocessOptions& options);

// The rest of postprocess_detections once the candidates are selected: boxes (N, 4) xyxy in input
// pixels, their scores (N) and classes (N), in nonzero order, on any device (the CPU or where the
// network ran). The best max(max_det, 30,000) by score, then the boxes in original pixels, NMS
// and max_det.
std::vector<Detection> detections_of_candidates(torch::Tensor boxes, torch::Tensor conf, torch::Tensor class_ids,
                                                const PostprocessOptions& options);

// prediction: (4 + nc, queries) for one image. The best max_det of the queries × classes scores
// (a query may give several classes), those above conf, boxes in original pixels, not clamped.
// iou is not used.
std::vector<Detection> top_k_detections(const torch::Tensor& prediction, const PostprocessOptions& options);

}  // namespace libreyolo::predict
