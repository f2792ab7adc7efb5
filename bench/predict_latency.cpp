// Predict latency of one image, split into preprocess / inference / postprocess (median of many
// runs after warm-up). Decoding the file is outside the split, as in bench/libreyolo_predict_latency.py.
//   bench_predict_latency model=yolo9-t source=IMG imgsz=640 runs=30 warmup=5 device=cpu [fuse=true] [--json]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include <vector>
#include "bench_common.h"

#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/version.h"

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"model", "yolo9-t"}, {"source", ""},   {"imgsz", "640"},
                                               {"runs", "30"},       {"warmup", "5"},  {"device", "cpu"},
                                               {"conf", "0.25"},     {"fuse", "false"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_predict_latency", args, json)) return 2;
    if (args["source"].empty()) {
        std::fprintf(stderr, "bench_predict_latency: give source=IMAGE\n");
        return 2;
    }
    try {
        libreyolo::Model model = libreyolo::Model::load(args["model"], args["device"]);
        libreyolo::PredictOptions o;
        o.imgsz = std::stoi(args["imgsz"]);
        o.conf = std::stof(args["conf"]);
        o.fuse = args["fuse"] == "true";
        const int runs = std::stoi(args["runs"]), warmup = std::stoi(args["warmup"]);
        std::vector<double> pre, infer, post, total;
        std::size_t boxes = 0;
        for (int i = 0; i < warmup + runs; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto results = model.predict(args["source"], o);
            const double wall =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (i < warmup) continue;
            const auto& s = results.at(0).speed;
            pre.push_back(s.preprocess_ms);
            infer.push_back(s.inference_ms);
            post.push_back(s.postprocess_ms);
            total.push_back(wall);
            boxes = results[0].boxes.size();
        }
        const auto info = model.info();
        if (json) {
            std::printf(
                "{\"impl\": \"libreyolo-studio %s (libtorch %s)\", \"model\": \"%s-%s\", \"imgsz\": %d, \"device\": "
                "\"%s\", "
                "\"fuse\": %s, \"runs\": %d, \"boxes\": %zu, \"pre_ms\": %.3f, \"infer_ms\": %.3f, \"post_ms\": %.3f, "
                "\"end_to_end_ms\": %.3f}\n",
                libreyolo::version().c_str(), libreyolo::torch_version().c_str(), info.family.c_str(),
                info.size.c_str(), o.imgsz, info.device.c_str(), o.fuse ? "true" : "false", runs, boxes, median(pre),
                median(infer), median(post), median(total));
        } else {
            std::printf(
                "%s-%s imgsz %d on %s, %d runs (median): pre %.2f ms, infer %.2f ms, post %.2f ms, "
                "end-to-end from file %.2f ms, %zu boxes\n",
                info.family.c_str(), info.size.c_str(), o.imgsz, info.device.c_str(), runs, median(pre), median(infer),
                median(post), median(total), boxes);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_predict_latency: %s\n", e.what());
        return 1;
    }
    return 0;
}
