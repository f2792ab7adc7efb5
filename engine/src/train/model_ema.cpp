#include "train/model_ema.h"

#include <cmath>

#include "io/checkpoint.h"
#include "registry/network_spec.h"
#include "train/ema_blend.h"

namespace libreyolo::training {
namespace {

void copy_weights(torch::nn::Module& from, torch::nn::Module& to) {
    torch::NoGradGuard no_grad;
    auto dst = io::state_dict(to);
    for (const auto& [k, v] : io::state_dict(from)) dst.at(k).copy_(v);
}

}  // namespace

ModelEma::ModelEma(const Model::Impl& model, double decay)
    : impl_(std::make_unique<Model::Impl>(model)), decay_(decay) {
    impl_->net = registry::build_network(model.spec);
    copy_weights(*model.net, *impl_->net);
    impl_->net->to(model.device);
    impl_->net->eval();
}

void ModelEma::start(torch::nn::Module& trained) {
    copy_weights(trained, *impl_->net);
    for (auto& p : impl_->net->parameters()) p.set_requires_grad(false);
    const auto src = io::state_dict(trained);
    for (auto& [k, v] : io::state_dict(*impl_->net))
        if (v.is_floating_point()) {
            averaged_.push_back(v);
            trained_.push_back(src.at(k).detach());
        }
}

void ModelEma::update() {
    ++updates;
    ema_blend(averaged_, trained_, ramp_ ? decay_ * (1 - std::exp(-double(updates) / 2000.0)) : decay_);
}

Model ModelEma::snapshot() const {
    return Model::adopt(std::make_unique<Model::Impl>(*impl_));
}

}  // namespace libreyolo::training
