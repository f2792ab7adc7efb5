#include "data/augment.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "image/letterbox.h"

namespace libreyolo::data {

std::uint64_t Rng::next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
double Rng::uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53;
}
int Rng::below(int n) {
    return static_cast<int>(next() % static_cast<std::uint64_t>(n));
}

namespace {

const cv::Scalar kPad(114, 114, 114);

// Boxes through x' = a·x + tx, y' = a·y + ty, clipped to w × h, tiny ones dropped.
std::vector<PixelBox> transform_boxes(const std::vector<PixelBox>& in, double a, double tx, double ty, int w, int h) {
    std::vector<PixelBox> out;
    for (const auto& b : in) {
        PixelBox t{b.cls, static_cast<float>(std::clamp(b.x1 * a + tx, 0.0, double(w))),
                   static_cast<float>(std::clamp(b.y1 * a + ty, 0.0, double(h))),
                   static_cast<float>(std::clamp(b.x2 * a + tx, 0.0, double(w))),
                   static_cast<float>(std::clamp(b.y2 * a + ty, 0.0, double(h)))};
        if (t.x2 - t.x1 >= 2 && t.y2 - t.y1 >= 2) out.push_back(t);
    }
    return out;
}

}  // namespace

Sample letterbox_sample(const Sample& s, int size) {
    // The prediction letterbox (top-left, grey 114), so that training sees what predict feeds.
    const image::LetterboxGeometry g = image::letterbox_geometry(s.rgb.rows, s.rgb.cols, size, size);
    return {image::letterbox(s.rgb, size, size), transform_boxes(s.boxes, g.ratio, 0, 0, size, size)};
}

Sample stretch_sample(const Sample& s, int size) {
    Sample out;
    cv::resize(s.rgb, out.rgb, cv::Size(size, size), 0, 0, cv::INTER_LINEAR);
    const float rx = static_cast<float>(size) / s.rgb.cols, ry = static_cast<float>(size) / s.rgb.rows;
    std::vector<PixelBox> all;
    for (const PixelBox& b : s.boxes) {
        const PixelBox r{b.cls, b.x1 * rx, b.y1 * ry, b.x2 * rx, b.y2 * ry};
        all.push_back(r);
        if (r.x2 - r.x1 > 1 && r.y2 - r.y1 > 1) out.boxes.push_back(r);
    }
    if (out.boxes.empty()) out.boxes = all;
    return out;
}

Sample mosaic(const std::array<const Sample*, 4>& parts, int size, const AugmentOptions& o, Rng& rng) {
    const int s2 = 2 * size;
    cv::Mat canvas(s2, s2, CV_8UC3, kPad);
    const int xc = static_cast<int>(rng.uniform(0.5 * size, 1.5 * size));
    const int yc = static_cast<int>(rng.uniform(0.5 * size, 1.5 * size));
    std::vector<PixelBox> boxes;
    for (int i = 0; i < 4; ++i) {
        const Sample& p = *parts[i];
        const double r = double(size) / std::max(p.rgb.rows, p.rgb.cols);
        const int w = std::max(1, static_cast<int>(p.rgb.cols * r)), h = std::max(1, static_cast<int>(p.rgb.rows * r));
        cv::Mat img;
        cv::resize(p.rgb, img, cv::Size(w, h), 0, 0, cv::INTER_LINEAR);
        // Quadrant i touches the centre: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
        const int x0 = (i % 2 == 0) ? xc - w : xc, y0 = (i < 2) ? yc - h : yc;
        const cv::Rect dst = cv::Rect(x0, y0, w, h) & cv::Rect(0, 0, s2, s2);
        if (dst.area() == 0) continue;
        img(cv::Rect(dst.x - x0, dst.y - y0, dst.width, dst.height)).copyTo(canvas(dst));
        for (const auto& b : transform_boxes(p.boxes, r, x0, y0, s2, s2))
            if (b.x2 > dst.x && b.x1 < dst.x + dst.width && b.y2 > dst.y && b.y1 < dst.y + dst.height)
                boxes.push_back(b);
    }
    // Scale about the canvas centre and keep the central size × size window, shifted at random
    // (Ultralytics' random_perspective with border -size/2).
    const double scale = rng.uniform(o.scale_min, o.scale_max);
    const double tx = size / 2.0 - scale * size + rng.uniform(-o.translate, o.translate) * size;
    const double ty = size / 2.0 - scale * size + rng.uniform(-o.translate, o.translate) * size;
    const cv::Mat m = (cv::Mat_<double>(2, 3) << scale, 0, tx, 0, scale, ty);
    Sample out;
    cv::warpAffine(canvas, out.rgb, m, cv::Size(size, size), cv::INTER_LINEAR, cv::BORDER_CONSTANT, kPad);
    out.boxes = transform_boxes(boxes, scale, tx, ty, size, size);
    return out;
}

void jitter_hsv(cv::Mat& rgb, const AugmentOptions& o, Rng& rng) {
    const double gain_h = rng.uniform(-1, 1) * o.hsv_h + 1, gain_s = rng.uniform(-1, 1) * o.hsv_s + 1,
                 gain_v = rng.uniform(-1, 1) * o.hsv_v + 1;
    cv::Mat hsv;
    cv::cvtColor(rgb, hsv, cv::COLOR_RGB2HSV);
    std::array<cv::Mat, 3> lut;
    for (auto& l : lut) l = cv::Mat(1, 256, CV_8U);
    for (int x = 0; x < 256; ++x) {
        lut[0].at<uchar>(x) = static_cast<uchar>(static_cast<int>(x * gain_h) % 180);
        lut[1].at<uchar>(x) = cv::saturate_cast<uchar>(x * gain_s);
        lut[2].at<uchar>(x) = cv::saturate_cast<uchar>(x * gain_v);
    }
    std::vector<cv::Mat> ch;
    cv::split(hsv, ch);
    for (int c = 0; c < 3; ++c) cv::LUT(ch[c], lut[c], ch[c]);
    cv::merge(ch, hsv);
    cv::cvtColor(hsv, rgb, cv::COLOR_HSV2RGB);
}

void maybe_flip(Sample& s, const AugmentOptions& o, Rng& rng) {
    if (rng.uniform() >= o.flip) return;
    cv::flip(s.rgb, s.rgb, 1);
    const float w = static_cast<float>(s.rgb.cols);
    for (auto& b : s.boxes) {
        const float x1 = w - b.x2, x2 = w - b.x1;
        b.x1 = x1;
        b.x2 = x2;
    }
}

}  // namespace libreyolo::data
