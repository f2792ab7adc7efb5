// Training throughput: images per second over the second epoch (the first pays for warm-up),
// data loading included, validation excluded.
//   bench_train_throughput data=YAML imgsz=320 batch=16 workers=2 device=cpu [amp=true] [model=yolo9-t] [--json]
// amp applies on CUDA only (float16 autocast + GradScaler).
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "bench_common.h"

#include "libreyolo/train.h"
#include "libreyolo/version.h"

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {
        {"data", ""},      {"imgsz", "320"},     {"batch", "16"},           {"workers", "2"},
        {"device", "cpu"}, {"model", "yolo9-t"}, {"project", "runs/bench"}, {"amp", "true"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_train_throughput", args, json)) return 2;
    libreyolo::TrainOptions o;
    o.data = args["data"];
    o.model = args["model"];
    o.pretrained = false;  // throughput does not depend on the weights; no download
    o.imgsz = std::stoi(args["imgsz"]);
    o.batch = std::stoi(args["batch"]);
    o.workers = std::stoi(args["workers"]);
    o.device = args["device"];
    o.amp = args["amp"] == "true";
    o.epochs = 2;
    o.eval_interval = 1000;
    o.project = args["project"];
    o.name = "throughput";
    o.exist_ok = true;
    using Clock = std::chrono::steady_clock;
    Clock::time_point epoch1_end, last_batch;
    int images = 0;
    try {
        libreyolo::train(o, [&](const libreyolo::TrainEvent& e) {
            if (e.kind == libreyolo::TrainEvent::Kind::Epoch && e.epoch == 1) epoch1_end = Clock::now();
            if (e.kind == libreyolo::TrainEvent::Kind::Batch && e.epoch == 2) {
                last_batch = Clock::now();
                images += o.batch;  // image slots: a short last batch counts as full
            }
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_train_throughput: %s\n", e.what());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(last_batch - epoch1_end).count();
    if (json)
        std::printf(
            "{\"impl\": \"libreyolo-studio %s (libtorch %s)\", \"imgsz\": %d, \"batch\": %d, \"device\": \"%s\", "
            "\"amp\": %s, \"epoch_seconds\": %.3f, \"images\": %d}\n",
            libreyolo::version().c_str(), libreyolo::torch_version().c_str(), o.imgsz, o.batch, o.device.c_str(),
            o.amp ? "true" : "false", seconds, images);
    else
        std::printf("epoch 2: %d image slots in %.2f s\n", images, seconds);
    return 0;
}
