#include "nms_kernel.h"

namespace libreyolo_cuda_nms {
namespace {

constexpr int kMaxSharedWords = 6144;  // 48 KiB of shared memory: 393,216 boxes

// The portable implementation's arithmetic, operation by operation (no fused multiply-add).
__device__ bool suppresses(const float* a, const float* b, float iou_threshold) {
    const float w = fmaxf(0.0f, __fsub_rn(fminf(a[2], b[2]), fmaxf(a[0], b[0])));
    const float h = fmaxf(0.0f, __fsub_rn(fminf(a[3], b[3]), fmaxf(a[1], b[1])));
    const float inter = __fmul_rn(w, h);
    const float area_a = __fmul_rn(__fsub_rn(a[2], a[0]), __fsub_rn(a[3], a[1]));
    const float area_b = __fmul_rn(__fsub_rn(b[2], b[0]), __fsub_rn(b[3], b[1]));
    return __fdiv_rn(inter, __fsub_rn(__fadd_rn(area_a, area_b), inter)) > iou_threshold;
}

__device__ std::int64_t segment_of_block(const std::int64_t* block_offset, std::int64_t count, std::int64_t block) {
    std::int64_t lo = 0, hi = count;  // the last segment whose offset is <= block
    while (hi - lo > 1) {
        const std::int64_t mid = (lo + hi) / 2;
        if (block_offset[mid] <= block)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

// One block per (row, col) word pair of a segment, 64 × 64 box pairs: thread t sets bit j of word
// mask[(start + row·64 + t)][col] when that box suppresses box col·64 + j of its segment, for later
// boxes only.
__global__ void suppression_mask(const float* __restrict__ boxes, Segments segments, float iou_threshold,
                                 unsigned long long* __restrict__ mask) {
    const std::int64_t block = blockIdx.x;
    const std::int64_t seg = segment_of_block(segments.block_offset, segments.count, block);
    const std::int64_t start = segments.start[seg], n = segments.size[seg];
    const std::int64_t words = (n + kBoxesPerWord - 1) / kBoxesPerWord;
    const std::int64_t local = block - segments.block_offset[seg];
    const std::int64_t row = local / words, col = local % words;
    if (row > col) return;
    const std::int64_t row_size = min(n - row * kBoxesPerWord, std::int64_t(kBoxesPerWord));
    const std::int64_t col_size = min(n - col * kBoxesPerWord, std::int64_t(kBoxesPerWord));
    __shared__ float col_boxes[kBoxesPerWord * 4];
    if (threadIdx.x < col_size) {
        const std::int64_t j = start + col * kBoxesPerWord + threadIdx.x;
        for (int k = 0; k < 4; ++k) col_boxes[threadIdx.x * 4 + k] = boxes[j * 4 + k];
    }
    __syncthreads();
    if (threadIdx.x >= row_size) return;
    const std::int64_t i = start + row * kBoxesPerWord + threadIdx.x;
    const float* box = boxes + i * 4;
    unsigned long long bits = 0;
    for (std::int64_t j = row == col ? threadIdx.x + 1 : 0; j < col_size; ++j)
        if (suppresses(box, col_boxes + j * 4, iou_threshold)) bits |= 1ULL << j;
    mask[i * segments.max_words + col] = bits;
}

// One block per segment: the greedy pass in score order, 64 boxes (one mask word) at a time:
// thread 0 settles the word's own boxes from the mask's diagonal words (staged in shared memory),
// then every thread ORs the rows of the boxes it kept into the later words it owns. Two barriers
// per word, not per box.
__global__ void greedy_keep(const unsigned long long* __restrict__ mask, Segments segments,
                            std::uint8_t* __restrict__ keep) {
    extern __shared__ unsigned long long removed[];
    __shared__ unsigned long long diagonal[kBoxesPerWord];
    __shared__ unsigned long long kept_in_word;
    const std::int64_t start = segments.start[blockIdx.x], n = segments.size[blockIdx.x];
    const std::int64_t words = (n + kBoxesPerWord - 1) / kBoxesPerWord, stride = segments.max_words;
    const unsigned long long* rows = mask + start * stride;
    for (std::int64_t w = threadIdx.x; w < words; w += blockDim.x) removed[w] = 0;
    for (std::int64_t word = 0; word < words; ++word) {
        const std::int64_t base = word * kBoxesPerWord;
        const int boxes = static_cast<int>(min(n - base, std::int64_t(kBoxesPerWord)));
        __syncthreads();  // the previous word's updates (and the zeroing) are visible
        if (threadIdx.x < boxes) diagonal[threadIdx.x] = rows[(base + threadIdx.x) * stride + word];
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned long long gone = removed[word], kept = 0;
            for (int b = 0; b < boxes; ++b)
                if (!(gone >> b & 1ULL)) {
                    kept |= 1ULL << b;
                    gone |= diagonal[b];
                }
            kept_in_word = kept;
        }
        __syncthreads();
        const unsigned long long kept = kept_in_word;
        if (threadIdx.x < boxes) keep[start + base + threadIdx.x] = kept >> threadIdx.x & 1ULL;
        for (std::int64_t w = word + 1 + threadIdx.x; w < words; w += blockDim.x) {
            unsigned long long gone = removed[w];
            for (unsigned long long bits = kept; bits; bits &= bits - 1)
                gone |= rows[(base + __ffsll(static_cast<long long>(bits)) - 1) * stride + w];
            removed[w] = gone;
        }
    }
}

}  // namespace

std::int64_t nms_max_boxes() {
    return std::int64_t(kMaxSharedWords) * kBoxesPerWord;
}

cudaError_t launch_nms(const float* boxes, std::int64_t n, const Segments& segments, float iou_threshold,
                       unsigned long long* mask, std::uint8_t* keep, cudaStream_t stream) {
    if (n == 0 || segments.count == 0) return cudaSuccess;
    if (segments.max_words > kMaxSharedWords || segments.total_blocks > 0x7fffffffLL || segments.count > 0x7fffffffLL)
        return cudaErrorInvalidValue;
    suppression_mask<<<static_cast<unsigned>(segments.total_blocks), kBoxesPerWord, 0, stream>>>(boxes, segments,
                                                                                                 iou_threshold, mask);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    // Small segments need few threads: the later-word updates have at most max_words - 1 owners.
    const int threads = static_cast<int>(
        min(std::int64_t(1024), max(std::int64_t(kBoxesPerWord), ((segments.max_words + 31) / 32) * 32)));
    greedy_keep<<<static_cast<unsigned>(segments.count), threads, segments.max_words * sizeof(unsigned long long),
                  stream>>>(mask, segments, keep);
    return cudaGetLastError();
}

}  // namespace libreyolo_cuda_nms
