#pragma once
// GPU time of a piece of work, bracketed by CUDA events on the current stream: what the GPU
// benchmarks measure (after their warm-up), as the median or the fastest of many runs.
#include <ATen/cuda/CUDAEvent.h>

#include <algorithm>
#include <utility>
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

// The medians of two pieces of work timed in alternation, run after run, so that both see the
// same host (launch-bound work moves with the host's load from one moment to the next).
template <typename FnA, typename FnB>
std::pair<double, double> paired_median_gpu_ms(FnA&& a, FnB&& b, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) a(), b();
    std::vector<double> ms_a, ms_b;
    for (int i = 0; i < runs; ++i) {
        ms_a.push_back(gpu_ms(a));
        ms_b.push_back(gpu_ms(b));
    }
    return {median(ms_a), median(ms_b)};
}

template <typename Fn>
double fastest_gpu_ms(Fn&& fn, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) fn();
    double best = 1e30;
    for (int i = 0; i < runs; ++i) best = std::min(best, gpu_ms(fn));
    return best;
}
