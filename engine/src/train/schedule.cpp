#include "train/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>


namespace libreyolo::training {

Schedule Schedule::of(const TrainOptions& o, int batches_per_epoch) {
    Kind kind = Kind::Linear;
    if (o.scheduler == LrScheduler::YoloxWarmCos)
        kind = Kind::WarmupCosine;
    else if (o.scheduler == LrScheduler::FlatCosine)
        kind = Kind::FlatCosine;
    Schedule s{kind,
               o.lr0,
               o.lr0 * o.lrf,
               std::min(o.warmup_lr_start, o.lr0),
               o.warmup_momentum,
               o.momentum,
               int64_t(batches_per_epoch) * o.warmup_epochs,
               int64_t(batches_per_epoch) * o.epochs,
               int64_t(batches_per_epoch) * o.close_mosaic};
    // FlatCosineScheduler's budget guard: the cosine never reaches back into the warm-up.
    if (kind == Kind::FlatCosine)
        s.plateau_iters = std::min(s.plateau_iters, std::max<int64_t>(0, s.total_iters - s.warmup_iters));
    return s;
}

double Schedule::lr(int64_t it) const {
    if (kind == Kind::FlatCosine) {
        if (it <= warmup_iters)
            return warmup_iters > 0 ? (lr0 - warmup_start) * double(it) / double(warmup_iters) + warmup_start : lr0;
        const int64_t cosine_start = total_iters - plateau_iters;
        if (it < cosine_start) return lr0;
        const double progress = std::min(1.0, double(it - cosine_start) / double(std::max<int64_t>(1, plateau_iters)));
        return final_lr + 0.5 * (lr0 - final_lr) * (1 + std::cos(std::numbers::pi * progress));
    }
    if (kind == Kind::WarmupCosine) {
        if (warmup_iters > 0 && it <= warmup_iters) {
            const double progress = double(it) / double(warmup_iters);
            return (lr0 - warmup_start) * progress * progress + warmup_start;
        }
        if (it >= total_iters - plateau_iters) return final_lr;
        return final_lr + 0.5 * (lr0 - final_lr) *
                              (1.0 + std::cos(std::numbers::pi * double(it - warmup_iters) /
                                              double(total_iters - warmup_iters - plateau_iters)));
    }
    if (it <= warmup_iters)
        return warmup_iters > 0 ? (lr0 - warmup_start) * double(it) / double(warmup_iters) + warmup_start : lr0;
    const double progress = double(it - warmup_iters) / double(std::max<int64_t>(1, total_iters - warmup_iters));
    return lr0 - (lr0 - final_lr) * progress;
}

double Schedule::beta(int64_t it) const {
    if (kind == Kind::WarmupCosine || warmup_iters <= 0 || it >= warmup_iters) return momentum;
    return warmup_momentum + (momentum - warmup_momentum) * double(it) / double(warmup_iters);
}

void apply_schedule(torch::optim::Optimizer& opt, Optimizer kind, double lr, double beta,
                    const std::vector<double>& lr_ratios) {
    for (std::size_t i = 0; i < opt.param_groups().size(); ++i) {
        auto& g = opt.param_groups()[i];
        g.options().set_lr(lr * (i < lr_ratios.size() ? lr_ratios[i] : 1.0));
        if (kind == Optimizer::SGD)
            static_cast<torch::optim::SGDOptions&>(g.options()).momentum(beta);
        else if (kind == Optimizer::Adam) {
            auto& a = static_cast<torch::optim::AdamOptions&>(g.options());
            a.betas({beta, std::get<1>(a.betas())});
        } else {
            auto& a = static_cast<torch::optim::AdamWOptions&>(g.options());
            a.betas({beta, std::get<1>(a.betas())});
        }
    }
}

std::vector<int> multi_scale_sizes(int imgsz, int repeat) {
    const int low = static_cast<int>(imgsz * 0.75 / 32) * 32, high = static_cast<int>(imgsz * 1.25 / 32) * 32;
    const int steps = (imgsz - low) / 32;
    std::vector<int> sizes;
    for (int i = 0; i < steps; ++i) sizes.push_back(low + 32 * i);
    for (int i = 0; i < repeat; ++i) sizes.push_back(imgsz);
    for (int i = 0; i < steps; ++i) sizes.push_back(high - 32 * i);
    return sizes;
}

}  // namespace libreyolo::training
