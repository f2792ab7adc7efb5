#pragma once
// Images to the network's input, the way the model's family prepares them: the one preprocessor of
// predict (and so val and the studio) and quantize calibration.
#include <torch/torch.h>
#include <opencv2/core.hpp>

#include <vector>

#include "libreyolo/families.h"
#include "libreyolo/image.h"

namespace libreyolo::image {

// canvases: equal-sized 8-bit RGB images. Returns (B, 3, H, W) in [0, 1] (x / 255, computed in
// float32, then cast to dtype) on device. The 8-bit pixels travel to the device and are converted
// there: a quarter of the bytes to copy, and no float pass on the CPU.
torch::Tensor to_input_tensor(const std::vector<cv::Mat>& canvases, torch::Device device = torch::kCPU,
                              torch::Dtype dtype = torch::kFloat32);

// rgb: 8-bit RGB images of any sizes. Each resized to imgsz × imgsz as the family does
// (FamilyTraits::input_resize: LibreYOLO's letterbox or its DETR stretch), then to_input_tensor.
torch::Tensor prepare_input(const std::vector<cv::Mat>& rgb, int imgsz, InputResize how, torch::Device device,
                            torch::Dtype dtype);

// rgb: equal-sized 8-bit RGB images. Copies them into one page-locked buffer and starts its copy
// to the CUDA device without waiting; returns the device pixels as (B, 3, H, W) uint8, a
// channels-last view of the RGB rows (the letterbox slot's input).
torch::Tensor upload_pixels(const std::vector<cv::Mat>& rgb, torch::Device device);

// A deep copy of image as 8-bit RGB. Throws InvalidArgument for an empty or malformed view.
cv::Mat to_rgb(const ImageView& image);

}  // namespace libreyolo::image
