#pragma once
// The CUDA kernel of the decode_topk slot, behind a plain launcher so that only this file's .cu
// sees nvcc and no torch header does.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace libreyolo::kernels::cuda {

enum class MapType { Float32, Float16, BFloat16 };

inline constexpr int kMaxDecodeLevels = 6;
inline constexpr int kDecodeTileAnchors = 256;  // one thread per anchor, one tile per block

struct DecodeLevel {
    const void* data = nullptr;
    std::int64_t batch_stride = 0, channel_stride = 0, row_stride = 0, column_stride = 0;  // in elements
    int height = 0, width = 0;
    float stride = 0;
};

struct DecodeTopkLaunch {
    DecodeLevel levels[kMaxDecodeLevels];
    int level_count = 0;
    int batch = 0, anchors = 0, classes = 0, reg_max = 0;
    float conf = 0;
    MapType type = MapType::Float32;
    std::int32_t* packed = nullptr;  // CandidateLayout's words
    std::int64_t images_begin = 0, image_words = 0;
    std::int32_t* scratch = nullptr;  // decode_topk_scratch_words of them; the launcher zeroes them
};

int decode_topk_scratch_words(int batch, int anchors);

// Zeroes the scratch, then one kernel: each block takes the next tile by a ticket, counts its
// anchors' candidates, publishes its tile's total, adds up the totals of the image's earlier tiles
// (all of which hold earlier tickets, so none waits on a block that has not started), and writes
// its boxes and pairs there.
cudaError_t launch_decode_topk(const DecodeTopkLaunch& launch, cudaStream_t stream);

}  // namespace libreyolo::kernels::cuda
