#pragma once
// The two uncompressed image formats read and written without OpenCV's codecs, so that builds
// without them (the GPU host) can still render, train on and predict files: binary PPM (P6) and
// 24-bit BMP. BMP is also what LibreYOLO Python reads, so both trainers can share one dataset there.
#include <opencv2/core.hpp>

#include <filesystem>

namespace libreyolo::image {

// An empty Mat when the file is missing or not in the supported variant (P6 with maxval 255;
// BMP with a BITMAPINFOHEADER or later, 24 bits, uncompressed, either row order).
cv::Mat read_ppm(const std::filesystem::path& path);
cv::Mat read_bmp(const std::filesystem::path& path);

// bgr: CV_8UC3. Throw libreyolo::Error naming the path when the file cannot be written.
void write_ppm(const std::filesystem::path& path, const cv::Mat& bgr);
void write_bmp(const std::filesystem::path& path, const cv::Mat& bgr);

}  // namespace libreyolo::image
