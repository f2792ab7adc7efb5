// Training step time, eager against the graphed network (CUDA graphs for the network's forward
// and backward), replaying one real batch so that data loading stays out of the loop. A step is
// what the trainer does per batch: forward (float16 autocast with amp), loss in float32, scaled
// backward, GradScaler unscale/step/update, SGD and EMA (the trainer's multi-tensor ones). Fastest of
// `steps` steps after `warmup`.
// Also: the eager network's own forward + backward (the ceiling of any gain), and the peak CUDA
// memory of each arm.
//   bench_train_graph_step data=YAML [sizes=t,s] [batches=2,8,16] [imgsz=640] [amp=true] [steps=24]
//                          [warmup=5] [--json]
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAStream.h>

#include <cstdio>
#include <map>
#include <string>

#include "bench_common.h"
#include "core/autocast.h"
#include "data/loader.h"
#include "gpu_timing.h"
#include "graphs/graphed_network.h"
#include "libreyolo/dataset.h"
#include "libreyolo/model.h"
#include "libreyolo/version.h"
#include "model/model_impl.h"
#include "models/yolo9/loss.h"
#include "models/yolo9/yolo9.h"
#include "train/ema_blend.h"
#include "train/foreach_sgd.h"
#include "train/grad_scaler.h"

namespace {

using namespace libreyolo;

double peak_mib() {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(0);
    return stats.allocated_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)].peak / 1048576.0;
}

void reset_peak() {
    c10::cuda::CUDACachingAllocator::emptyCache();
    c10::cuda::CUDACachingAllocator::resetPeakStats(0);
}

struct Arm {
    double step_ms = 0, peak_mib = 0, capture_ms = 0;
};

// One arm: a fresh seeded network, optimizer, scaler and EMA; graphed or eager.
Arm run_arm(const std::string& size, int nc, const data::Batch& batch, int imgsz, bool amp, bool graphed, int warmup,
            int steps) {
    torch::manual_seed(0);
    Model model = Model::create("yolo9-" + size, nc, "cuda");
    auto net = std::dynamic_pointer_cast<models::yolo9::YOLO9Impl>(model.impl().net);
    net->train();
    const torch::Tensor images = batch.images.cuda(), targets = batch.targets.cuda();
    training::ForeachSGD optimizer(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.937).nesterov(true));
    training::GradScaler scaler(torch::kCUDA);
    models::yolo9::YOLO9Loss loss_fn(nc);
    std::vector<torch::Tensor> ema, trained;
    for (const auto& p : net->parameters()) trained.push_back(p.detach());
    for (const auto& b : net->buffers())
        if (b.is_floating_point()) trained.push_back(b);
    for (const auto& t : trained) ema.push_back(t.clone());
    const graphs::TrainingForward forward = [&](const torch::Tensor& x) {
        const CudaAutocast autocast(amp);
        return net->forward_raw(x);
    };
    reset_peak();
    Arm arm;
    std::unique_ptr<graphs::GraphedNetwork> graph;
    if (graphed) {
        graph = std::make_unique<graphs::GraphedNetwork>(*net, forward, images);
        arm.capture_ms = graph->capture_ms();
    }
    const auto step = [&] {
        std::vector<torch::Tensor> outputs = graph ? (*graph)(images) : forward(images);
        if (amp)
            for (auto& o : outputs) o = o.to(torch::kFloat32);
        const auto parts = loss_fn(outputs, targets, imgsz, imgsz);
        optimizer.zero_grad();
        scaler.scale(parts.total).backward();
        scaler.step(optimizer);
        scaler.update();
        training::ema_blend(ema, trained, 0.999);
    };
    arm.step_ms = fastest_gpu_ms(step, warmup, steps);
    arm.peak_mib = peak_mib();
    return arm;
}

// The eager network alone: forward and backward from ones, no loss, no optimizer.
double network_ms(const std::string& size, int nc, const data::Batch& batch, bool amp, int warmup, int steps) {
    torch::manual_seed(0);
    Model model = Model::create("yolo9-" + size, nc, "cuda");
    auto net = std::dynamic_pointer_cast<models::yolo9::YOLO9Impl>(model.impl().net);
    net->train();
    const torch::Tensor images = batch.images.cuda();
    return fastest_gpu_ms(
        [&] {
            std::vector<torch::Tensor> outputs;
            {
                const CudaAutocast autocast(amp);
                outputs = net->forward_raw(images);
            }
            std::vector<torch::Tensor> ones;
            for (const auto& o : outputs) ones.push_back(torch::ones_like(o));
            torch::autograd::backward(outputs, ones);
            net->zero_grad();
        },
        warmup, steps);
}

}  // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"data", ""},     {"sizes", "t,s"}, {"batches", "2,8,16"},
                                               {"imgsz", "640"}, {"amp", "true"},  {"steps", "24"},
                                               {"warmup", "5"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_train_graph_step", args, json)) return 2;
    const int imgsz = std::stoi(args["imgsz"]), steps = std::stoi(args["steps"]), warmup = std::stoi(args["warmup"]);
    const bool amp = args["amp"] == "true";
    try {
        const DatasetConfig config = load_dataset_config(args["data"]);
        const int nc = static_cast<int>(config.names.size());
        const data::LoadedSplit split = data::load_split(config, "train");
        for (const std::string& batches : split_list(args["batches"])) {
            data::LoaderOptions lo;
            lo.batch = std::stoi(batches);
            lo.imgsz = imgsz;
            lo.workers = 4;
            data::BatchLoader loader(split.items, lo);
            loader.begin_epoch(1, true);
            data::Batch batch;
            if (!loader.next(batch)) throw Error("bench: the dataset has no full batch of " + batches);
            for (const std::string& size : split_list(args["sizes"])) {
                const Arm eager = run_arm(size, nc, batch, imgsz, amp, false, warmup, steps);
                const Arm graph = run_arm(size, nc, batch, imgsz, amp, true, warmup, steps);
                const double network = network_ms(size, nc, batch, amp, warmup, steps);
                if (json)
                    std::printf(
                        "{\"impl\": \"libreyolo-studio (libtorch %s)\", \"model\": \"yolo9-%s\", \"batch\": %d, "
                        "\"imgsz\": %d, \"amp\": %s, \"eager_step_ms\": %.3f, \"graph_step_ms\": %.3f, "
                        "\"network_ms\": %.3f, \"eager_peak_mib\": %.1f, \"graph_peak_mib\": %.1f, "
                        "\"capture_ms\": %.0f}\n",
                        torch_version().c_str(), size.c_str(), lo.batch, imgsz, amp ? "true" : "false", eager.step_ms,
                        graph.step_ms, network, eager.peak_mib, graph.peak_mib, graph.capture_ms);
                else
                    std::printf(
                        "yolo9-%s batch %d: eager %.2f ms, graph %.2f ms (%.2fx), network %.2f ms (%.0f%% of "
                        "a step), peak %.0f / %.0f MiB, capture %.0f ms\n",
                        size.c_str(), lo.batch, eager.step_ms, graph.step_ms, eager.step_ms / graph.step_ms, network,
                        100 * network / eager.step_ms, eager.peak_mib, graph.peak_mib, graph.capture_ms);
                std::fflush(stdout);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_train_graph_step: %s\n", e.what());
        return 1;
    }
    return 0;
}
