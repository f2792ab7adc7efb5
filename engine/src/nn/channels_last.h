#pragma once
// The fused inference copy's memory format on the CPU: every 4-D weight channels-last (NHWC), so
// that oneDNN runs each convolution on its native layout instead of reordering the activations
// and the weights into and out of NCHW at every layer (docs/fuse-bench.md: the largest single
// gain of the CPU fast path). Activations follow the input's format through the network.
#include <torch/torch.h>

namespace libreyolo::nn {

// Makes every 4-D parameter and buffer of net channels-last.
void to_channels_last(torch::nn::Module& net);

}  // namespace libreyolo::nn
