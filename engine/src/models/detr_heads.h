#pragma once
// Pieces the DETR decoders share (RT-DETR's, D-FINE's and DEIM's), with LibreYOLO's names: the MLP
// head, row gathering and the grid anchors of the query selection.
#include <torch/torch.h>

#include <array>
#include <utility>
#include <vector>

namespace libreyolo::models {

enum class HeadActivation { ReLU, SiLU };

// Linear layers (module list "layers") with the activation between them, none after the last.
class MLPImpl : public torch::nn::Module {
public:
    MLPImpl(int64_t in, int64_t hidden, int64_t out, int layers, HeadActivation act = HeadActivation::ReLU);
    torch::Tensor forward(torch::Tensor x);
    // The fused copy's form: each ReLU in its linear layer's epilogue (linear_relu).
    torch::Tensor forward_fused(torch::Tensor x);
    const std::vector<torch::nn::Linear>& linears() const { return linears_; }
    HeadActivation activation() const { return act_; }

private:
    torch::nn::ModuleList layers_list{nullptr};
    std::vector<torch::nn::Linear> linears_;
    HeadActivation act_;
};
TORCH_MODULE(MLP);

torch::Tensor apply_activation(const torch::Tensor& x, HeadActivation act);

// relu(linear(x)) as one matrix product whose epilogue adds the bias and applies the ReLU (cuBLASLt
// on a GPU: one kernel instead of two); the values of relu(linear(x)) up to the product's rounding.
torch::Tensor linear_relu(const torch::nn::Linear& linear, const torch::Tensor& x);

// Rows `index` (B, K) of t (B, S, C): (B, K, C).
torch::Tensor gather_rows(const torch::Tensor& t, const torch::Tensor& index);

struct GridAnchors {
    torch::Tensor logits;  // (1, Σ H·W, 4): log(a / (1 - a)) of cx, cy, w, h; `invalid` near the border
    torch::Tensor valid;   // (1, Σ H·W, 1) bool: every coordinate inside (0.01, 0.99)
};

// LibreYOLO's _generate_anchors: per level (H, W) the cell centres, size 0.05 · 2^level, in
// constant_table_dtype(like's dtype) on like's device. RT-DETR marks the invalid cells +inf,
// D-FINE and DEIM 1e4 (finite, so float16 and exporters keep it).
GridAnchors grid_anchors(const std::vector<std::array<int64_t, 2>>& spatial_shapes, const torch::Tensor& like,
                         double invalid);

}  // namespace libreyolo::models
