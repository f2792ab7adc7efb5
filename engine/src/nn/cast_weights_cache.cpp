#include "nn/cast_weights_cache.h"

#include <c10/cuda/CUDAGraphsC10Utils.h>

namespace libreyolo::nn {

bool CastWeightsCache::current(const std::vector<torch::Tensor>& weights, at::ScalarType dtype) const {
    if (dtype != dtype_ || weights.size() != cast_.size()) return false;
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (!weights[i].storage().is_alias_of(storage_[i]) || weights[i].storage_offset() != offsets_[i] ||
            weights[i]._version() != versions_[i])
            return false;
    return true;
}

std::vector<torch::Tensor> CastWeightsCache::get(const std::vector<torch::Tensor>& weights, at::ScalarType dtype) {
    const std::lock_guard lock(mutex_);
    if (!current(weights, dtype)) {
        dtype_ = dtype;
        storage_.clear(), offsets_.clear(), versions_.clear(), cast_.clear();
        for (const torch::Tensor& w : weights) {
            storage_.push_back(w.storage());
            offsets_.push_back(w.storage_offset());
            versions_.push_back(w._version());
            cast_.push_back(w.detach().to(dtype));
        }
    }
    return cast_;
}

bool may_use_cast_weights_cache(const std::vector<torch::Tensor>& weights) {
    if (at::GradMode::is_enabled()) return false;
    for (const torch::Tensor& w : weights)
        if (!w.is_cuda() || w.scalar_type() != at::kFloat || w.is_inference()) return false;
    return c10::cuda::currentStreamCaptureStatusMayInitCtx() == c10::cuda::CaptureStatus::None;
}

}  // namespace libreyolo::nn
