#pragma once
// Letterboxed 8-bit canvases to the network's input, and in-memory images to OpenCV.
#include <torch/torch.h>
#include <opencv2/core.hpp>

#include <vector>

#include "libreyolo/image.h"

namespace libreyolo::predict {

// canvases: equal-sized 8-bit RGB images. Returns (B, 3, H, W) float32 in [0, 1] (x / 255).
torch::Tensor to_input_tensor(const std::vector<cv::Mat>& canvases);

// A deep copy of image as 8-bit BGR. Throws InvalidArgument for an empty or malformed view.
cv::Mat to_bgr(const ImageView& image);

}  // namespace libreyolo::predict
