#include "models/constant_tables.h"

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

}  // namespace libreyolo::models
