#include "predict/annotate.h"

#include <opencv2/imgproc.hpp>

#include <cstdio>

namespace libreyolo::predict {
namespace {

// Ultralytics' palette (BGR here), so plots look familiar to its users.
const cv::Scalar kPalette[] = {{56, 56, 255},  {151, 157, 255}, {31, 112, 255}, {29, 178, 255},  {49, 210, 207},
                               {10, 249, 72},  {23, 204, 146},  {134, 219, 61}, {52, 147, 26},   {187, 212, 0},
                               {168, 153, 44}, {255, 194, 0},   {147, 69, 52},  {255, 115, 100}, {236, 24, 0},
                               {255, 56, 132}, {133, 0, 82},    {255, 56, 203}, {200, 149, 255}, {199, 55, 255}};

}  // namespace

void draw_detections(cv::Mat& bgr, const Result& result) {
    const int thickness = std::max(1, static_cast<int>(std::lround((bgr.rows + bgr.cols) / 2.0 * 0.003)));
    const double font_scale = thickness / 3.0;
    for (const auto& d : result.boxes) {
        const cv::Scalar colour = kPalette[static_cast<std::size_t>(d.cls) % std::size(kPalette)];
        const cv::Point p1(static_cast<int>(d.x1), static_cast<int>(d.y1));
        const cv::Point p2(static_cast<int>(d.x2), static_cast<int>(d.y2));
        cv::rectangle(bgr, p1, p2, colour, thickness, cv::LINE_AA);
        char label[160];
        std::snprintf(label, sizeof label, "%s %.2f", result.class_name(d.cls).c_str(), d.conf);
        int baseline = 0;
        const cv::Size text =
            cv::getTextSize(label, cv::FONT_HERSHEY_SIMPLEX, font_scale, std::max(thickness - 1, 1), &baseline);
        const bool above = p1.y - text.height - 3 >= 0;
        const cv::Point corner(p1.x, above ? p1.y - text.height - 3 : p1.y + text.height + 3);
        cv::rectangle(bgr, p1, cv::Point(p1.x + text.width, corner.y), colour, cv::FILLED, cv::LINE_AA);
        cv::putText(bgr, label, cv::Point(p1.x, above ? p1.y - 2 : p1.y + text.height + 2), cv::FONT_HERSHEY_SIMPLEX,
                    font_scale, cv::Scalar(255, 255, 255), std::max(thickness - 1, 1), cv::LINE_AA);
    }
}

}  // namespace libreyolo::predict
