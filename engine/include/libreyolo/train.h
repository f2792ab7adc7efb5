#pragma once
// Training with LibreYOLO's recipes. YOLOv9: SGD (nesterov) or Adam/AdamW over three parameter
// groups (BatchNorm weights, conv weights with decay, biases), linear warm-up then linear decay to
// lrf, momentum warm-up 0.8 → momentum, mosaic off for the last close_mosaic epochs. YOLOX
// (train_defaults): the same groups at momentum 0.9, quadratic warm-up, cosine to lr0 · lrf held
// through the last close_mosaic epochs, mosaic with rotation, shear and MixUp, the L1 loss term
// once mosaic is off. RT-DETR: AdamW over four groups (the backbone at lr_backbone), constant lr,
// gradients clipped to clip_max_norm, no mosaic, images resized as its predict does. D-FINE and
// DEIM: AdamW over four groups (backbone / rest × decay / none, the backbone at backbone_lr_mult),
// flat_cosine, clipped gradients, photometric distortion, zoom-out and IoU crop until
// aug_stop_epoch_ratio, multi-scale batches, the EMA's decay constant for the last close_mosaic
// epochs. All: EMA (ema_decay, tau 2000), validation on the EMA weights, checkpoints and
// results.csv per epoch.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace libreyolo {

// How many times a batch shape must come before a --cuda-graph run captures it: shapes that change
// (multi_scale, a last smaller batch) are never captured.
inline constexpr int kTrainingGraphRepeatsBeforeCapture = 3;

// LibreYOLO's optimizer names: SGD (Nesterov momentum), Adam, AdamW.
enum class Optimizer { SGD, Adam, AdamW };
// LibreYOLO's scheduler names: linear, yoloxwarmcos, flat_cosine (TrainOptions::scheduler says how each runs).
enum class LrScheduler { Linear, YoloxWarmCos, FlatCosine };

// The options schema (options.h) lists every field below once, with its key, type, range and help:
// a new option is a field here and a line there.
struct TrainOptions {
    // A model name or a .safetensors / LibreYOLO .pt checkpoint to start from. With pretrained, a
    // name starts from LibreYOLO's published weights (pretrained.h: found or downloaded); without,
    // the name's architecture (or the checkpoint's) starts from random weights, as LibreYOLO's
    // pretrained=False. A resumed run takes its weights from its checkpoint either way.
    std::string model = "yolo9-t";
    bool pretrained = true;
    std::string data;  // data YAML (required)
    int epochs = 100;
    int batch = 16;
    int imgsz = 640;
    int workers = 4;
    std::string device = "auto";
    Optimizer optimizer = Optimizer::SGD;
    double lr0 = 0.01;
    double lrf = 0.01;  // final lr = lr0 · lrf (LibreYOLO's min_lr_ratio)
    // linear: warm-up then linear to lr0 · lrf. yoloxwarmcos: quadratic warm-up, cosine to
    // lr0 · lrf, then lr0 · lrf for the last close_mosaic epochs; momentum constant. flat_cosine:
    // linear warm-up, lr0, then a cosine to lr0 · lrf over the last close_mosaic epochs.
    LrScheduler scheduler = LrScheduler::Linear;
    double momentum = 0.937;
    double weight_decay = 5e-4;
    int warmup_epochs = 3;
    double warmup_momentum = 0.8;
    double warmup_lr_start = 1e-4;
    int close_mosaic = 15;  // LibreYOLO's no_aug_epochs
    // Augmentation (LibreYOLO's names; mosaic is its mosaic_prob): the mosaic's affine warp
    // (rotation ±degrees, translation ±translate of the size, shear ±shear degrees, scale drawn
    // from mosaic_scale), MixUp of a mosaic with another image (YOLOX), HSV jitter, horizontal flip.
    float mosaic = 1.0f;
    float degrees = 0, translate = 0.1f, shear = 0;
    std::array<float, 2> mosaic_scale{0.5f, 1.5f};
    float mixup_prob = 0;
    std::array<float, 2> mixup_scale{0.5f, 1.5f};
    float hsv_prob = 1.0f, flip_prob = 0.5f;
    double ema_decay = 0.9999;  // the EMA's decay, ramped up as ema_decay · (1 − e^(−updates / 2000))
    // > 0: the EMA's decay from the first of the last close_mosaic epochs on, constant (no ramp):
    // LibreYOLO's D-FINE and DEIM "EMA restart". 0: ema_decay throughout.
    double ema_restart_decay = 0;
    bool amp = true;  // mixed precision, CUDA only
    int seed = 0;
    int patience = 50;      // epochs without a better mAP50-95 before stopping
    int eval_interval = 1;  // validate every N epochs (and always after the last)
    int save_period = -1;   // also keep weights/epochN.safetensors every N epochs
    std::string project = "runs/train";
    std::string name = "exp";
    bool exist_ok = false;
    bool resume = false;  // continue project/name from weights/last.*
    // Replay the network's forward and backward from CUDA graphs once a batch shape has come
    // kTrainingGraphRepeatsBeforeCapture times (CUDA, a family marked for training graphs);
    // otherwise, or after a failure, eager.
    bool cuda_graph = false;
    // Distributed runs (several processes, each started with RANK, WORLD_SIZE, LOCAL_RANK,
    // MASTER_ADDR and MASTER_PORT set, as `libreyolo train device=0,1`, torchrun or Slurm do):
    // batch is the global batch, split over the ranks. sync_bn normalises BatchNorm over the global
    // batch (else each rank over its own part, rank 0's buffers broadcast before every step, as
    // DDP). A collective that waits longer than dist_timeout seconds ends the run with an error.
    bool sync_bn = false;
    int dist_timeout = 1800;
    // RT-DETR: the backbone's learning rate (LibreYOLO's lr_backbone; the other groups take the
    // schedule's lr).
    double lr_backbone = 5e-6;
    double clip_max_norm = 0;  // > 0: the gradients' global L2 norm is clipped to it every step
    // Each batch resized to a random size of 0.75–1.25 × imgsz (multiples of 32, imgsz itself
    // base_size_repeat times among them), LibreYOLO's DETR multi-scale, while the strong
    // augmentations last (mosaic epochs; D-FINE and DEIM: until aug_stop_epoch_ratio).
    bool multi_scale = false;
    int base_size_repeat = 3;
    // D-FINE, DEIM: the backbone's learning rate as a multiple of the schedule's (LibreYOLO's
    // backbone_lr_mult).
    double backbone_lr_mult = 1.0;
    // D-FINE, DEIM: the strong augmentations and multi_scale end after epoch
    // min(⌊epochs · aug_stop_epoch_ratio⌋, max(1, epochs − close_mosaic)).
    double aug_stop_epoch_ratio = 1.0;
};

// The options a run of model starts from: LibreYOLO's defaults for the model's family (a model
// name, or a checkpoint whose family its fields or keys tell). YOLOv9: TrainOptions{}. YOLOX: its
// YOLOXConfig (epochs 300, momentum 0.9, yoloxwarmcos with 5 warm-up epochs from 0 and lrf 0.05,
// degrees 10, shear 2, mosaic_scale 0.1–2, mixup_prob 1, ema_decay 0.9998, eval_interval and
// save_period 10, sync_bn). RT-DETR: its RTDETRConfig (epochs 72, batch 4, AdamW, lr0 1e-4
// constant, lr_backbone 5e-6, betas 0.9 / 0.999, weight_decay 1e-4, no warm-up, no mosaic,
// clip_max_norm 0.1). D-FINE and DEIM: their DFINEConfig / DEIMConfig (epochs 132, AdamW, lr0 2e-4 /
// 1e-4, flat_cosine with 2 warm-up epochs from 1e-6 and lrf 0.05, close_mosaic 4 / 12,
// weight_decay 1e-4, backbone_lr_mult 0.5 (DEIM by size: 0.5, 0.5, 0.1, 0.05, 0.01), no mosaic,
// hsv_prob 0, clip_max_norm 0.1, multi_scale with base_size_repeat by size (D-FINE n: off),
// aug_stop_epoch_ratio 0.85 / 0.91, ema_restart_decay 0.9999). model is set in the result.
TrainOptions train_defaults(const std::string& model);

// How the training step's CUDA graph (TrainOptions::cuda_graph) went: TrainResult::cuda_graph at
// the end, each Graph event's state as it changes.
struct TrainingGraphStatus {
    enum class State {
        Off,        // not requested
        RuledOut,   // requested, but this run cannot use graphs (reason); it trains eager
        Waiting,    // requested: eager until a batch shape has come kTrainingGraphRepeatsBeforeCapture times
        Replaying,  // the network's forward and backward for shape replay from a graph (other shapes eager)
        FellBack,   // a capture or a replay failed (reason); the rest of the run trains eager
    };
    State state = State::Off;
    std::string shape;   // Replaying: the captured batch, "16x3x640x640"
    std::string reason;  // RuledOut, FellBack: what ruled graphs out or failed
    // One line: "off", "waiting for a batch shape to repeat 3 times", "graphed 16x3x640x640",
    // "eager: <reason>", "eager after a failure: <reason>".
    std::string summary() const;
};

struct TrainEvent {
    // Graph: the training graph's state changed (graph), or a shape ran eager beside it; message
    // is the line the engine logs about it.
    enum class Kind { Batch, Epoch, Graph } kind = Kind::Batch;
    int epoch = 0;  // 1-based
    int epochs = 0;
    int batch = 0;  // 1-based within the epoch
    int batches = 0;
    // Batch events: the step in the whole run (1-based), the run's steps, and the seconds left,
    // extrapolated from the batches this call has run so far (validation time included).
    int step = 0, steps = 0;
    double eta_seconds = 0;
    double loss = 0;                      // batch, or epoch mean
    std::vector<std::string> loss_names;  // the family's loss parts: box, cls, dfl; iou, obj, cls, l1; vfl, bbox, giou
    std::vector<double> loss_parts;       // in loss_names' order
    double lr = 0;
    double step_ms = 0;
    double map50 = -1, map50_95 = -1;  // Epoch events that validated
    double epoch_seconds = 0;
    TrainingGraphStatus graph;  // Graph events
    std::string message;        // Graph events
    std::string save_dir;       // every event: the run's folder (numbered when the name was taken)
};

struct TrainResult {
    std::string save_dir;
    std::string best;  // weights/best.safetensors (EMA weights of the best epoch)
    std::string last;  // weights/last.safetensors
    int epochs_run = 0;
    double best_map50_95 = -1;
    bool stopped = false;  // by a stop request; weights/last.* can resume
    TrainingGraphStatus cuda_graph;
    std::int64_t graph_replays = 0;
    // Distributed runs: this process's rank, the ranks, and the SHA-256 of the final weights,
    // which every rank checked equal to rank 0's. Only rank 0 writes checkpoints and results.csv.
    int rank = 0;
    int world_size = 1;
    std::string weights_sha256;
};

// This process's place in a distributed run as an external launcher describes it (RANK,
// WORLD_SIZE, LOCAL_RANK; LOCAL_RANK defaults to RANK): what train() itself reads. nullopt when
// WORLD_SIZE is unset. Throws InvalidArgument naming the variable that is malformed.
struct DistributedRank {
    int rank = 0;
    int world_size = 1;
    int local_rank = 0;
};
std::optional<DistributedRank> distributed_rank();

// stop: set from any thread to end after the current batch with a resumable checkpoint.
TrainResult train(const TrainOptions& options, const std::function<void(const TrainEvent&)>& on_event = {},
                  const std::atomic<bool>* stop = nullptr);

}  // namespace libreyolo
