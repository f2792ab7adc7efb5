#pragma once
// The CUDA NMS kernels, behind plain launchers (no torch header reaches nvcc).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo_cuda_nms {

constexpr int kBoxesPerWord = 64;

// boxes: n × 4 floats (x1, y1, x2, y2), sorted by descending score; classes: n int64 or nullptr.
// Writes keep[i] = 1 for the boxes greedy NMS keeps, 0 for the others. With classes, boxes of
// different classes never suppress each other. A pair suppresses when its IoU, rounded as the
// portable implementation rounds it, is above iou_threshold. mask: scratch of
// n × ceil(n / 64) uint64 words.
cudaError_t launch_nms(const float* boxes, const std::int64_t* classes, std::int64_t n, float iou_threshold,
                       unsigned long long* mask, std::uint8_t* keep, cudaStream_t stream);

// The largest n launch_nms handles: its suppression pass keeps one bit per box in shared memory.
std::int64_t nms_max_boxes();

}  // namespace libreyolo_cuda_nms
