#pragma once
// GPU time of a piece of work, bracketed by CUDA events on the current stream: what the GPU
// benchmarks measure (after their warm-up), as the median or the fastest of many runs.
#include <ATen/cuda/CUDAEvent.h>

#include <algorithm>
#include <vector>

#include "bench_common.h"

template <typename Fn>
double gpu_ms(Fn&& fn) {
    at::cuda::CUDAEvent start(cudaEventDefault), end(cudaEventDefault);
    start.record();
    fn();
    end.record();
    end.synchronize();
    return start.elapsed_time(end);
}

template <typename Fn>
double median_gpu_ms(Fn&& fn, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) fn();
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) ms.push_back(gpu_ms(fn));
    return median(ms);
}

template <typename Fn>
double fastest_gpu_ms(Fn&& fn, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) fn();
    double best = 1e30;
    for (int i = 0; i < runs; ++i) best = std::min(best, gpu_ms(fn));
    return best;
}
