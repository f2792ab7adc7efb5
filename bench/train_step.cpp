// One training step through the trainer's own family recipe (forward, loss, scaled backward,
// gradient clipping, GradScaler and optimizer step), eager against --cuda-graph (the family's
// capturable part replayed from CUDA graphs once its shape has repeated), replaying one real
// batch so that data loading stays out. Wall clock per step with the device synchronised, median
// of `steps` after `warmup` (the warm-up covers the capture).
//   bench_train_step data=YAML [models=rtdetr-r18] [batches=2,8] [imgsz=640] [amp=true] [steps=20]
//                    [warmup=6] [--json]
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "bench_common.h"
#include "data/loader.h"
#include "libreyolo/dataset.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "libreyolo/train.h"
#include "model/model_impl.h"
#include "train/family_recipe.h"
#include "train/grad_scaler.h"

namespace {

using namespace libreyolo;

struct Arm {
    double step_ms = 0;
    std::string graph;
};

Arm run_arm(const std::string& name, int nc, const data::Batch& batch, bool amp, bool graphed, int warmup, int steps) {
    torch::manual_seed(0);
    Model model = Model::create(name, nc, "cuda");
    model.impl().net->train();
    const TrainOptions o = train_defaults(name);
    auto recipe = training::make_family_recipe(model.impl().spec.name.family, model.impl().net, nc);
    auto optimizer = recipe->make_optimizer(o);
    training::GradScaler scaler(torch::kCUDA);
    training::NetworkGraph graph(graphed, "", [](const TrainingGraphStatus&, const std::string& line) {
        std::fprintf(stderr, "%s\n", line.c_str());
    });
    const torch::Tensor images = batch.images.cuda(), targets = batch.targets.cuda();
    std::vector<double> times;
    for (int i = 0; i < warmup + steps; ++i) {
        torch::cuda::synchronize();
        const auto t0 = std::chrono::steady_clock::now();
        const training::StepLoss loss = recipe->loss(images, targets, graph, amp);
        optimizer->zero_grad();
        (amp ? scaler.scale(loss.total) : loss.total).backward();
        training::optimizer_step(*optimizer, scaler, amp, o.clip_max_norm, *model.impl().net);
        torch::cuda::synchronize();
        if (i >= warmup)
            times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return {median(times), graph.status().summary()};
}

}  // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"data", ""},     {"models", "rtdetr-r18"}, {"batches", "2,8"},
                                               {"imgsz", "640"}, {"amp", "true"},          {"steps", "20"},
                                               {"warmup", "6"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_train_step", args, json)) return 2;
    if (args["data"].empty()) {
        std::fprintf(stderr, "bench_train_step: data=YAML is required\n");
        return 2;
    }
    try {
        const DatasetConfig config = load_dataset_config(args["data"]);
        const int nc = static_cast<int>(config.names.size()), imgsz = std::stoi(args["imgsz"]);
        const bool amp = args["amp"] == "true";
        const data::LoadedSplit split = data::load_split(config, "train");
        for (const std::string& name : split_list(args["models"]))
            for (const std::string& b : split_list(args["batches"])) {
                data::LoaderOptions lo;
                lo.batch = std::stoi(b);
                lo.imgsz = imgsz;
                lo.workers = 1;
                lo.mosaic = train_defaults(name).mosaic;
                lo.resize = family_traits(parse_model_name(name).family).input_resize;
                data::BatchLoader loader(split.items, lo);
                loader.begin_epoch(1, lo.mosaic > 0);
                data::Batch batch;
                if (!loader.next(batch)) throw std::runtime_error("the train split has no batch");
                const Arm eager =
                    run_arm(name, nc, batch, amp, false, std::stoi(args["warmup"]), std::stoi(args["steps"]));
                const Arm graph =
                    run_arm(name, nc, batch, amp, true, std::stoi(args["warmup"]), std::stoi(args["steps"]));
                std::printf(
                    json ? "{\"kind\": \"train_step\", \"model\": \"%s\", \"batch\": %d, \"imgsz\": %d, \"amp\": %s, "
                           "\"eager_ms\": %.3f, \"graph_ms\": %.3f, \"graph\": \"%s\"}\n"
                         : "%s batch %d imgsz %d amp %s: eager %.3f ms, graph %.3f ms (%s)\n",
                    name.c_str(), lo.batch, imgsz, amp ? "true" : "false", eager.step_ms, graph.step_ms,
                    graph.graph.c_str());
                std::fflush(stdout);
            }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_train_step: %s\n", e.what());
        return 1;
    }
    return 0;
}
