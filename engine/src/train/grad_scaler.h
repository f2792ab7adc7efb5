#pragma once
// Dynamic loss scaling for float16 training, with torch.amp.GradScaler's rules and defaults: the
// loss is multiplied by the scale before backward; before the optimizer step the gradients are
// divided back and checked; a step whose gradients hold an inf or NaN is skipped and the scale
// halves; after growth_interval clean steps in a row the scale doubles. Works on any device
// (the CPU tests drive it), though the trainer only uses it on CUDA.
#include <torch/torch.h>

#include <nlohmann/json_fwd.hpp>

#include <functional>

namespace libreyolo::training {

struct GradScalerOptions {
    double init_scale = 65536.0;
    double growth_factor = 2.0;
    double backoff_factor = 0.5;
    int64_t growth_interval = 2000;
};

class GradScaler {
public:
    GradScaler(torch::Device device, GradScalerOptions options = {});

    torch::Tensor scale(const torch::Tensor& loss) const;
    // Unscales every gradient of the optimizer's parameters in place, calls after_unscale (gradient
    // clipping goes there), then steps unless one of them is not finite. Returns whether the
    // optimizer stepped.
    bool step(torch::optim::Optimizer& optimizer, const std::function<void()>& after_unscale = {});
    // Adjusts the scale after step(): backoff when that step was skipped, growth when due.
    void update();

    double current_scale() const;
    int64_t skipped_steps() const { return skipped_; }

    // The scale and the clean-step count, for resumable checkpoints.
    nlohmann::json state() const;
    void load_state(const nlohmann::json& state);

private:
    GradScalerOptions options_;
    torch::Tensor scale_;           // float32, 1 element, on the device
    torch::Tensor growth_tracker_;  // int32, clean steps since the last change
    torch::Tensor found_inf_;       // float32, set by step()
    int64_t skipped_ = 0;
};

}  // namespace libreyolo::training
