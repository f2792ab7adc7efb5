#include "image/annotate.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "libreyolo/errors.h"

namespace libreyolo {
namespace {

// Ultralytics' palette, so plots look familiar to its users.
constexpr Rgb kPalette[] = {{255, 56, 56},  {255, 157, 151}, {255, 112, 31}, {255, 178, 29},  {207, 210, 49},
                            {72, 249, 10},  {146, 204, 23},  {61, 219, 134}, {26, 147, 52},   {0, 212, 187},
                            {44, 153, 168}, {0, 194, 255},   {52, 69, 147},  {100, 115, 255}, {0, 24, 236},
                            {132, 56, 255}, {82, 0, 133},    {203, 56, 255}, {255, 149, 200}, {255, 55, 199}};

// sRGB component to linear light (WCAG's relative luminance).
double linear(std::uint8_t c) {
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// Draws onto an image whose channel order is `order` (RGB or BGR).
void draw(cv::Mat& image, const Result& result, bool bgr) {
    const auto scalar = [bgr](Rgb c) { return bgr ? cv::Scalar(c.b, c.g, c.r) : cv::Scalar(c.r, c.g, c.b); };
    const int thickness = std::max(1, static_cast<int>(std::lround((image.rows + image.cols) / 2.0 * 0.003)));
    const int text_thickness = std::max(thickness - 1, 1);
    const double font_scale = thickness / 3.0;
    for (const auto& d : result.boxes) {
        const Rgb colour = box_colour(d);
        const cv::Point p1(static_cast<int>(d.x1), static_cast<int>(d.y1));
        const cv::Point p2(static_cast<int>(d.x2), static_cast<int>(d.y2));
        cv::rectangle(image, p1, p2, scalar(colour), thickness, cv::LINE_AA);
        const std::string label = box_label(result, d);
        int baseline = 0;
        const cv::Size text = cv::getTextSize(label, cv::FONT_HERSHEY_SIMPLEX, font_scale, text_thickness, &baseline);
        const int tag_w = text.width + 2, tag_h = text.height + baseline + 2;
        const LabelPlace at = place_label(p1.x, p1.y, tag_w, tag_h, image.cols, image.rows);
        cv::rectangle(image, cv::Rect(at.x, at.y, tag_w, tag_h), scalar(colour), cv::FILLED);
        cv::putText(image, label, cv::Point(at.x + 1, at.y + 1 + text.height), cv::FONT_HERSHEY_SIMPLEX, font_scale,
                    scalar(label_text_colour(colour)), text_thickness, cv::LINE_AA);
    }
}

}  // namespace

Rgb class_colour(int cls) {
    const auto n = static_cast<int>(std::size(kPalette));
    return kPalette[((cls % n) + n) % n];
}

Rgb box_colour(const Detection& box) {
    return class_colour(box.track_id >= 0 ? box.track_id : box.cls);
}

std::string box_label(const Result& result, const Detection& box) {
    char label[160];
    if (box.track_id >= 0)
        std::snprintf(label, sizeof label, "#%d %.2f", box.track_id, box.conf);
    else
        std::snprintf(label, sizeof label, "%s %.2f", result.class_name(box.cls).c_str(), box.conf);
    return label;
}

Rgb label_text_colour(Rgb background) {
    const double luminance =
        0.2126 * linear(background.r) + 0.7152 * linear(background.g) + 0.0722 * linear(background.b);
    // Black wins over white from the luminance where both contrast ratios are equal (~0.179).
    return luminance > 0.179 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

LabelPlace place_label(int x1, int y1, int width, int height, int image_width, int image_height) {
    LabelPlace at;
    at.y = y1 - height >= 0 ? y1 - height : std::max(0, y1);
    at.y = std::min(at.y, std::max(0, image_height - height));
    at.x = std::clamp(x1, 0, std::max(0, image_width - width));
    return at;
}

void draw_detections(std::uint8_t* rgb, int width, int height, int bytes_per_line, const Result& result) {
    if (!rgb || width <= 0 || height <= 0) throw InvalidArgument("draw_detections: an empty image");
    const std::size_t step =
        bytes_per_line > 0 ? static_cast<std::size_t>(bytes_per_line) : std::size_t(cv::Mat::AUTO_STEP);
    cv::Mat image(height, width, CV_8UC3, rgb, step);
    draw(image, result, false);
}

namespace image {

void draw_detections(cv::Mat& bgr, const Result& result) {
    draw(bgr, result, true);
}

ImageView bgr_view(const cv::Mat& bgr) {
    return ImageView{bgr.data, bgr.cols, bgr.rows, static_cast<int>(bgr.step), PixelFormat::BGR8};
}

}  // namespace image
}  // namespace libreyolo
