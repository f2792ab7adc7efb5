#include "image/input_resize.h"

#include <opencv2/imgproc.hpp>

#include "image/letterbox.h"
#include "image/pil_resize.h"

namespace libreyolo::image {

cv::Mat resize_to_input(const cv::Mat& image, int input_h, int input_w, InputResize how) {
    if (how == InputResize::Letterbox) return letterbox(image, input_h, input_w);
    if (how == InputResize::LetterboxPil) return letterbox(image, input_h, input_w, Resampling::PilBilinear);
    // Checks the sizes as the letterbox does, so both fail alike.
    (void)letterbox_geometry(image.rows, image.cols, input_h, input_w);
    if (how == InputResize::StretchPil) return pil_bilinear_resize(image, input_w, input_h);
    cv::Mat resized;
    cv::resize(image, resized, cv::Size(input_w, input_h), 0, 0, cv::INTER_LINEAR);
    return resized;
}

torch::Tensor boxes_to_original(const torch::Tensor& boxes, int orig_h, int orig_w, int input_h, int input_w,
                                InputResize how) {
    const LetterboxGeometry g = letterbox_geometry(orig_h, orig_w, input_h, input_w);
    // Top-left padding: undoing the letterbox is a division by the ratio.
    if (!is_stretch(how)) return boxes / g.ratio;
    const double sx = static_cast<double>(orig_w) / input_w, sy = static_cast<double>(orig_h) / input_h;
    return boxes * torch::tensor({sx, sy, sx, sy}, boxes.options());
}

}  // namespace libreyolo::image
