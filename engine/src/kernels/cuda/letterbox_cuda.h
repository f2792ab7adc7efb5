#pragma once
// The letterbox slot's CUDA implementation (provider libreyolo-cuda).
#include <torch/torch.h>

#include "kernels/letterbox_slot.h"

namespace libreyolo::kernels::cuda {

// Interleaved RGB rows on a CUDA device (a channels-last (B, 3, H, W) uint8 view, rows and images
// anywhere), a float32/float16/bfloat16 canvas.
bool letterbox_accepts(const torch::Tensor& pixels, const InputCanvas& canvas);
torch::Tensor letterbox(const torch::Tensor& pixels, const InputCanvas& canvas);

}  // namespace libreyolo::kernels::cuda
