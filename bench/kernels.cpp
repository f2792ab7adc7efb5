// Each accelerated kernel of the registry against its reference, on the GPU (spec 003): the
// fake_quant_fp8 CUDA kernel vs the reference's torch operations on the same device (8M elements,
// per-tensor and per-channel scales), the CUDA NMS plugin vs the portable NMS (30,000 candidates:
// the CUDA one from device tensors, the portable one from host tensors as prediction used to give
// it), and fused (SDPA) vs manual attention in float16 autocast at the shapes of RT-DETR's AIFI
// encoder layer (256 channels, 8 heads, the stride-32 map of a 640 and a 1280 input), launched
// eagerly and replayed from a CUDA graph (as a graphed model runs it: no launch cost, only GPU
// work). Median of `runs` after `warmup`; GPU work timed with CUDA events, the portable NMS with
// the host clock.
// Manual and fused attention are timed in alternation (each run of one followed by one of the
// other), on two modules with the same weights.
//   bench_kernels [elements=8388608] [candidates=30000] [runs=50] [warmup=10]
//                 [kernels=fake_quant_fp8,nms,attention,ms_deform_attn] [--json]
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "aifi_attention.h"
#include "bench_common.h"
#include "gpu_timing.h"
#include "kernels/deform/ms_deform_attn.h"
#include "kernels/fake_quant_slot.h"
#include "kernels/nms.h"
#include "kernels/nms_slot.h"
#include "libreyolo/kernels.h"
#include "libreyolo/version.h"
#include "quant/fake_quant.h"

namespace {

using namespace libreyolo;

std::string active(const std::string& slot) {
    for (const KernelSlotInfo& s : kernel_report())
        if (s.slot == slot) return s.active;
    return "";
}

void report(bool json, const std::string& kernel, const std::string& shape, const std::string& impl,
            double reference_ms, double fast_ms) {
    if (json)
        std::printf(
            "{\"kernel\": \"%s\", \"shape\": \"%s\", \"impl\": \"%s\", \"reference_ms\": %.4f, "
            "\"accelerated_ms\": %.4f, \"speedup\": %.2f, \"libtorch\": \"%s\"}\n",
            kernel.c_str(), shape.c_str(), impl.c_str(), reference_ms, fast_ms, reference_ms / fast_ms,
            torch_version().c_str());
    else
        std::printf("%s %s: reference %.3f ms, %s %.3f ms (%.1fx)\n", kernel.c_str(), shape.c_str(), reference_ms,
                    impl.c_str(), fast_ms, reference_ms / fast_ms);
    std::fflush(stdout);
}

void bench_fake_quant(std::int64_t elements, int warmup, int runs, bool json) {
    torch::manual_seed(0);
    const torch::Tensor x = torch::randn({elements / 4096, 4096}, torch::kCUDA);
    for (const auto& [shape, scale] :
         {std::pair{std::string("per tensor"), torch::full({}, 0.02f, torch::kCUDA)},
          std::pair{std::string("per channel"), torch::rand({elements / 4096, 1}, torch::kCUDA) * 0.05f}}) {
        torch::Tensor out;
        const double reference =
            median_gpu_ms([&] { out = kernels::fake_quant_fp8_reference(x, scale); }, warmup, runs);
        const double fast = median_gpu_ms([&] { out = kernels::fake_quant_fp8_slot()(x, scale); }, warmup, runs);
        if (!torch::equal(out, kernels::fake_quant_fp8_reference(x, scale)))
            throw std::runtime_error("fake_quant_fp8: the accelerated output differs from the reference");
        report(json, "fake_quant_fp8", std::to_string(elements) + " float32, " + shape, active("fake_quant_fp8"),
               reference, fast);
    }
}

void bench_nms(std::int64_t n, int warmup, int runs, bool json) {
    torch::manual_seed(0);
    for (const std::int64_t classes : {80, 1}) {
        const torch::Tensor xy = torch::rand({n, 2}) * 640;
        const torch::Tensor boxes = torch::cat({xy, xy + 4 + torch::rand({n, 2}) * 120}, 1);
        const torch::Tensor scores = torch::rand({n});
        const torch::Tensor cls = torch::randint(0, classes, {n}, torch::kLong);
        std::vector<double> host_ms;
        torch::Tensor reference;
        for (int i = 0; i < warmup / 5 + runs / 5; ++i) {
            const auto start = std::chrono::steady_clock::now();
            reference = kernels::nms_keep(boxes, scores, cls, 0.45);
            if (i >= warmup / 5)
                host_ms.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        const torch::Tensor b = boxes.cuda(), s = scores.cuda(), c = cls.cuda();
        torch::Tensor fast;
        const double cuda_ms = median_gpu_ms([&] { fast = kernels::nms_slot()(b, s, c, 0.45); }, warmup, runs);
        if (!torch::equal(fast.cpu(), reference)) throw std::runtime_error("nms: the CUDA kept indices differ");
        report(json, "nms", std::to_string(n) + " candidates, " + std::to_string(classes) + " classes", active("nms"),
               median(host_ms), cuda_ms);
    }
}

// GPU time of fn replayed from a CUDA graph: warmed up and captured on a side stream, as the
// engine's graphs are.
// A CUDA graph of fn (captured on a side stream after three eager passes), ready to replay.
template <typename Fn>
std::unique_ptr<at::cuda::CUDAGraph> capture(Fn&& fn) {
    auto graph = std::make_unique<at::cuda::CUDAGraph>();
    {
        const c10::cuda::CUDAStreamGuard side(c10::cuda::getStreamFromPool());
        for (int i = 0; i < 3; ++i) fn();
        graph->capture_begin();
        fn();
        graph->capture_end();
    }
    torch::cuda::synchronize();
    return graph;
}

void bench_attention(int warmup, int runs, bool json) {
    torch::manual_seed(0);
    AifiAttentionPair attention = aifi_attention_pair(256, 8);
    torch::NoGradGuard no_grad;
    for (const auto& [batch, side] : {std::pair{1, 20}, std::pair{8, 20}, std::pair{8, 40}, std::pair{32, 20}}) {
        const torch::Tensor x =
            torch::randn({batch, side * side, 256}, torch::dtype(torch::kHalf).device(torch::kCUDA));
        const torch::Tensor pos = torch::randn_like(x);
        const auto manual = aifi_layer(attention.manual, x, pos), fused = aifi_layer(attention.fused, x, pos);
        const std::string shape =
            std::to_string(batch) + "x" + std::to_string(side * side) + " tokens, 256 ch, 8 heads, fp16";
        // Alternating, run after run: eagerly both paths are bound by the host's launches.
        const auto [manual_ms, fused_ms] = paired_median_gpu_ms(manual, fused, warmup, runs);
        const auto manual_graph = capture(manual), fused_graph = capture(fused);
        const auto [manual_graph_ms, fused_graph_ms] =
            paired_median_gpu_ms([&] { manual_graph->replay(); }, [&] { fused_graph->replay(); }, warmup, runs);
        report(json, "attention", shape + ", eager", "sdpa", manual_ms, fused_ms);
        report(json, "attention", shape + ", CUDA graph", "sdpa", manual_graph_ms, fused_graph_ms);
    }
}

// LIBREYOLO_KERNELS for the calls that follow (nullptr: unset).
void set_kernel_override(const char* value) {
    if (value)
        ::setenv("LIBREYOLO_KERNELS", value, 1);
    else
        ::unsetenv("LIBREYOLO_KERNELS");
    reload_kernel_environment();
}

// RT-DETR-r18's decoder at 640: 300 queries over the stride 8/16/32 maps (8,400 cells), 8 heads
// of 32 channels, 3 levels × 4 points; forward alone (prediction) and forward + backward
// (training), the reference (grid_sample) against the CUDA kernels.
void bench_ms_deform_attn(int warmup, int runs, bool json) {
    torch::manual_seed(0);
    const kernels::DeformableSampling sampling{{{80, 80}, {40, 40}, {20, 20}}, {4, 4, 4}, false};
    const auto cuda = torch::TensorOptions().device(torch::kCUDA);
    for (const std::int64_t batch : {1, 8}) {
        const torch::Tensor value = torch::randn({batch, 8400, 8, 32}, cuda);
        const torch::Tensor locations = torch::rand({batch, 300, 8, 12, 2}, cuda);
        const torch::Tensor weights = torch::softmax(torch::randn({batch, 300, 8, 12}, cuda), -1);
        const torch::Tensor upstream = torch::randn({batch, 300, 256}, cuda);
        const std::string shape = std::to_string(batch) + "x300 queries, 8400 cells, 8x32 ch, 3x4 points";
        const auto forward = [&] {
            torch::NoGradGuard no_grad;
            return kernels::ms_deform_attn_slot()(value, locations, weights, sampling);
        };
        const auto leaves = [&] {
            return std::vector<torch::Tensor>{value.detach().requires_grad_(true),
                                              locations.detach().requires_grad_(true),
                                              weights.detach().requires_grad_(true)};
        };
        const auto forward_backward = [&] {
            const auto l = leaves();
            kernels::ms_deform_attn_slot()(l[0], l[1], l[2], sampling).backward(upstream);
        };
        set_kernel_override("reference");
        const double reference_forward = median_gpu_ms(forward, warmup, runs);
        const double reference_both = median_gpu_ms(forward_backward, warmup, runs);
        const torch::Tensor reference_out = forward();
        set_kernel_override(nullptr);
        const double fast_forward = median_gpu_ms(forward, warmup, runs);
        const double fast_both = median_gpu_ms(forward_backward, warmup, runs);
        const double error = ((forward() - reference_out).abs().max() / reference_out.abs().max()).item<double>();
        if (error > 1e-5) throw std::runtime_error("ms_deform_attn: the CUDA forward is off the reference");
        report(json, "ms_deform_attn", shape + ", forward", active("ms_deform_attn"), reference_forward, fast_forward);
        report(json, "ms_deform_attn", shape + ", forward+backward", active("ms_deform_attn"), reference_both,
               fast_both);
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"elements", "8388608"},
                                               {"candidates", "30000"},
                                               {"runs", "50"},
                                               {"warmup", "10"},
                                               {"kernels", "fake_quant_fp8,nms,attention,ms_deform_attn"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_kernels", args, json)) return 2;
    try {
        if (!torch::cuda::is_available()) throw std::runtime_error("needs a CUDA device");
        const int warmup = std::stoi(args["warmup"]), runs = std::stoi(args["runs"]);
        const std::vector<std::string> chosen = split_list(args["kernels"]);
        const auto wanted = [&](const std::string& k) {
            return std::find(chosen.begin(), chosen.end(), k) != chosen.end();
        };
        for (const std::string& k : chosen)
            if (k != "fake_quant_fp8" && k != "nms" && k != "attention" && k != "ms_deform_attn")
                throw std::runtime_error("unknown kernel '" + k + "' in kernels=");
        if (wanted("fake_quant_fp8")) bench_fake_quant(std::stoll(args["elements"]), warmup, runs, json);
        if (wanted("nms")) bench_nms(std::stoll(args["candidates"]), warmup, runs, json);
        if (wanted("attention")) bench_attention(warmup, runs, json);
        if (wanted("ms_deform_attn")) bench_ms_deform_attn(warmup, runs, json);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_kernels: %s\n", e.what());
        return 1;
    }
    return 0;
}
