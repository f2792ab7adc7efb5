#pragma once
// The exponential moving average of the trained weights (timm/YOLOX ModelEMA, LibreYOLO's): a second
// network of the same architecture, what validation, checkpoints and the final model use.
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "model/model_impl.h"

namespace libreyolo::training {

class ModelEma {
public:
    // A new network of model's architecture (built as the registry builds it), holding model's
    // weights, on its device, in eval mode; decay: LibreYOLO's ema_decay.
    ModelEma(const Model::Impl& model, double decay);

    // Copies the trained network's weights again (after a distributed run broadcast rank 0's), then
    // freezes the average and pairs its tensors with the trained network's for update().
    void start(torch::nn::Module& trained);
    // One step: the decay ramps up as decay · (1 − e^(−updates / 2000)), or stays the constant
    // set_constant_decay gave.
    void update();
    void set_constant_decay(double decay) {
        decay_ = decay;
        ramp_ = false;
    }

    Model::Impl& impl() { return *impl_; }
    // A Model holding a copy of the averaged weights' handle (validation and checkpoints).
    Model snapshot() const;
    std::int64_t updates = 0;

private:
    std::unique_ptr<Model::Impl> impl_;
    double decay_;
    bool ramp_ = true;
    // The average's and the trained network's tensor for every floating-point entry, paired once by
    // position: the optimizer and checkpoint loading update both in place.
    std::vector<torch::Tensor> averaged_, trained_;
};

}  // namespace libreyolo::training
