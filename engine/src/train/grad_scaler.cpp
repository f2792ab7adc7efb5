#include "train/grad_scaler.h"

#include <nlohmann/json.hpp>

#include <map>

namespace libreyolo::training {

GradScaler::GradScaler(torch::Device device, GradScalerOptions options)
    : options_(options),
      scale_(torch::full({1}, options.init_scale, torch::dtype(torch::kFloat32).device(device))),
      growth_tracker_(torch::zeros({1}, torch::dtype(torch::kInt32).device(device))),
      found_inf_(torch::zeros({1}, torch::dtype(torch::kFloat32).device(device))) {}

torch::Tensor GradScaler::scale(const torch::Tensor& loss) const {
    return loss * scale_.to(loss.dtype());
}

bool GradScaler::step(torch::optim::Optimizer& optimizer, const std::function<void()>& after_unscale) {
    torch::NoGradGuard no_grad;
    const torch::Tensor inv_scale = scale_.to(torch::kFloat64).reciprocal().to(torch::kFloat32);
    found_inf_.zero_();
    // The fused kernel wants one dtype per call: group the gradients as the Python scaler does.
    std::map<torch::ScalarType, std::vector<torch::Tensor>> by_dtype;
    for (const auto& group : optimizer.param_groups())
        for (const auto& p : group.params())
            if (p.grad().defined()) by_dtype[p.grad().scalar_type()].push_back(p.grad());
    for (auto& [dtype, grads] : by_dtype) {
        torch::Tensor found = torch::zeros_like(found_inf_);
        at::_amp_foreach_non_finite_check_and_unscale_(grads, found, inv_scale);
        found_inf_.add_(found);
    }
    if (after_unscale) after_unscale();
    // One host sync per step, as in torch.amp.GradScaler.step.
    if (found_inf_.item<float>() != 0.0f) {
        ++skipped_;
        return false;
    }
    optimizer.step();
    return true;
}

void GradScaler::update() {
    at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, options_.growth_factor, options_.backoff_factor,
                           options_.growth_interval);
    found_inf_.zero_();
}

double GradScaler::current_scale() const {
    return scale_.item<double>();
}

nlohmann::json GradScaler::state() const {
    return {
        {"scale", current_scale()}, {"growth_tracker", growth_tracker_.item<int64_t>()}, {"skipped_steps", skipped_}};
}

void GradScaler::load_state(const nlohmann::json& state) {
    scale_.fill_(state.at("scale").get<double>());
    growth_tracker_.fill_(state.at("growth_tracker").get<int64_t>());
    skipped_ = state.value("skipped_steps", int64_t{0});
}

}  // namespace libreyolo::training
