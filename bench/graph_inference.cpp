// CUDA graphs for prediction, eager against graph, on one GPU:
//  - forward latency per size, batch and dtype (CUDA events around each call, median of `replays`
//    calls after `warmup`), capture time and the memory the capture added; the same for the fused
//    inference copy (PredictOptions::fuse: BatchNorm folded, NHWC, conv_bias_act), eager and graphed,
//    its graph also captured with its independent branches on one stream (graphs/concurrent_branches.h),
//    and the kernels one replay of each graph launches;
//  - end-to-end predict latency per image (letterbox + forward + NMS + scaling, from an in-memory
//    image; wall clock, median) with cuda_graph off and on, fuse off and on, the fused path with
//    its preprocessing on the host and on the device (the letterbox slot inside its graph).
//   bench_graph_inference [models=yolo9-t,yolo9-s,yolo9-m,yolo9-c] [batches=1,8,32]
//                         [dtypes=float32,float16] [imgsz=640] [replays=200] [warmup=20] [--json]
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bench_common.h"
#include "gpu_timing.h"
#include "graphs/concurrent_branches.h"
#include "libreyolo/model.h"
#include "libreyolo/version.h"
#include "model/model_impl.h"

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"models", "yolo9-t,yolo9-s,yolo9-m,yolo9-c"},
                                               {"batches", "1,8,32"},
                                               {"dtypes", "float32,float16"},
                                               {"imgsz", "640"},
                                               {"replays", "200"},
                                               {"warmup", "20"},
                                               {"e2e_runs", "200"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_graph_inference", args, json)) return 2;
    const int imgsz = std::stoi(args["imgsz"]), replays = std::stoi(args["replays"]),
              warmup = std::stoi(args["warmup"]);
    const int e2e_runs = std::stoi(args["e2e_runs"]);
    // The in-memory image of the end-to-end rows (bench/libreyolo_graph_predict.py uses the same pixels).
    std::vector<unsigned char> pixels(640 * 480 * 3);
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>((i * 7919) % 251);
    const libreyolo::ImageView view{pixels.data(), 640, 480, 640 * 3, libreyolo::PixelFormat::RGB8};
    try {
        for (const std::string& name : split_list(args["models"]))
            for (const std::string& dtype : split_list(args["dtypes"])) {
                libreyolo::Model model = libreyolo::Model::create(name, 80, "cuda");
                model.set_dtype(dtype);
                auto& impl = model.impl();
                for (const std::string& b : split_list(args["batches"])) {
                    const int batch = std::stoi(b);
                    const torch::Tensor x = torch::rand({batch, 3, imgsz, imgsz})
                                                .to(torch::TensorOptions().device(torch::kCUDA).dtype(impl.dtype));
                    torch::InferenceMode guard;
                    const double eager_ms =
                        median_gpu_ms([&] { impl.forward(x, libreyolo::GraphMode::Off); }, warmup, replays);
                    model.capture_graph(imgsz, batch);
                    const double graph_ms =
                        median_gpu_ms([&] { impl.forward(x, libreyolo::GraphMode::On); }, warmup, replays);
                    const libreyolo::GraphInfo g = model.graph_info().front();
                    // The first fused call of a batch size builds cuDNN's fused engines for its shapes
                    // (and, the first time, the fused copy): what a user waits for once.
                    const auto first_started = std::chrono::steady_clock::now();
                    impl.forward(x, libreyolo::GraphMode::Off, true);
                    torch::cuda::synchronize();
                    const double fused_first_ms =
                        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_started)
                            .count();
                    const double fused_eager_ms =
                        median_gpu_ms([&] { impl.forward(x, libreyolo::GraphMode::Off, true); }, warmup, replays);
                    // GraphMode::On captures on the first call, inside the warm-up.
                    const double fused_graph_ms =
                        median_gpu_ms([&] { impl.forward(x, libreyolo::GraphMode::On, true); }, warmup, replays);
                    int fused_kernels = 0;
                    for (const libreyolo::GraphInfo& info : model.graph_info())
                        if (info.fused) fused_kernels = info.kernels;
                    model.release_graphs();
                    libreyolo::graphs::set_concurrent_branches(false);
                    const double one_stream_ms =
                        median_gpu_ms([&] { impl.forward(x, libreyolo::GraphMode::On, true); }, warmup, replays);
                    libreyolo::graphs::set_concurrent_branches(true);
                    std::printf(
                        json
                            ? "{\"kind\": \"forward\", \"model\": \"%s\", \"dtype\": \"%s\", \"batch\": %d, \"imgsz\": "
                              "%d, "
                              "\"eager_ms\": %.4f, \"graph_ms\": %.4f, \"capture_ms\": %.1f, \"pool_mib\": %.1f, "
                              "\"fused_first_ms\": %.1f, \"fused_eager_ms\": %.4f, \"fused_graph_ms\": %.4f, "
                              "\"fused_graph_one_stream_ms\": %.4f, \"kernels\": %d, \"fused_kernels\": %d}\n"
                            : "%s %s batch %d imgsz %d: eager %.3f ms, graph %.3f ms, capture %.1f ms, pool %.1f "
                              "MiB; fused: first call %.1f ms, eager %.3f ms, graph %.3f ms (one stream %.3f ms); "
                              "kernels per replay %d, fused %d\n",
                        name.c_str(), dtype.c_str(), batch, imgsz, eager_ms, graph_ms, g.capture_ms,
                        g.pool_bytes / 1048576.0, fused_first_ms, fused_eager_ms, fused_graph_ms, one_stream_ms,
                        g.kernels, fused_kernels);
                    std::fflush(stdout);
                    model.release_graphs();
                }
                // End to end, one image at a time, as a user's predict call runs. The fused path three
                // times: preprocessing on the host (LIBREYOLO_FUSED_PIXELS=0), on the device in its
                // graph, and there with the candidates selected after the graph
                // (LIBREYOLO_FUSED_CANDIDATES=0) rather than in it.
                struct Route {
                    bool fuse;
                    const char* pixels;
                    const char* candidates;  // where the fused path selects them: "graph" or "post"
                };
                for (const Route route : {Route{false, "host", "post"}, Route{true, "host", "graph"},
                                          Route{true, "device", "post"}, Route{true, "device", "graph"}})
                    for (const libreyolo::GraphMode mode : {libreyolo::GraphMode::Off, libreyolo::GraphMode::On}) {
                        const bool fuse = route.fuse;
                        setenv("LIBREYOLO_FUSED_PIXELS", std::string_view(route.pixels) == "host" ? "0" : "1", 1);
                        setenv("LIBREYOLO_FUSED_CANDIDATES", std::string_view(route.candidates) == "post" ? "0" : "1",
                               1);
                        libreyolo::PredictOptions o;
                        o.imgsz = imgsz;
                        o.cuda_graph = mode;
                        o.fuse = fuse;
                        std::vector<double> wall, pre, infer, post;
                        for (int i = 0; i < warmup + e2e_runs; ++i) {
                            const auto t0 = std::chrono::steady_clock::now();
                            const auto r = model.predict({view}, o);
                            const double ms =
                                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                                    .count();
                            if (i < warmup) continue;
                            wall.push_back(ms);
                            pre.push_back(r[0].speed.preprocess_ms);
                            infer.push_back(r[0].speed.inference_ms);
                            post.push_back(r[0].speed.postprocess_ms);
                        }
                        std::printf(
                            json ? "{\"kind\": \"predict\", \"model\": \"%s\", \"dtype\": \"%s\", \"fuse\": %s, "
                                   "\"cuda_graph\": \"%s\", \"pixels\": \"%s\", \"candidates\": \"%s\", "
                                   "\"imgsz\": %d, \"end_to_end_ms\": %.3f, \"pre_ms\": %.3f, \"infer_ms\": %.3f, "
                                   "\"post_ms\": %.3f}\n"
                                 : "%s %s predict fuse=%s cuda_graph=%s preprocessing on the %s, candidates in the %s, "
                                   "imgsz %d: "
                                   "end-to-end %.3f ms (pre %.3f, forward %.3f, post %.3f)\n",
                            name.c_str(), dtype.c_str(), fuse ? "true" : "false", libreyolo::to_string(mode),
                            route.pixels, route.candidates, imgsz, median(wall), median(pre), median(infer),
                            median(post));
                        std::fflush(stdout);
                    }
                model.release_graphs();
            }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_graph_inference: %s\n", e.what());
        return 1;
    }
    return 0;
}
