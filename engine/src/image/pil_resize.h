#pragma once
// Pillow's Image.resize(size, Image.BILINEAR) for 8-bit images, bit for bit. LibreYOLO's YOLOX
// preprocess resizes with Pillow, whose bilinear filter widens with the shrink factor (it
// antialiases) where OpenCV's INTER_LINEAR samples four pixels; the two differ by several grey
// levels on a shrunk photo. Pillow's Resample.c: two separable passes in fixed point (22 fraction
// bits), each rounded to 8 bits, in Pillow 13's order.
#include <opencv2/core.hpp>

namespace libreyolo::image {

// image: 8-bit, any number of channels (each resized alone). Returns out_w × out_h of the same
// type. Throws InvalidArgument for an empty image, a non-8-bit one or a non-positive size.
cv::Mat pil_bilinear_resize(const cv::Mat& image, int out_w, int out_h);

}  // namespace libreyolo::image
