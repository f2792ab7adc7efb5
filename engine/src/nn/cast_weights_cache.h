#pragma once
// Lower-precision copies of a module's weights for eager inference under autocast. Autocast's own
// cache lives for one autocast region (one forward), so every eager forward would cast the same
// weights again, one launch each; these copies live until a weight is replaced (another storage)
// or written in place (its version counter moves), e.g. by loading a checkpoint or an optimizer.
#include <torch/torch.h>

#include <mutex>
#include <vector>

namespace libreyolo::nn {

class CastWeightsCache {
public:
    // weights cast to dtype, from the cache while none of them changed. Callers use it only with
    // grad mode off and outside a CUDA graph capture (a capture must cast inside the graph).
    std::vector<torch::Tensor> get(const std::vector<torch::Tensor>& weights, at::ScalarType dtype);

private:
    bool current(const std::vector<torch::Tensor>& weights, at::ScalarType dtype) const;

    std::mutex mutex_;
    at::ScalarType dtype_ = at::kFloat;
    // The weights' storages, held so that a freed one's address cannot come back as another's.
    std::vector<c10::Storage> storage_;
    std::vector<std::int64_t> offsets_;
    std::vector<std::int64_t> versions_;
    std::vector<torch::Tensor> cast_;
};

// Whether an eager forward may take the cached copies: no autograd, not capturing a CUDA graph,
// float32 CUDA weights that track versions (not inference tensors).
bool may_use_cast_weights_cache(const std::vector<torch::Tensor>& weights);

}  // namespace libreyolo::nn
