#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda/atomic>

#include <cub/block/block_scan.cuh>

#include "kernels/cuda/decode_topk_kernel.h"

namespace libreyolo::kernels::cuda {
namespace {

__device__ float to_float(float v) {
    return v;
}
__device__ float to_float(__half v) {
    return __half2float(v);
}
__device__ float to_float(__nv_bfloat16 v) {
    return __bfloat162float(v);
}

using DeviceAtomic = ::cuda::atomic_ref<std::int32_t, ::cuda::thread_scope_device>;

// LibTorch's float sigmoid on CUDA: 1 / (1 + exp(-x)), IEEE division and expf.
__device__ float sigmoid(float x) {
    return 1.0f / (1.0f + expf(-x));
}

struct AnchorRow {
    std::int64_t offset = 0;  // of channel 0, in elements
    std::int64_t channel_stride = 0;
    float x = 0, y = 0, stride = 0;  // the cell centre in level units, the level's stride
};

__device__ AnchorRow anchor_row(const DecodeTopkLaunch& p, int image, int anchor, int& level_index) {
    int l = 0;
    while (l + 1 < p.level_count && anchor >= p.levels[l].height * p.levels[l].width) {
        anchor -= p.levels[l].height * p.levels[l].width;
        ++l;
    }
    const DecodeLevel& level = p.levels[l];
    const int row = anchor / level.width, column = anchor % level.width;
    level_index = l;
    AnchorRow r;
    r.offset = image * level.batch_stride + row * level.row_stride + column * level.column_stride;
    r.channel_stride = level.channel_stride;
    r.x = static_cast<float>(column) + 0.5f;
    r.y = static_cast<float>(row) + 0.5f;
    r.stride = level.stride;
    return r;
}

// The expectation of the softmax over reg_max bins: exp(x - max) / sum per bin, as LibTorch's
// softmax, times the bin's value, summed in bin order.
template <class T>
__device__ float dfl_distance(const T* map, const AnchorRow& r, int side, int reg_max) {
    const T* bins = map + r.offset + static_cast<std::int64_t>(side) * reg_max * r.channel_stride;
    float top = -INFINITY;
    for (int i = 0; i < reg_max; ++i) top = fmaxf(top, to_float(bins[i * r.channel_stride]));
    float sum = 0;
    for (int i = 0; i < reg_max; ++i) sum += expf(to_float(bins[i * r.channel_stride]) - top);
    float distance = 0;
    for (int i = 0; i < reg_max; ++i)
        distance = __fadd_rn(distance,
                             __fmul_rn(expf(to_float(bins[i * r.channel_stride]) - top) / sum, static_cast<float>(i)));
    return distance;
}

template <class T>
__global__ void __launch_bounds__(kDecodeTileAnchors) decode_topk_kernel(DecodeTopkLaunch p) {
    using Scan = cub::BlockScan<int, kDecodeTileAnchors>;
    __shared__ typename Scan::TempStorage scan_storage;
    __shared__ int ticket_shared, tile_offset_shared;

    if (threadIdx.x == 0) ticket_shared = atomicAdd(p.scratch, 1);
    __syncthreads();
    const int tiles = (p.anchors + kDecodeTileAnchors - 1) / kDecodeTileAnchors;
    const int image = ticket_shared / tiles, tile = ticket_shared % tiles;
    const int anchor = tile * kDecodeTileAnchors + static_cast<int>(threadIdx.x);
    const bool valid = anchor < p.anchors;

    int level_index = 0;
    AnchorRow row;
    const T* map = nullptr;
    int count = 0;
    if (valid) {
        row = anchor_row(p, image, anchor, level_index);
        map = static_cast<const T*>(p.levels[level_index].data);
        const T* logits = map + row.offset + static_cast<std::int64_t>(4 * p.reg_max) * row.channel_stride;
        for (int c = 0; c < p.classes; ++c) count += sigmoid(to_float(logits[c * row.channel_stride])) > p.conf;
    }
    int before_in_tile = 0, tile_total = 0;
    Scan(scan_storage).ExclusiveSum(count, before_in_tile, tile_total);

    // Totals are stored plus one, so that zero (the reset) means "not yet".
    std::int32_t* totals = p.scratch + 1 + static_cast<std::int64_t>(image) * tiles;
    if (threadIdx.x < 32) {
        if (threadIdx.x == 0) DeviceAtomic(totals[tile]).store(tile_total + 1, ::cuda::memory_order_relaxed);
        int before_tile = 0;
        for (int t = static_cast<int>(threadIdx.x); t < tile; t += 32) {
            const DeviceAtomic total(totals[t]);
            int value;
            while ((value = total.load(::cuda::memory_order_relaxed)) == 0) {
            }
            before_tile += value - 1;
        }
        for (int shift = 16; shift > 0; shift /= 2) before_tile += __shfl_down_sync(0xffffffffu, before_tile, shift);
        if (threadIdx.x == 0) tile_offset_shared = before_tile;
    }
    __syncthreads();
    const int before_tile = tile_offset_shared;

    if (threadIdx.x == 0) {
        if (tile == tiles - 1) p.packed[4 + image] = before_tile + tile_total;
        if (ticket_shared == 0) {
            p.packed[0] = p.anchors;
            p.packed[1] = p.classes;
            p.packed[2] = p.batch;
            p.packed[3] = 0;
        }
    }
    if (count == 0) return;

    std::int32_t* words = p.packed + p.images_begin + image * p.image_words;
    float distance[4];
    for (int side = 0; side < 4; ++side) distance[side] = dfl_distance(map, row, side, p.reg_max);
    float* box = reinterpret_cast<float*>(words) + 4 * static_cast<std::int64_t>(anchor);
    box[0] = __fmul_rn(__fsub_rn(row.x, distance[0]), row.stride);
    box[1] = __fmul_rn(__fsub_rn(row.y, distance[1]), row.stride);
    box[2] = __fmul_rn(__fadd_rn(row.x, distance[2]), row.stride);
    box[3] = __fmul_rn(__fadd_rn(row.y, distance[3]), row.stride);

    std::int32_t* pair =
        words + 4 * static_cast<std::int64_t>(p.anchors) + 2 * static_cast<std::int64_t>(before_tile + before_in_tile);
    const T* logits = map + row.offset + static_cast<std::int64_t>(4 * p.reg_max) * row.channel_stride;
    for (int c = 0; c < p.classes; ++c) {
        const float score = sigmoid(to_float(logits[c * row.channel_stride]));
        if (!(score > p.conf)) continue;
        pair[0] = anchor * p.classes + c;
        pair[1] = __float_as_int(score);
        pair += 2;
    }
}

}  // namespace

int decode_topk_scratch_words(int batch, int anchors) {
    return 1 + batch * ((anchors + kDecodeTileAnchors - 1) / kDecodeTileAnchors);
}

cudaError_t launch_decode_topk(const DecodeTopkLaunch& p, cudaStream_t stream) {
    const int words = decode_topk_scratch_words(p.batch, p.anchors);
    if (cudaError_t status = cudaMemsetAsync(p.scratch, 0, sizeof(std::int32_t) * words, stream); status != cudaSuccess)
        return status;
    const dim3 grid(static_cast<unsigned>(words - 1));
    switch (p.type) {
        case MapType::Float16:
            decode_topk_kernel<__half><<<grid, kDecodeTileAnchors, 0, stream>>>(p);
            break;
        case MapType::BFloat16:
            decode_topk_kernel<__nv_bfloat16><<<grid, kDecodeTileAnchors, 0, stream>>>(p);
            break;
        default:
            decode_topk_kernel<float><<<grid, kDecodeTileAnchors, 0, stream>>>(p);
    }
    return cudaGetLastError();
}

}  // namespace libreyolo::kernels::cuda
