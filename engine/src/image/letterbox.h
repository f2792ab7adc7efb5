#pragma once
// LibreYOLO's YOLOv9 letterbox: keep the aspect ratio, resize bilinearly, put the image in the
// top-left corner of an input_h × input_w canvas filled with 114.
#include <opencv2/core.hpp>

namespace libreyolo::image {

struct LetterboxGeometry {
    double ratio = 1;  // input pixels per original pixel
    int new_h = 0, new_w = 0;
};

// Throws InvalidArgument for non-positive sizes.
LetterboxGeometry letterbox_geometry(int orig_h, int orig_w, int input_h, int input_w);

// How the image is scaled onto the canvas: OpenCV's INTER_LINEAR (LibreYOLO's letterbox, cv2) or
// Pillow's antialiasing bilinear (LibreYOLO's YOLOX predict preprocess).
enum class Resampling { OpenCvLinear, PilBilinear };

// image: 8-bit, 3 channels (any channel order; it is kept). Returns the canvas.
cv::Mat letterbox(const cv::Mat& image, int input_h, int input_w, Resampling resampling = Resampling::OpenCvLinear,
                  int fill = 114);

}  // namespace libreyolo::image
