#pragma once
// Letterboxed 8-bit canvases to the network's input, and in-memory images to OpenCV.
#include <torch/torch.h>
#include <opencv2/core.hpp>

#include <vector>

#include "libreyolo/image.h"

namespace libreyolo::predict {

// canvases: equal-sized 8-bit RGB images. Returns (B, 3, H, W) in [0, 1] (x / 255, computed in
// float32, then cast to dtype) on device. The 8-bit pixels travel to the device and are converted
// there: a quarter of the bytes to copy, and no float pass on the CPU.
torch::Tensor to_input_tensor(const std::vector<cv::Mat>& canvases, torch::Device device = torch::kCPU,
                              torch::Dtype dtype = torch::kFloat32);

// A deep copy of image as 8-bit BGR. Throws InvalidArgument for an empty or malformed view.
cv::Mat to_bgr(const ImageView& image);

}  // namespace libreyolo::predict
