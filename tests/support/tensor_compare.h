#pragma once
// How far a tensor is from the one it should equal: max |got - want| / max |want|, the measure the
// parity tests hold to a tolerance.
#include <torch/torch.h>

namespace libreyolo::testing {

inline double max_relative_difference(const torch::Tensor& got, const torch::Tensor& want) {
    return ((got - want).abs().max() / want.abs().max().clamp_min(1e-12)).item<double>();
}

}  // namespace libreyolo::testing
