#pragma once
// A slot's CUDA implementation compiled into the engine (provider libreyolo-cuda): registered where
// LibTorch sees a CUDA device, listed as unavailable elsewhere, so `libreyolo kernels` names it
// either way.
#include <torch/cuda.h>

#include <string>

#include "kernels/slot.h"

namespace libreyolo::kernels {

template <class Signature, class Fn, class Predicate>
void register_in_tree_cuda(Slot<Signature>& slot, const std::string& name, Fn fn, Predicate accepts) {
    if (torch::cuda::is_available())
        slot.register_impl(name, kInTreeCudaProvider, fn, accepts);
    else
        slot.register_unavailable(name, kInTreeCudaProvider, "no CUDA device");
}

}  // namespace libreyolo::kernels
