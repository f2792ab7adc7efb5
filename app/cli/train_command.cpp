// `libreyolo train`.
#include "cli_common.h"

#include <cstdio>

#include <algorithm>
#include <atomic>
#include <csignal>
#include "args.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "model_argument.h"
#include "rank_launcher.h"

#include "libreyolo/train.h"

namespace libreyolo::cli {
namespace {

std::atomic<bool> g_stop_training{false};
extern "C" void request_training_stop(int) {
    g_stop_training = true;
}

const char* kTrainHelp = R"(libreyolo train — train a model on a dataset

keys (defaults in brackets: YOLOv9's, then YOLOX's, RT-DETR's, D-FINE's and DEIM's, LibreYOLO's
for each; one value when they agree):
  model=NAME|FILE   a model name or a .safetensors / LibreYOLO .pt checkpoint to start from
                    [yolo9-t]: {trainable models}
  pretrained=BOOL   true: a name starts from LibreYOLO's pretrained weights (./weights/, the
                    cache, else downloaded once); false: from random weights, as LibreYOLO's
                    pretrained=False (a checkpoint's architecture too) [true]
  download=BOOL     false: never touch the network, as LIBREYOLO_OFFLINE=1 [true]
  data=FILE         the data YAML (required)
  epochs=N [100 | 300 | 72 | 132]  batch=N [16 | 16 | 4 | 16]  imgsz=N [640]  workers=N [4]  device=D [auto]
  seed=N [0]
  optimizer=NAME    SGD (nesterov), Adam or AdamW [SGD | SGD | AdamW | AdamW]
  lr0=F [0.01 | 0.01 | 0.0001 | D-FINE 0.0002, DEIM 0.0001]
  momentum=F (Adam: beta1) [0.937 | 0.9 | 0.9 | 0.9]
  scheduler=NAME    linear (warm-up, then linear to lr0 x lrf), yoloxwarmcos (quadratic warm-up,
                    cosine to lr0 x lrf, held for the last close_mosaic epochs) or flat_cosine
                    (linear warm-up, lr0, cosine to lr0 x lrf over the last close_mosaic epochs)
                    [linear | yoloxwarmcos | linear | flat_cosine]
  lrf=F             final lr = lr0 x lrf (min_lr_ratio=F too) [0.01 | 0.05 | 1.0: constant | 0.05]
  weight_decay=F [0.0005 | 0.0005 | 0.0001 | 0.0001]  warmup_epochs=N [3 | 5 | 0 | 2]
  warmup_lr_start=F [0.0001 | 0 | 0.0001 | 0.000001]  warmup_momentum=F (linear) [0.8]
  ema_decay=F       the weights' moving average [0.9999 | 0.9998 | 0.9999 | 0.9999]
  ema_restart_decay=F  > 0: the average's constant decay in the last close_mosaic epochs
                    [0 | 0 | 0 | 0.9999]
  lr_backbone=F     RT-DETR: the backbone's learning rate [0.000005]
  backbone_lr_mult=F  D-FINE, DEIM: the backbone's lr as a multiple of the schedule's
                    [D-FINE 0.5; DEIM n, s 0.5, m 0.1, l 0.05, x 0.01]
  clip_max_norm=F   clip the gradients' global norm to F, 0 off [0 | 0 | 0.1 | 0.1]
  multi_scale=BOOL  each batch at a random size of 0.75-1.25 x imgsz while the strong
                    augmentations last [false | false | false | true, D-FINE n false]
  base_size_repeat=N  multi_scale: imgsz itself N times among the sizes
                    [3; D-FINE s 20, m 6, l 4, x 3]
augmentation:
  mosaic=F          mosaic probability (mosaic_prob=F too) [1.0 | 1.0 | 0]
  close_mosaic=N    no mosaic (nor affine, MixUp) for the last N epochs (no_aug_epochs=N too) [15 | 15 | 0]
  degrees=F [0 | 10]  translate=F [0.1]  shear=F [0 | 2]  mosaic_scale=LOW,HIGH [0.5,1.5 | 0.1,2.0]
  mixup_prob=F      YOLOX: MixUp of a mosaic with another image [0 | 1.0]  mixup_scale=LOW,HIGH [0.5,1.5]
  hsv_prob=F [1.0 | 1.0 | 1.0 | 0]  flip_prob=F [0.5]
  aug_stop_epoch_ratio=F  D-FINE, DEIM: photometric distortion, zoom-out, IoU crop and
                    multi_scale end after epoch min(epochs x F, epochs - close_mosaic)
                    [D-FINE 0.85, DEIM 0.91]
  patience=N [50]  eval_interval=N [1 | 10 | 1]  save_period=N [-1 | 10 | -1]
  project=DIR [runs/train]  name=NAME [exp]  exist_ok=BOOL [false]
  resume=BOOL       continue project/name from its weights/last.* [false]
  amp=BOOL          mixed precision on CUDA [true]
distributed (batch is the global batch, split over the ranks; rank 0 logs, validates and saves):
  device=0,1        one process per listed GPU on this machine (cpu,cpu: CPU processes, gloo)
  sync_bn=BOOL      BatchNorm over the global batch (SyncBatchNorm) [false | true | false]
  dist_timeout=N    seconds a rank waits for the others before the run fails [1800]
  A process started with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT set (torchrun,
  Slurm, several nodes) joins that run instead.
flags:
  --cuda-graph      replay the network's forward and backward from CUDA graphs once a batch shape
                    has repeated 3 times (CUDA; otherwise, or after a failure, trains eager)
Ctrl-C stops after the current batch and leaves a checkpoint that resume=true continues.
Writes project/name/weights/{last,best}.safetensors and results.csv.
)";

// "box 1.2345 cls 0.5432 dfl 0.9876", in the family's order.
std::string loss_parts_text(const TrainEvent& e) {
    std::string text;
    char value[32];
    for (std::size_t i = 0; i < e.loss_names.size() && i < e.loss_parts.size(); ++i) {
        std::snprintf(value, sizeof value, "%.4f", e.loss_parts[i]);
        text += (i ? " " : "") + e.loss_names[i] + " " + value;
    }
    return text;
}

// How --cuda-graph went, for the last line of a run.
std::string graph_outcome(const TrainResult& r) {
    using State = TrainingGraphStatus::State;
    switch (r.cuda_graph.state) {
        case State::Off:
            return "off";
        case State::RuledOut:
            return "not used (" + r.cuda_graph.reason + "); trained eager";
        case State::Waiting:
            return "no batch shape came " + std::to_string(kTrainingGraphRepeatsBeforeCapture) +
                   " times; trained eager";
        case State::Replaying:
            return "the training step for " + r.cuda_graph.shape + " replayed " + std::to_string(r.graph_replays) +
                   " times";
        case State::FellBack:
            return "fell back to eager after " + std::to_string(r.graph_replays) + " replays: " + r.cuda_graph.reason;
    }
    return "off";
}

int run_train(const std::vector<std::string>& argv) {
    const Arguments args = parse_arguments(argv,
                                           {"model",
                                            "pretrained",
                                            "download",
                                            "data",
                                            "epochs",
                                            "batch",
                                            "imgsz",
                                            "workers",
                                            "device",
                                            "seed",
                                            "optimizer",
                                            "lr0",
                                            "lrf",
                                            "min_lr_ratio",
                                            "scheduler",
                                            "momentum",
                                            "weight_decay",
                                            "warmup_epochs",
                                            "warmup_lr_start",
                                            "warmup_momentum",
                                            "ema_decay",
                                            "mosaic",
                                            "mosaic_prob",
                                            "close_mosaic",
                                            "no_aug_epochs",
                                            "degrees",
                                            "translate",
                                            "shear",
                                            "mosaic_scale",
                                            "mixup_prob",
                                            "mixup_scale",
                                            "hsv_prob",
                                            "flip_prob",
                                            "patience",
                                            "eval_interval",
                                            "save_period",
                                            "project",
                                            "name",
                                            "exist_ok",
                                            "resume",
                                            "amp",
                                            "sync_bn",
                                            "dist_timeout",
                                            "lr_backbone",
                                            "clip_max_norm",
                                            "multi_scale",
                                            "base_size_repeat",
                                            "backbone_lr_mult",
                                            "aug_stop_epoch_ratio",
                                            "ema_restart_decay"},
                                           {"cuda-graph"});
    // LibreYOLO's names for keys that carry Ultralytics' names here.
    const auto key = [&](const std::string& ours, const std::string& libreyolo) {
        if (args.has(ours) && args.has(libreyolo))
            throw InvalidArgument(ours + ", " + libreyolo + ": the same setting given twice; keep one");
        return args.has(libreyolo) ? libreyolo : ours;
    };
    TrainOptions o = train_defaults(args.get("model", TrainOptions{}.model));
    o.data = args.get("data");
    o.epochs = args.get_int("epochs", o.epochs);
    o.batch = args.get_int("batch", o.batch);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.workers = args.get_int("workers", o.workers);
    o.device = args.get("device", o.device);
    o.seed = args.get_int("seed", o.seed);
    o.optimizer = args.get("optimizer", o.optimizer);
    o.lr0 = args.get_double("lr0", o.lr0);
    o.lrf = args.get_double(key("lrf", "min_lr_ratio"), o.lrf);
    o.scheduler = args.get("scheduler", o.scheduler);
    o.momentum = args.get_double("momentum", o.momentum);
    o.weight_decay = args.get_double("weight_decay", o.weight_decay);
    o.warmup_epochs = args.get_int("warmup_epochs", o.warmup_epochs);
    o.warmup_lr_start = args.get_double("warmup_lr_start", o.warmup_lr_start);
    o.warmup_momentum = args.get_double("warmup_momentum", o.warmup_momentum);
    o.ema_decay = args.get_double("ema_decay", o.ema_decay);
    o.mosaic = args.get_float(key("mosaic", "mosaic_prob"), o.mosaic);
    o.close_mosaic = args.get_int(key("close_mosaic", "no_aug_epochs"), o.close_mosaic);
    o.degrees = args.get_float("degrees", o.degrees);
    o.translate = args.get_float("translate", o.translate);
    o.shear = args.get_float("shear", o.shear);
    o.mosaic_scale = args.get_float_pair("mosaic_scale", o.mosaic_scale);
    o.mixup_prob = args.get_float("mixup_prob", o.mixup_prob);
    o.mixup_scale = args.get_float_pair("mixup_scale", o.mixup_scale);
    o.hsv_prob = args.get_float("hsv_prob", o.hsv_prob);
    o.flip_prob = args.get_float("flip_prob", o.flip_prob);
    o.patience = args.get_int("patience", o.patience);
    o.eval_interval = args.get_int("eval_interval", o.eval_interval);
    o.save_period = args.get_int("save_period", o.save_period);
    o.project = args.get("project", o.project);
    o.name = args.get("name", o.name);
    o.exist_ok = args.get_bool("exist_ok", o.exist_ok);
    o.resume = args.get_bool("resume", o.resume);
    o.amp = args.get_bool("amp", o.amp);
    o.cuda_graph = args.flags.count("cuda-graph") != 0;
    o.sync_bn = args.get_bool("sync_bn", o.sync_bn);
    o.dist_timeout = args.get_int("dist_timeout", o.dist_timeout);
    o.lr_backbone = args.get_double("lr_backbone", o.lr_backbone);
    o.clip_max_norm = args.get_double("clip_max_norm", o.clip_max_norm);
    o.multi_scale = args.get_bool("multi_scale", o.multi_scale);
    o.base_size_repeat = args.get_int("base_size_repeat", o.base_size_repeat);
    o.backbone_lr_mult = args.get_double("backbone_lr_mult", o.backbone_lr_mult);
    o.aug_stop_epoch_ratio = args.get_double("aug_stop_epoch_ratio", o.aug_stop_epoch_ratio);
    o.ema_restart_decay = args.get_double("ema_restart_decay", o.ema_restart_decay);
    if (o.data.empty() && !o.resume) throw InvalidArgument("data: name the dataset YAML (libreyolo train data=FILE)");
    o.pretrained = wants_pretrained(args);
    if (o.resume && args.has("pretrained"))
        throw InvalidArgument("pretrained: a resumed run continues from its checkpoint; drop pretrained= or resume=");
    // A family without a training recipe is refused before anything is downloaded.
    if (is_model_name(o.model)) {
        const FamilyTraits& traits = family_traits(parse_model_name(architecture_name(o.model)).family);
        if (!traits.trainable)
            throw NotSupported("train: the " + traits.display_name + " family cannot be trained yet");
    }
    // Fetched here, once, with the progress bar (and before any rank starts): the run then finds it.
    if (o.pretrained && !o.resume && is_model_name(o.model)) pretrained_weights(o.model, pretrained_options(args));

    const std::optional<DistributedRank> rank = distributed_rank();
    if (const auto devices = device_list(o.device)) {
        if (!rank) {
            std::vector<std::string> rest;
            for (const std::string& a : argv)
                if (a.rfind("device=", 0) != 0) rest.push_back(a);
            return launch_local_ranks(*devices, rest);
        }
        // Started by an external launcher with the whole list: this process takes its own entry.
        const auto index = static_cast<std::size_t>(rank->local_rank);
        if (index >= devices->size())
            throw InvalidArgument("device: LOCAL_RANK " + std::to_string(index) + " has no entry in '" + o.device +
                                  "'");
        o.device = (*devices)[index];
    }
    const bool main_rank = !rank || rank->rank == 0;
    if (!main_rank) set_log_level(LogLevel::Warning);  // rank 0 speaks for the run

    g_stop_training = false;
    ::signal(SIGINT, request_training_stop);
    const TrainResult r = train(
        o,
        [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Batch) {
                if (!progress_on_stderr() || !main_rank) return;
                const int step = e.step, total = std::max(1, e.steps);
                const int eta = static_cast<int>(e.eta_seconds);
                const int filled = 20 * step / total;
                std::fprintf(stderr,
                             "\r%s%s %3d%%  epoch %d/%d  batch %d/%d  loss %.4f (%s)  lr %.5f  %.0f ms  ETA %dm%02ds ",
                             std::string(static_cast<std::size_t>(filled), '#').c_str(),
                             std::string(static_cast<std::size_t>(20 - filled), '.').c_str(), 100 * step / total,
                             e.epoch, e.epochs, e.batch, e.batches, e.loss, loss_parts_text(e).c_str(), e.lr, e.step_ms,
                             eta / 60, eta % 60);
                return;
            }
            if (e.kind == TrainEvent::Kind::Graph) return;  // the engine's log line says it
            if (progress_on_stderr()) std::fprintf(stderr, "\n");
            std::printf("epoch %d/%d: loss %.4f (%s)", e.epoch, e.epochs, e.loss, loss_parts_text(e).c_str());
            if (e.map50 >= 0) std::printf("  mAP50 %.4f  mAP50-95 %.4f", e.map50, e.map50_95);
            std::printf("  %.1f s\n", e.epoch_seconds);
            std::fflush(stdout);
        },
        &g_stop_training);
    ::signal(SIGINT, SIG_DFL);
    if (r.world_size > 1) {
        std::printf("rank %d of %d: weights sha256 %s (the same on every rank)\n", r.rank, r.world_size,
                    r.weights_sha256.c_str());
        if (!main_rank) return 0;
    }
    std::printf("%s after %d epoch(s); best mAP50-95 %.4f\nResults saved to %s\n", r.stopped ? "Stopped" : "Finished",
                r.epochs_run, r.best_map50_95, r.save_dir.c_str());
    if (o.cuda_graph) std::printf("--cuda-graph: %s\n", graph_outcome(r).c_str());
    return 0;
}

}  // namespace

extern const Command kTrainCommand{"train", "train a model on a dataset (LibreYOLO's YOLOv9 and RT-DETR recipes)",
                                   kTrainHelp, run_train};

}  // namespace libreyolo::cli
