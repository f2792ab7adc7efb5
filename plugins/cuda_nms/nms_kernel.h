#pragma once
// The CUDA NMS kernels, behind plain launchers (no torch header reaches nvcc).
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo_cuda_nms {

constexpr int kBoxesPerWord = 64;

// Boxes of different classes never suppress each other, so NMS runs per class: the boxes come
// grouped by class, each group (segment) in descending score order.
struct Segments {
    const std::int64_t* start;         // first box of each segment
    const std::int64_t* size;          // boxes in each segment
    const std::int64_t* block_offset;  // segments + 1 prefix sums of ceil(size / 64)², the mask pass's blocks
    std::int64_t count;                // segments
    std::int64_t total_blocks;         // block_offset[count]
    std::int64_t max_words;            // ceil(largest size / 64)
};

// boxes: n × 4 floats (x1, y1, x2, y2), grouped into segments. Writes keep[i] = 1 for the boxes
// greedy NMS keeps within their segment, 0 for the others. A pair suppresses when its IoU, rounded
// as the portable implementation rounds it, is above iou_threshold. mask: scratch of
// n × max_words uint64 words.
cudaError_t launch_nms(const float* boxes, std::int64_t n, const Segments& segments, float iou_threshold,
                       unsigned long long* mask, std::uint8_t* keep, cudaStream_t stream);

// The largest segment launch_nms handles: its greedy pass keeps one bit per box in shared memory.
std::int64_t nms_max_boxes();

}  // namespace libreyolo_cuda_nms
