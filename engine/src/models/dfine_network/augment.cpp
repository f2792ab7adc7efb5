#include "models/dfine_network/augment.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "image/pil_resize.h"

namespace libreyolo::models::dfine_network {
namespace {

using data::PixelBox;
using data::Rng;
using data::Sample;

uint8_t to_byte(double v) {
    return static_cast<uint8_t>(std::clamp(v, 0.0, 255.0));  // clamped, then truncated
}

// torchvision's rgb_to_grayscale for 8 bits: the weighted sum, truncated.
cv::Mat grey_of(const cv::Mat& rgb) {
    cv::Mat grey(rgb.size(), CV_8UC1);
    rgb.forEach<cv::Vec3b>([&](const cv::Vec3b& p, const int* at) {
        grey.at<uint8_t>(at[0], at[1]) = static_cast<uint8_t>(0.2989f * p[0] + 0.587f * p[1] + 0.114f * p[2]);
    });
    return grey;
}

void blend_with_constant(cv::Mat& rgb, double factor, double other) {
    rgb.forEach<cv::Vec3b>([&](cv::Vec3b& p, const int*) {
        for (int c = 0; c < 3; ++c) p[c] = to_byte(factor * p[c] + (1 - factor) * other);
    });
}

void adjust_contrast(cv::Mat& rgb, double factor) {
    blend_with_constant(rgb, factor, cv::mean(grey_of(rgb))[0]);
}

void adjust_saturation(cv::Mat& rgb, double factor) {
    const cv::Mat grey = grey_of(rgb);
    rgb.forEach<cv::Vec3b>([&](cv::Vec3b& p, const int* at) {
        const double g = grey.at<uint8_t>(at[0], at[1]);
        for (int c = 0; c < 3; ++c) p[c] = to_byte(factor * p[c] + (1 - factor) * g);
    });
}

// torchvision's _rgb_to_hsv / _hsv_to_rgb in float, the 8-bit values scaled to [0, 1] and back as
// its to_dtype does (× (256 − 1e-3), truncated).
void adjust_hue(cv::Mat& rgb, double shift) {
    rgb.forEach<cv::Vec3b>([&](cv::Vec3b& px, const int*) {
        const float r = px[0] / 255.0f, g = px[1] / 255.0f, b = px[2] / 255.0f;
        const float maxc = std::max({r, g, b}), minc = std::min({r, g, b});
        const bool flat = maxc == minc;
        const float range = maxc - minc;
        const float s = range / (flat ? 1.0f : maxc);
        const float divisor = flat ? 1.0f : range;
        const float rc = (maxc - r) / divisor, gc = (maxc - g) / divisor, bc = (maxc - b) / divisor;
        float h = 0;
        if (maxc == r)
            h = bc - gc;
        else if (maxc == g)
            h = 2.0f + rc - bc;
        else
            h = 4.0f + gc - rc;
        h = std::fmod(h / 6.0f + 1.0f, 1.0f);
        h = static_cast<float>(std::fmod(h + shift, 1.0));
        if (h < 0) h += 1.0f;
        const float v = maxc;
        const float i = std::floor(h * 6.0f), f = h * 6.0f - i;
        const int sector = static_cast<int>(i) % 6;
        const float p = std::clamp(v * (1.0f - s), 0.0f, 1.0f);
        const float q = std::clamp(v * (1.0f - s * f), 0.0f, 1.0f);
        const float t = std::clamp(v * (1.0f - s * (1.0f - f)), 0.0f, 1.0f);
        const std::array<float, 6> rs{v, q, p, p, t, v}, gs{t, v, v, q, p, p}, bs{p, p, t, v, v, q};
        const float out[3] = {rs[sector], gs[sector], bs[sector]};
        for (int c = 0; c < 3; ++c) px[c] = static_cast<uint8_t>(std::clamp(out[c] * (256.0f - 1e-3f), 0.0f, 255.0f));
    });
}

double box_iou(const PixelBox& b, double x1, double y1, double x2, double y2) {
    const double iw = std::max(0.0, std::min<double>(b.x2, x2) - std::max<double>(b.x1, x1));
    const double ih = std::max(0.0, std::min<double>(b.y2, y2) - std::max<double>(b.y1, y1));
    const double inter = iw * ih;
    const double area = double(b.x2 - b.x1) * double(b.y2 - b.y1) + (x2 - x1) * (y2 - y1) - inter;
    return area > 0 ? inter / area : 0.0;
}

}  // namespace

PhotometricDraw draw_photometric(Rng& rng) {
    PhotometricDraw d;
    if (rng.uniform() < 0.5) d.brightness = rng.uniform(0.875, 1.125);
    if (rng.uniform() < 0.5) d.contrast = rng.uniform(0.5, 1.5);
    if (rng.uniform() < 0.5) d.saturation = rng.uniform(0.5, 1.5);
    if (rng.uniform() < 0.5) d.hue = rng.uniform(-0.05, 0.05);
    d.contrast_first = rng.uniform() < 0.5;
    if (rng.uniform() < 0.5) {
        std::array<int, 3> order{0, 1, 2};
        for (int i = 2; i > 0; --i)
            std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(rng.below(i + 1))]);
        d.permutation = order;
    }
    return d;
}

void photometric_distort(cv::Mat& rgb, const PhotometricDraw& d) {
    if (d.brightness) blend_with_constant(rgb, *d.brightness, 0.0);
    if (d.contrast && d.contrast_first) adjust_contrast(rgb, *d.contrast);
    if (d.saturation) adjust_saturation(rgb, *d.saturation);
    if (d.hue) adjust_hue(rgb, *d.hue);
    if (d.contrast && !d.contrast_first) adjust_contrast(rgb, *d.contrast);
    if (d.permutation) {
        const auto& order = *d.permutation;
        rgb.forEach<cv::Vec3b>([&](cv::Vec3b& p, const int*) {
            const cv::Vec3b in = p;
            for (int c = 0; c < 3; ++c) p[c] = in[order[static_cast<std::size_t>(c)]];
        });
    }
}

Sample zoom_out(const Sample& s, double ratio, double u_left, double u_top) {
    const int w = s.rgb.cols, h = s.rgb.rows;
    const int canvas_w = static_cast<int>(w * ratio), canvas_h = static_cast<int>(h * ratio);
    const int left = static_cast<int>((canvas_w - w) * u_left), top = static_cast<int>((canvas_h - h) * u_top);
    Sample out;
    out.rgb = cv::Mat::zeros(canvas_h, canvas_w, CV_8UC3);
    s.rgb.copyTo(out.rgb(cv::Rect(left, top, w, h)));
    const auto clip = [](float v, int hi) { return std::clamp(v, 0.0f, static_cast<float>(hi)); };
    for (const PixelBox& b : s.boxes)
        out.boxes.push_back({b.cls, clip(b.x1 + left, canvas_w), clip(b.y1 + top, canvas_h),
                             clip(b.x2 + left, canvas_w), clip(b.y2 + top, canvas_h)});
    return out;
}

bool iou_crop(Sample& s, Rng& rng) {
    static constexpr std::array<double, 7> kThresholds{0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0};
    const int w = s.rgb.cols, h = s.rgb.rows;
    // torchvision draws thresholds until a crop is found; a bound keeps a pathological image from
    // looping (at threshold 0 any window holding a box centre passes).
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const double threshold = kThresholds[static_cast<std::size_t>(rng.below(kThresholds.size()))];
        if (threshold >= 1.0) return false;
        for (int trial = 0; trial < 40; ++trial) {
            const double r0 = 0.3 + 0.7 * rng.uniform(), r1 = 0.3 + 0.7 * rng.uniform();
            const int new_w = static_cast<int>(w * r0), new_h = static_cast<int>(h * r1);
            if (new_h == 0) continue;
            const double aspect = double(new_w) / double(new_h);
            if (!(aspect >= 0.5 && aspect <= 2.0)) continue;
            const double u0 = rng.uniform(), u1 = rng.uniform();
            const int left = static_cast<int>((w - new_w) * u0), top = static_cast<int>((h - new_h) * u1);
            const int right = left + new_w, bottom = top + new_h;
            if (left == right || top == bottom) continue;
            std::vector<bool> inside(s.boxes.size());
            bool any = false;
            double best = 0;
            for (std::size_t k = 0; k < s.boxes.size(); ++k) {
                const PixelBox& b = s.boxes[k];
                const double cx = 0.5 * (b.x1 + b.x2), cy = 0.5 * (b.y1 + b.y2);
                inside[k] = left < cx && cx < right && top < cy && cy < bottom;
                if (!inside[k]) continue;
                any = true;
                best = std::max(best, box_iou(b, left, top, right, bottom));
            }
            if (!any || best < threshold) continue;
            Sample out;
            out.rgb = s.rgb(cv::Rect(left, top, new_w, new_h)).clone();
            const auto clip = [](float v, int hi) { return std::clamp(v, 0.0f, static_cast<float>(hi)); };
            for (std::size_t k = 0; k < s.boxes.size(); ++k) {
                const PixelBox& b = s.boxes[k];
                if (!inside[k]) {
                    out.boxes.push_back({b.cls, 0, 0, 0, 0});
                    continue;
                }
                out.boxes.push_back({b.cls, clip(b.x1 - left, new_w), clip(b.y1 - top, new_h), clip(b.x2 - left, new_w),
                                     clip(b.y2 - top, new_h)});
            }
            s = std::move(out);
            return true;
        }
    }
    return false;
}

void sanitize(Sample& s) {
    const auto w = static_cast<float>(s.rgb.cols), h = static_cast<float>(s.rgb.rows);
    std::erase_if(s.boxes, [&](const PixelBox& b) {
        const float bw = b.x2 - b.x1, bh = b.y2 - b.y1;
        const bool big_enough = bw >= 1 && bh >= 1 && bw * bh >= 1;
        const bool inside =
            b.x1 >= 0 && b.y1 >= 0 && b.x2 >= 0 && b.y2 >= 0 && b.x1 <= w && b.x2 <= w && b.y1 <= h && b.y2 <= h;
        return !(big_enough && inside);
    });
}

Sample DetrPipeline::make(const data::SampleSource& source, int item, int size, bool strong_epoch, Rng& rng) const {
    Sample s = fit_first_ ? data::fit_sample(source.read(item), size) : source.read(item);
    if (strong_epoch && !s.boxes.empty()) {
        photometric_distort(s.rgb, draw_photometric(rng));
        if (rng.uniform() < 0.5) {
            const double ratio = 1.0 + 3.0 * rng.uniform();
            const double u_left = rng.uniform(), u_top = rng.uniform();
            s = zoom_out(s, ratio, u_left, u_top);
        }
        if (rng.uniform() < 0.8) iou_crop(s, rng);
        sanitize(s);
    }
    data::maybe_flip(s, o_.flip, rng);
    const float rx = static_cast<float>(size) / static_cast<float>(s.rgb.cols);
    const float ry = static_cast<float>(size) / static_cast<float>(s.rgb.rows);
    Sample out;
    out.rgb = image::pil_bilinear_resize(s.rgb, size, size);
    for (const PixelBox& b : s.boxes) out.boxes.push_back({b.cls, b.x1 * rx, b.y1 * ry, b.x2 * rx, b.y2 * ry});
    sanitize(out);
    std::erase_if(out.boxes, [](const PixelBox& b) { return !(b.x2 - b.x1 > 1 && b.y2 - b.y1 > 1); });
    if (out.boxes.size() > kMaxLabels) out.boxes.resize(kMaxLabels);
    return out;
}

}  // namespace libreyolo::models::dfine_network
