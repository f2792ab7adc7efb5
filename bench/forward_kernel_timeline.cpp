// Where a graphed forward's GPU time goes, kernel by kernel: the forward's CUDA graph (fused or not)
// replayed under LibTorch's Kineto profiler (CUPTI), one replay per profiling session, and of the
// `replays` sessions the one of median span kept. For it:
//  - a summary row: span (first kernel's start to last kernel's end), the summed kernel time, the
//    time at least one kernel runs (the union of their intervals) and the rest, where the GPU waits
//    between dependent kernels (launch latency inside the graph), and the kernels per stream;
//  - one row per kernel, in start order: offset from the span's start, duration, stream, name
//    (bench/kernel_timeline.py groups them by category and lists the longest).
//   bench_forward_kernel_timeline [models=yolo9-t] [dtype=float16] [batch=1] [imgsz=640] [fuse=1]
//                                 [replays=9] [warmup=20] [--json]
#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench_common.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

namespace {

namespace profiler = torch::autograd::profiler;
namespace profiler_impl = torch::profiler::impl;

struct Kernel {
    uint64_t start_ns, end_ns;
    int64_t stream;
    std::string name;
};

// The CUDA activity of one call of `run`, in start order.
template <typename Fn>
std::vector<Kernel> profile_once(Fn&& run) {
    const profiler_impl::ProfilerConfig config(profiler_impl::ProfilerState::KINETO);
    const std::set<profiler_impl::ActivityType> activities{profiler_impl::ActivityType::CUDA};
    profiler::prepareProfiler(config, activities);
    profiler::enableProfiler(config, activities);
    run();
    torch::cuda::synchronize();
    const std::unique_ptr<profiler::ProfilerResult> result = profiler::disableProfiler();
    std::vector<Kernel> kernels;
    for (const profiler::KinetoEvent& e : result->events())
        if (e.deviceType() == c10::DeviceType::CUDA && e.durationNs() > 0)
            kernels.push_back({e.startNs(), e.endNs(), e.deviceResourceId(), e.name()});
    std::sort(kernels.begin(), kernels.end(), [](const Kernel& a, const Kernel& b) { return a.start_ns < b.start_ns; });
    return kernels;
}

uint64_t span_ns(const std::vector<Kernel>& k) {
    if (k.empty()) return 0;
    uint64_t end = 0;
    for (const Kernel& e : k) end = std::max(end, e.end_ns);
    return end - k.front().start_ns;
}

// Nanoseconds in which at least one kernel runs (kernels sorted by start).
uint64_t busy_ns(const std::vector<Kernel>& k) {
    uint64_t busy = 0, open_start = 0, open_end = 0;
    bool open = false;
    for (const Kernel& e : k) {
        if (open && e.start_ns <= open_end) {
            open_end = std::max(open_end, e.end_ns);
            continue;
        }
        if (open) busy += open_end - open_start;
        open_start = e.start_ns, open_end = e.end_ns, open = true;
    }
    return open ? busy + open_end - open_start : busy;
}

std::string json_escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"models", "yolo9-t"}, {"dtype", "float16"}, {"batch", "1"},
                                               {"imgsz", "640"},      {"fuse", "1"},        {"replays", "9"},
                                               {"warmup", "20"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_forward_kernel_timeline", args, json)) return 2;
    const int batch = std::stoi(args["batch"]), imgsz = std::stoi(args["imgsz"]), replays = std::stoi(args["replays"]),
              warmup = std::stoi(args["warmup"]);
    const bool fuse = args["fuse"] == "1" || args["fuse"] == "true";
    try {
        for (const std::string& name : split_list(args["models"])) {
            libreyolo::Model model = libreyolo::Model::create(name, 80, "cuda");
            model.set_dtype(args["dtype"]);
            auto& impl = model.impl();
            const torch::Tensor x =
                torch::rand({batch, 3, imgsz, imgsz}).to(torch::TensorOptions().device(torch::kCUDA).dtype(impl.dtype));
            torch::InferenceMode guard;
            // GraphMode::On captures on the first call; the warm-up replays it.
            for (int i = 0; i < warmup; ++i) impl.forward(x, libreyolo::GraphMode::On, fuse);
            torch::cuda::synchronize();
            std::vector<std::vector<Kernel>> runs;
            for (int i = 0; i < replays; ++i)
                runs.push_back(profile_once([&] { impl.forward(x, libreyolo::GraphMode::On, fuse); }));
            std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return span_ns(a) < span_ns(b); });
            const std::vector<Kernel>& k = runs[runs.size() / 2];
            uint64_t summed = 0;
            std::map<int64_t, int> per_stream;
            for (const Kernel& e : k) summed += e.end_ns - e.start_ns, ++per_stream[e.stream];
            const double span_us = span_ns(k) / 1e3, busy_us = busy_ns(k) / 1e3;
            std::string streams;
            for (const auto& [stream, count] : per_stream)
                streams += (streams.empty() ? "" : ", ") + std::to_string(stream) + ": " + std::to_string(count);
            if (json)
                std::printf(
                    "{\"kind\": \"summary\", \"model\": \"%s\", \"dtype\": \"%s\", \"batch\": %d, \"fuse\": %s, "
                    "\"kernels\": %zu, \"span_us\": %.1f, \"kernel_us\": %.1f, \"busy_us\": %.1f, "
                    "\"idle_us\": %.1f, \"streams\": %zu}\n",
                    name.c_str(), args["dtype"].c_str(), batch, fuse ? "true" : "false", k.size(), span_us,
                    summed / 1e3, busy_us, span_us - busy_us, per_stream.size());
            else
                std::printf(
                    "%s %s batch %d fuse=%d: %zu kernels, span %.1f us, kernel time %.1f us, busy %.1f us, "
                    "idle %.1f us; kernels per stream {%s}\n",
                    name.c_str(), args["dtype"].c_str(), batch, fuse, k.size(), span_us, summed / 1e3, busy_us,
                    span_us - busy_us, streams.c_str());
            for (const Kernel& e : k) {
                const double offset_us = (e.start_ns - k.front().start_ns) / 1e3, us = (e.end_ns - e.start_ns) / 1e3;
                if (json)
                    std::printf(
                        "{\"kind\": \"kernel\", \"model\": \"%s\", \"dtype\": \"%s\", \"batch\": %d, "
                        "\"fuse\": %s, \"offset_us\": %.2f, \"us\": %.2f, \"stream\": %lld, \"name\": \"%s\"}\n",
                        name.c_str(), args["dtype"].c_str(), batch, fuse ? "true" : "false", offset_us, us,
                        static_cast<long long>(e.stream), json_escaped(e.name).c_str());
                else
                    std::printf("  %9.2f %7.2f s%-3lld %s\n", offset_us, us, static_cast<long long>(e.stream),
                                e.name.substr(0, 140).c_str());
            }
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_forward_kernel_timeline: %s\n", e.what());
        return 1;
    }
    return 0;
}
