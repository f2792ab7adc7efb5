#include "image/letterbox.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <string>

#include "image/pil_resize.h"
#include "libreyolo/errors.h"

namespace libreyolo::image {

LetterboxGeometry letterbox_geometry(int orig_h, int orig_w, int input_h, int input_w) {
    if (orig_h <= 0 || orig_w <= 0)
        throw InvalidArgument("letterbox: original size must be positive, got " + std::to_string(orig_h) + "x" +
                              std::to_string(orig_w));
    if (input_h <= 0 || input_w <= 0)
        throw InvalidArgument("letterbox: input size must be positive, got " + std::to_string(input_h) + "x" +
                              std::to_string(input_w));
    LetterboxGeometry g;
    g.ratio = std::min(static_cast<double>(input_h) / orig_h, static_cast<double>(input_w) / orig_w);
    // int() truncation, as Python's int(orig * ratio).
    g.new_h = std::max(static_cast<int>(orig_h * g.ratio), 1);
    g.new_w = std::max(static_cast<int>(orig_w * g.ratio), 1);
    return g;
}

cv::Mat letterbox(const cv::Mat& image, int input_h, int input_w, Resampling resampling, int fill) {
    const LetterboxGeometry g = letterbox_geometry(image.rows, image.cols, input_h, input_w);
    cv::Mat canvas(input_h, input_w, image.type(), cv::Scalar::all(fill));
    cv::Mat resized;
    if (resampling == Resampling::PilBilinear)
        resized = pil_bilinear_resize(image, g.new_w, g.new_h);
    else
        cv::resize(image, resized, cv::Size(g.new_w, g.new_h), 0, 0, cv::INTER_LINEAR);
    resized.copyTo(canvas(cv::Rect(0, 0, g.new_w, g.new_h)));
    return canvas;
}

}  // namespace libreyolo::image
