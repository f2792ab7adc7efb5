#pragma once
// The bundled sample image shifted right by shift pixels, the left edge repeated: frames of a
// clip in which every shape moves as one, for the tracking and live-source tests.
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace libreyolo::testing {

inline cv::Mat sliding_sample(int shift) {
    static const cv::Mat sample = cv::imread(LIBREYOLO_SAMPLE_IMAGE);
    const cv::Mat transform = (cv::Mat_<double>(2, 3) << 1, 0, shift, 0, 1, 0);
    cv::Mat out;
    cv::warpAffine(sample, out, transform, sample.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    return out;
}

}  // namespace libreyolo::testing
