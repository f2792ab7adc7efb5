#pragma once
// LibreYOLO's embedded NMS (export/nms.py, EmbeddedNMSDetector) as ONNX nodes: from a detector's
// raw output (1, 4 + nc, N), xyxy boxes in input pixels then class probabilities, the post-NMS
// detections (1, max_det, 6) rows [x1, y1, x2, y2, score, class], zero rows past the count. Every
// (anchor, class) pair scoring above conf is a candidate (the best max(max_det, 30000) scores
// first), boxes clamped to the canvas, suppression class-aware through a per-class coordinate
// offset, in float32 whatever the network's type. Batch 1.
#include <cstdint>
#include <string>

#include "onnx/onnx_graph.h"

namespace libreyolo::onnx {

struct EmbeddedNms {
    int64_t classes = 0;  // nc
    int64_t anchors = 0;  // N
    int64_t canvas = 0;   // the square input's side, in pixels
    float conf = 0.25f;
    float iou = 0.45f;
    int64_t max_det = 300;
    int64_t max_candidates = 30000;  // LibreYOLO's _YOLO9_MAX_NMS_CANDIDATES
};

// Returns the detections' value name.
std::string embedded_nms(Graph& g, const std::string& raw, const EmbeddedNms& nms);

}  // namespace libreyolo::onnx
