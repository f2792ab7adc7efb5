#pragma once
// Draws detections (box, class name, confidence) onto an image, one colour per class.
#include <opencv2/core.hpp>

#include "libreyolo/results.h"

namespace libreyolo::predict {

void draw_detections(cv::Mat& bgr, const Result& result);

}  // namespace libreyolo::predict
