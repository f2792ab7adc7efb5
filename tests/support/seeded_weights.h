#pragma once
// The RT-DETR fixtures' weights (scripts/fixtures/make_rtdetr_model.py): entry k of the sorted
// state_dict filled from torch::manual_seed(seed + k), random but reproducible in Python and C++
// (the same generator), scaled to keep the activations alive: running means 0.1·randn, running
// variances 1 + 0.1·|randn|, other 1-D weights 1 + 0.1·randn, biases 0.1·randn, the rest
// randn / sqrt(fan_in).
#include <torch/torch.h>

#include <cmath>

#include "io/checkpoint.h"

namespace libreyolo::testing {

// dtype: of the normal draws (the loss fixture draws float64, see make_rtdetr_loss.py).
inline void seeded_fill(torch::nn::Module& net, int64_t seed, torch::Dtype dtype = torch::kFloat32) {
    torch::NoGradGuard no_grad;
    int64_t k = 0;
    for (auto& [name, t] : io::state_dict(net)) {
        if (t.is_floating_point()) {
            torch::manual_seed(static_cast<uint64_t>(seed + k));
            const torch::Tensor r = torch::randn({t.numel()}, dtype);
            torch::Tensor v;
            if (name.ends_with("running_mean"))
                v = 0.1 * r;
            else if (name.ends_with("running_var"))
                v = 1 + 0.1 * r.abs();
            else if (t.dim() == 1)
                v = name.ends_with(".weight") ? 1 + 0.1 * r : 0.1 * r;
            else
                v = r / std::sqrt(static_cast<double>(t.numel() / t.size(0)));
            t.copy_(v.view_as(t));
        }
        ++k;
    }
}

// The floating-point parameters and buffers in float64, as Python's Module.double() (LibTorch's
// Module::to(dtype) would turn BatchNorm's integer step counters into float64 as well).
inline void as_float64(torch::nn::Module& net) {
    torch::NoGradGuard no_grad;
    for (auto& p : net.parameters()) p.set_data(p.to(torch::kFloat64));
    for (auto& b : net.buffers())
        if (b.is_floating_point()) b.set_data(b.to(torch::kFloat64));
}

}  // namespace libreyolo::testing
