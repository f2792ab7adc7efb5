#pragma once
// The learning-rate and momentum schedule of a run, and the multi-scale sizes (LibreYOLO's).
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "libreyolo/train.h"

namespace libreyolo::training {

// The lr and momentum of every step (0-based, set before it), by o.scheduler:
// linear: LibreYOLO's LinearLRScheduler with momentum warm-up, linear from warmup_lr_start to lr0
// over the warm-up steps, then linear to lr0 · lrf at the last step; momentum from
// warmup_momentum up.
// yoloxwarmcos: LibreYOLO's WarmupCosineScheduler, quadratic from warmup_lr_start to lr0, cosine
// down to lr0 · lrf, which the last close_mosaic epochs keep; momentum constant.
// flat_cosine: LibreYOLO's FlatCosineScheduler as its D-FINE and DEIM trainers apply it: linear
// from warmup_lr_start to lr0 over the warm-up steps, lr0, then a cosine down to lr0 · lrf over the
// last close_mosaic epochs (at most the steps after the warm-up); momentum constant.
struct Schedule {
    enum class Kind { Linear, WarmupCosine, FlatCosine };
    Kind kind = Kind::Linear;
    double lr0, final_lr, warmup_start, warmup_momentum, momentum;
    int64_t warmup_iters, total_iters, plateau_iters;

    static Schedule of(const TrainOptions& o, int batches_per_epoch);
    double lr(int64_t step) const;
    double beta(int64_t step) const;
};

// The schedule's lr scaled by each group's multiple, and its momentum as SGD's momentum or Adam's
// beta1, on every parameter group of opt (an optimizer of kind o.optimizer).
void apply_schedule(torch::optim::Optimizer& opt, Optimizer kind, double lr, double beta,
                    const std::vector<double>& lr_ratios);

// LibreYOLO's multi-scale sizes around imgsz: multiples of 32 from 0.75 to 1.25 times it, imgsz
// itself repeat times over (the upstream DETR ports' generate_scales).
std::vector<int> multi_scale_sizes(int imgsz, int repeat);

}  // namespace libreyolo::training
