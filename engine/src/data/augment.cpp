#include "data/augment.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

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

// Boxes through x' = a·x + tx, y' = a·y + ty, clipped to w × h, those under 2 px dropped.
std::vector<PixelBox> transform_boxes(const std::vector<PixelBox>& in, double a, double tx, double ty, int w, int h) {
    std::vector<PixelBox> out;
    for (const auto& b : in)
        out.push_back({b.cls, static_cast<float>(std::clamp(b.x1 * a + tx, 0.0, double(w))),
                       static_cast<float>(std::clamp(b.y1 * a + ty, 0.0, double(h))),
                       static_cast<float>(std::clamp(b.x2 * a + tx, 0.0, double(w))),
                       static_cast<float>(std::clamp(b.y2 * a + ty, 0.0, double(h)))});
    std::erase_if(out, [](const PixelBox& b) { return b.x2 - b.x1 < 2 || b.y2 - b.y1 < 2; });
    return out;
}

// A shift of at most gain, truncated toward zero, kept with probability ½ (numpy's
// uniform(-1, 1) · gain, then × randint(0, 2), then astype(int16)).
int draw_hsv_shift(double gain, Rng& rng) {
    return static_cast<int>(rng.uniform(-1, 1) * gain);
}

}  // namespace

Sample letterbox_sample(const Sample& s, int size) {
    // The prediction letterbox (top-left, grey 114), so that training sees what predict feeds.
    const image::LetterboxGeometry g = image::letterbox_geometry(s.rgb.rows, s.rgb.cols, size, size);
    return {image::letterbox(s.rgb, size, size), transform_boxes(s.boxes, g.ratio, 0, 0, size, size)};
}

Sample fit_sample(const Sample& s, int size) {
    const image::LetterboxGeometry g = image::letterbox_geometry(s.rgb.rows, s.rgb.cols, size, size);
    Sample out;
    if (g.new_w == s.rgb.cols && g.new_h == s.rgb.rows)
        out.rgb = s.rgb.clone();
    else
        cv::resize(s.rgb, out.rgb, cv::Size(g.new_w, g.new_h), 0, 0, cv::INTER_LINEAR);
    const auto r = static_cast<float>(g.ratio);
    for (const PixelBox& b : s.boxes) out.boxes.push_back({b.cls, b.x1 * r, b.y1 * r, b.x2 * r, b.y2 * r});
    return out;
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

Sample mosaic_canvas(const std::array<const Sample*, 4>& parts, int size, int xc, int yc) {
    const int s2 = 2 * size;
    Sample out;
    out.rgb = cv::Mat(s2, s2, CV_8UC3, kPad);
    for (int i = 0; i < 4; ++i) {
        const Sample& p = *parts[i];
        const double r = std::min(double(size) / p.rgb.rows, double(size) / p.rgb.cols);
        const int w = std::max(1, static_cast<int>(p.rgb.cols * r)), h = std::max(1, static_cast<int>(p.rgb.rows * r));
        const int x0 = (i % 2 == 0) ? xc - w : xc, y0 = (i < 2) ? yc - h : yc;
        const cv::Rect dst = cv::Rect(x0, y0, w, h) & cv::Rect(0, 0, s2, s2);
        if (dst.area() > 0) {
            cv::Mat img;
            cv::resize(p.rgb, img, cv::Size(w, h), 0, 0, cv::INTER_LINEAR);
            img(cv::Rect(dst.x - x0, dst.y - y0, dst.width, dst.height)).copyTo(out.rgb(dst));
        }
        for (const PixelBox& b : p.boxes)
            out.boxes.push_back({b.cls, static_cast<float>(std::clamp(b.x1 * r + x0, 0.0, double(s2))),
                                 static_cast<float>(std::clamp(b.y1 * r + y0, 0.0, double(s2))),
                                 static_cast<float>(std::clamp(b.x2 * r + x0, 0.0, double(s2))),
                                 static_cast<float>(std::clamp(b.y2 * r + y0, 0.0, double(s2)))});
    }
    return out;
}

AffineDraw draw_affine(const AugmentOptions& o, int size, Rng& rng) {
    constexpr double kRadians = std::numbers::pi / 180;
    AffineDraw d;
    d.angle = rng.uniform(-o.degrees, o.degrees);
    d.scale = rng.uniform(o.scale_min, o.scale_max);
    d.shear_x = std::tan(rng.uniform(-o.shear, o.shear) * kRadians);
    d.shear_y = std::tan(rng.uniform(-o.shear, o.shear) * kRadians);
    d.tx = rng.uniform(-o.translate, o.translate) * size;
    d.ty = rng.uniform(-o.translate, o.translate) * size;
    return d;
}

cv::Matx23d affine_matrix(const AffineDraw& d) {
    // cv2.getRotationMatrix2D(angle, (0, 0), scale), then row 0 += shear_y · row 1 and
    // row 1 += shear_x · row 0 (the rotation's rows), then the translation.
    const cv::Mat r = cv::getRotationMatrix2D(cv::Point2f(0, 0), d.angle, d.scale);
    const double a = r.at<double>(0, 0), b = r.at<double>(0, 1), c = r.at<double>(1, 0), e = r.at<double>(1, 1);
    return {a + d.shear_y * c, b + d.shear_y * e, d.tx, c + d.shear_x * a, e + d.shear_x * b, d.ty};
}

Sample warp_affine(const Sample& s, const cv::Matx23d& m, int size) {
    Sample out;
    cv::warpAffine(s.rgb, out.rgb, cv::Mat(m), cv::Size(size, size), cv::INTER_LINEAR, cv::BORDER_CONSTANT, kPad);
    for (const PixelBox& b : s.boxes) {
        const std::array<cv::Point2d, 4> corners{cv::Point2d(b.x1, b.y1), cv::Point2d(b.x2, b.y2),
                                                 cv::Point2d(b.x1, b.y2), cv::Point2d(b.x2, b.y1)};
        double x_min = 1e300, y_min = 1e300, x_max = -1e300, y_max = -1e300;
        for (const cv::Point2d& p : corners) {
            const double x = m(0, 0) * p.x + m(0, 1) * p.y + m(0, 2), y = m(1, 0) * p.x + m(1, 1) * p.y + m(1, 2);
            x_min = std::min(x_min, x);
            x_max = std::max(x_max, x);
            y_min = std::min(y_min, y);
            y_max = std::max(y_max, y);
        }
        out.boxes.push_back({b.cls, static_cast<float>(std::clamp(x_min, 0.0, double(size))),
                             static_cast<float>(std::clamp(y_min, 0.0, double(size))),
                             static_cast<float>(std::clamp(x_max, 0.0, double(size))),
                             static_cast<float>(std::clamp(y_max, 0.0, double(size)))});
    }
    return out;
}

std::array<int, 3> draw_hsv_shifts(Rng& rng) {
    std::array<int, 3> shift{draw_hsv_shift(5, rng), draw_hsv_shift(30, rng), draw_hsv_shift(30, rng)};
    for (int& v : shift)
        if (rng.below(2) == 0) v = 0;
    return shift;
}

void shift_hsv(cv::Mat& rgb, const std::array<int, 3>& shift) {
    // OpenCV's 8-bit HSV of RGB pixels equals that of the same pixels in BGR order (LibreYOLO's).
    cv::Mat hsv;
    cv::cvtColor(rgb, hsv, cv::COLOR_RGB2HSV);
    std::array<cv::Mat, 3> lut;
    for (auto& l : lut) l = cv::Mat(1, 256, CV_8U);
    for (int x = 0; x < 256; ++x) {
        lut[0].at<uchar>(x) = static_cast<uchar>(((x + shift[0]) % 180 + 180) % 180);
        lut[1].at<uchar>(x) = static_cast<uchar>(std::clamp(x + shift[1], 0, 255));
        lut[2].at<uchar>(x) = static_cast<uchar>(std::clamp(x + shift[2], 0, 255));
    }
    std::vector<cv::Mat> ch;
    cv::split(hsv, ch);
    for (int c = 0; c < 3; ++c) cv::LUT(ch[c], lut[c], ch[c]);
    cv::merge(ch, hsv);
    cv::cvtColor(hsv, rgb, cv::COLOR_HSV2RGB);
}

void maybe_flip(Sample& s, float flip, Rng& rng) {
    if (rng.uniform() >= flip) return;
    cv::flip(s.rgb, s.rgb, 1);
    const float w = static_cast<float>(s.rgb.cols);
    for (auto& b : s.boxes) {
        const float x1 = w - b.x2, x2 = w - b.x1;
        b.x1 = x1;
        b.x2 = x2;
    }
}

}  // namespace libreyolo::data
