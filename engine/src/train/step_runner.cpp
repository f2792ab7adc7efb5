#include "train/step_runner.h"

#include <cmath>

#include "data/augment.h"
#include "libreyolo/errors.h"

namespace libreyolo::training {

std::string training_graphs_ruled_out(const distributed::DistributedTraining* dist, const torch::Device& device,
                                      const FamilyTraits& traits, const ModelName& name) {
    if (dist) return "a distributed run (" + std::to_string(dist->world_size()) + " ranks) is not captured";
    if (!device.is_cuda()) return "CUDA graphs need a CUDA device (the run is on " + device.str() + ")";
    if (!traits.supports_cuda_graph_training(name.task))
        return "family " + name.family + " (task " + name.task + ") has not opted in to training graphs";
    return "";
}

StepRunner::StepRunner(const TrainOptions& o, Parts parts, torch::Device device, bool amp, int batches_per_epoch)
    : o_(o),
      p_(parts),
      device_(device),
      amp_(amp),
      batches_per_epoch_(batches_per_epoch),
      schedule_(Schedule::of(o, batches_per_epoch)),
      scales_(multi_scale_sizes(o.imgsz, o.base_size_repeat)) {}

torch::Tensor StepRunner::sized_for_step(torch::Tensor images, int64_t step, int epoch) const {
    if (!o_.multi_scale || !p_.recipe.augmentation_epoch(epoch, o_)) return images;
    // One size per batch, the same on every rank (seeded by the step); targets are normalised, so
    // only the images change.
    data::Rng rng((static_cast<std::uint64_t>(o_.seed) + 7) * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint64_t>(step));
    const int size = scales_[static_cast<std::size_t>(rng.below(static_cast<int>(scales_.size())))];
    if (size == images.size(3)) return images;
    return torch::nn::functional::interpolate(images, torch::nn::functional::InterpolateFuncOptions()
                                                          .size(std::vector<int64_t>{size, size})
                                                          .mode(torch::kBilinear)
                                                          .align_corners(false));
}

StepLoss StepRunner::forward_and_backward(const torch::Tensor& images, const torch::Tensor& targets) {
    if (p_.dist) p_.dist->begin_step();
    StepLoss loss = p_.recipe.loss(images, targets, p_.graph, amp_);
    p_.optimizer.zero_grad();
    (amp_ ? p_.scaler.scale(loss.total) : loss.total).backward();
    if (p_.dist) p_.dist->finish_backward();
    return loss;
}

StepOutcome StepRunner::run(const data::Batch& batch, int epoch, int b, const std::atomic<bool>* stop) {
    const int64_t step = int64_t(epoch - 1) * batches_per_epoch_ + b - 1;
    const double lr = schedule_.lr(step);
    apply_schedule(p_.optimizer, o_.optimizer, lr, schedule_.beta(step), p_.recipe.lr_ratios());
    // Pinned batches make these copies asynchronous.
    const torch::Tensor images = sized_for_step(batch.images.to(device_, /*non_blocking=*/true), step, epoch);
    const torch::Tensor targets = batch.targets.to(device_, /*non_blocking=*/true);
    StepLoss loss;
    try {
        loss = forward_and_backward(images, targets);
    } catch (const std::exception& e) {
        // A backward replay that fails drops the graph, and the batch is computed again eagerly.
        if (!p_.graph.last_step_graphed()) throw;
        p_.graph.fall_back(e.what());
        loss = forward_and_backward(images, targets);
    }
    optimizer_step(p_.optimizer, p_.scaler, amp_, o_.clip_max_norm, p_.net);
    p_.ema.update();

    StepOutcome out = read_back(loss, stop);
    if (p_.dist) p_.dist->end_step();
    out.lr = lr;
    if (!std::isfinite(out.values[0])) {
        // Under AMP a float16 overflow is routine: the scaler skipped that step and lowers its scale.
        // In float32, or when it keeps happening, the run has diverged.
        if (!amp_ || ++nonfinite_in_a_row_ > 20)
            throw Error("train: the loss became " + std::to_string(out.values[0]) + " at epoch " +
                        std::to_string(epoch) + " batch " + std::to_string(b) + " (lower lr0?)");
        out.finite = false;
    } else {
        nonfinite_in_a_row_ = 0;
    }
    return out;
}

StepOutcome StepRunner::read_back(const StepLoss& loss, const std::atomic<bool>* stop) {
    // One device-to-host copy for the loss and its parts (in a distributed run each rank holds its
    // share of the batch loss: summed, they are the loss one process would report, and one more
    // number says whether any rank was asked to stop).
    std::vector<torch::Tensor> columns = {loss.total.detach()};
    for (const auto& part : loss.parts) columns.push_back(part.detach());
    torch::Tensor numbers = torch::stack(columns).to(torch::kFloat32);
    if (p_.dist) {
        const float stop_requested = stop && stop->load() ? 1.0f : 0.0f;
        numbers = p_.dist->sum(torch::cat({numbers, torch::full({1}, stop_requested, numbers.options())}));
    }
    const torch::Tensor host = numbers.to(torch::kCPU, torch::kFloat64);
    const double* values = host.data_ptr<double>();
    StepOutcome out;
    out.values.assign(values, values + columns.size());
    out.stop = p_.dist ? values[columns.size()] > 0 : stop && stop->load();
    return out;
}

}  // namespace libreyolo::training
