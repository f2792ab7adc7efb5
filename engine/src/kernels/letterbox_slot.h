#pragma once
// The letterbox slot: 8-bit pixels to the network's input in one step, the form the fused
// inference path's preprocessing takes on the device (inside its CUDA graph). Bilinear resampling
// with OpenCV's INTER_LINEAR coordinates (pixel centres, edge pixels repeated, no antialiasing),
// the resized image in the canvas's top-left corner and the rest filled (a letterbox), or the
// whole canvas (a stretch: new size = canvas size); values times kPixelScale (1/255 in float32: a
// multiplication rounds alike on every device, where LibTorch's CUDA division by a scalar is itself
// a multiplication by the reciprocal); the canvas in the requested dtype and layout. Computed in float32 without
// rounding to 8 bits between the resize and the division, so it differs from OpenCV's fixed-point 8-bit resize by at
// most about one intensity level. Reference: LibTorch operations (any device, capturable). The CUDA implementation
// computes each output pixel in one thread, in the reference's operation order.
#include <torch/torch.h>

#include "kernels/slot.h"

namespace libreyolo::kernels {

inline constexpr float kPixelScale = 1.0f / 255.0f;

struct InputCanvas {
    int64_t height = 0, width = 0;              // the network input
    int64_t image_height = 0, image_width = 0;  // the resized image inside it, top-left
    int fill = 114;                             // 8-bit value of the border
    torch::Dtype dtype = torch::kFloat32;
    bool channels_last = false;  // the result's memory layout
};

// pixels: (B, 3, H, W) uint8, any strides (a channels-last view of interleaved RGB rows is the
// usual form). Returns (B, 3, canvas.height, canvas.width). Throws InvalidArgument for sizes that
// do not fit.
torch::Tensor letterbox_reference(const torch::Tensor& pixels, const InputCanvas& canvas);

// The canvas for an image of h × w: letterboxed (LibreYOLO's rule: the ratio of the tighter side,
// sizes truncated) or stretched to input_h × input_w.
InputCanvas input_canvas(int64_t h, int64_t w, int64_t input_h, int64_t input_w, bool stretch, torch::Dtype dtype,
                         bool channels_last);

using LetterboxSignature = torch::Tensor(const torch::Tensor& pixels, const InputCanvas& canvas);

Slot<LetterboxSignature>& letterbox_slot();

}  // namespace libreyolo::kernels
