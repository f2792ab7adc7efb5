#pragma once
// The pools of YOLOv9's fused inference copy, as slots: LibTorch's channels-last pooling kernels
// give few threads to a small map (SPPELAN's three 5x5 max pools took 80 µs on an H200 at 20x20;
// one thread per output value of the three, 15 µs: docs/fuse-bench.md).
//  - spp_max_pool: SPPELAN's three cascaded 5x5 max pools (stride 1, padding 2) written in place
//    into their parts of the block's concatenation buffer (B, 4c, H, W), whose first c channels are
//    the input. Reference: three max_pool2d calls, each on the previous part, as the eager network
//    runs them. CUDA: one kernel that takes the 5x5, 9x9 and 13x13 window maxima of the first part
//    (the cascade's windows, clipped at the border): the same values (NaN propagates, as LibTorch's).
//  - avg_pool_2x2: avg_pool2d(x, 2, stride 1, padding 0), the smoothing of AConv and ADown.
//    Reference: LibTorch's avg_pool2d. CUDA: one thread per output value of a channels-last map,
//    LibTorch's sum order (row by row, in the accumulation type) and division: the same values.
#include <torch/torch.h>

#include "kernels/slot.h"

namespace libreyolo::kernels {

// buffer: (B, 4·channels, H, W); returns buffer. Throws InvalidArgument for other shapes.
torch::Tensor spp_max_pool_reference(const torch::Tensor& buffer, int64_t channels);
using SppMaxPoolSignature = torch::Tensor(const torch::Tensor& buffer, int64_t channels);
Slot<SppMaxPoolSignature>& spp_max_pool_slot();

// x: (B, C, H, W) with H, W >= 2; returns (B, C, H - 1, W - 1) in x's memory format.
torch::Tensor avg_pool_2x2_reference(const torch::Tensor& x);
using AvgPool2x2Signature = torch::Tensor(const torch::Tensor& x);
Slot<AvgPool2x2Signature>& avg_pool_2x2_slot();

}  // namespace libreyolo::kernels
