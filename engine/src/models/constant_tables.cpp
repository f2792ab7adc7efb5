#include "models/constant_tables.h"

#include <c10/cuda/CUDAGraphsC10Utils.h>

namespace libreyolo::models {

torch::Dtype constant_table_dtype(torch::Dtype compute) {
    return compute == torch::kFloat64 ? torch::kFloat64 : torch::kFloat32;
}

torch::Tensor sincos_position_embedding(int64_t w, int64_t h, int64_t embed_dim, double temperature,
                                        const torch::Tensor& like) {
    TORCH_CHECK(embed_dim % 4 == 0, "embed_dim must be divisible by 4 for the 2-D sin-cos embedding, got ", embed_dim);
    const auto table = torch::TensorOptions().dtype(constant_table_dtype(like.scalar_type())).device(like.device());
    const auto grids = torch::meshgrid({torch::arange(w, table), torch::arange(h, table)}, "ij");
    const int64_t pos_dim = embed_dim / 4;
    const torch::Tensor omega = 1.0 / torch::pow(temperature, torch::arange(pos_dim, table) / pos_dim);
    const torch::Tensor out_w = grids[0].flatten().unsqueeze(-1).matmul(omega.unsqueeze(0));
    const torch::Tensor out_h = grids[1].flatten().unsqueeze(-1).matmul(omega.unsqueeze(0));
    return torch::cat({out_w.sin(), out_w.cos(), out_h.sin(), out_h.cos()}, 1).unsqueeze(0);
}

std::string ConstantTableCache::key(const torch::Tensor& like, const std::vector<int64_t>& sizes) {
    std::string text = std::string(c10::toString(like.scalar_type())).append(" ").append(like.device().str());
    for (const int64_t size : sizes) text.append(" ").append(std::to_string(size));
    return text;
}

std::vector<torch::Tensor> ConstantTableCache::get(const std::string& key, const Build& build) {
    const std::lock_guard lock(mutex_);
    if (const auto found = tables_.find(key); found != tables_.end()) return found->second;
    // Ordinary tensors even when the first call runs in inference mode: a later call with autograd
    // on may save them for backward.
    const c10::InferenceMode normal_tensors(false);
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> tables = build();
    const bool capturing = !tables.empty() && tables.front().is_cuda() &&
                           c10::cuda::currentStreamCaptureStatusMayInitCtx() != c10::cuda::CaptureStatus::None;
    if (capturing) return tables;
    if (tables_.size() >= 16) tables_.clear();
    return tables_[key] = tables;
}

}  // namespace libreyolo::models
