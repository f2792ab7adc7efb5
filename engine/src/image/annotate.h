#pragma once
// Draws detections onto an OpenCV image (libreyolo/annotate.h has the palette and label rules).
#include <opencv2/core.hpp>

#include "libreyolo/annotate.h"
#include "libreyolo/image.h"

namespace libreyolo::image {

// bgr: 8-bit, 3 channels, blue first (as OpenCV decodes); drawn in place.
void draw_detections(cv::Mat& bgr, const Result& result);

// A view of a continuous 8-bit BGR image, for callers outside OpenCV.
ImageView bgr_view(const cv::Mat& bgr);

}  // namespace libreyolo::image
