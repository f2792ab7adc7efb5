#pragma once
// An image to the network's input canvas and boxes back, the way the family resizes
// (FamilyTraits::input_resize): letterbox or stretch.
#include <torch/torch.h>
#include <opencv2/core.hpp>

#include "libreyolo/families.h"

namespace libreyolo::image {

// image: 8-bit, 3 channels (the channel order is kept). Returns an input_h × input_w canvas.
cv::Mat resize_to_input(const cv::Mat& image, int input_h, int input_w, InputResize how);

// boxes (N, 4) xyxy in input pixels → original-image pixels (not clamped).
torch::Tensor boxes_to_original(const torch::Tensor& boxes, int orig_h, int orig_w, int input_h, int input_w,
                                InputResize how);

}  // namespace libreyolo::image
