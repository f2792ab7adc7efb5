#include "models/yolox/augment.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <tuple>
#include <utility>

#include "image/letterbox.h"

namespace libreyolo::models::yolox {
namespace {

using data::PixelBox;
using data::Sample;

// LibreYOLO's preproc: the letterbox, boxes scaled with it (neither clipped nor dropped).
Sample letterbox_keeping_boxes(const Sample& s, int size) {
    const image::LetterboxGeometry g = image::letterbox_geometry(s.rgb.rows, s.rgb.cols, size, size);
    Sample out{image::letterbox(s.rgb, size, size), s.boxes};
    const auto r = static_cast<float>(g.ratio);
    for (PixelBox& b : out.boxes) b = {b.cls, b.x1 * r, b.y1 * r, b.x2 * r, b.y2 * r};
    return out;
}

float clip(double v, int hi) {
    return static_cast<float>(std::clamp(v, 0.0, double(hi)));
}

}  // namespace

int mixup_canvas_side(int size, double jitter) {
    return std::max(std::max(1, static_cast<int>(size * jitter)), size);
}

void mix_up(Sample& image, const Sample& partner, int size, const MixUpDraw& draw) {
    const double fit = std::min(double(size) / partner.rgb.rows, double(size) / partner.rgb.cols);
    cv::Mat grey(size, size, CV_8UC3, cv::Scalar(114, 114, 114)), fitted;
    const int fit_w = std::max(1, static_cast<int>(partner.rgb.cols * fit)),
              fit_h = std::max(1, static_cast<int>(partner.rgb.rows * fit));
    cv::resize(partner.rgb, fitted, cv::Size(fit_w, fit_h), 0, 0, cv::INTER_LINEAR);
    fitted.copyTo(grey(cv::Rect(0, 0, fit_w, fit_h)));
    const int jit_size = std::max(1, static_cast<int>(size * draw.jitter));
    cv::Mat jittered;
    cv::resize(grey, jittered, cv::Size(jit_size, jit_size), 0, 0, cv::INTER_LINEAR);
    if (draw.flip) cv::flip(jittered, jittered, 1);
    const int padded_side = mixup_canvas_side(size, draw.jitter);
    cv::Mat padded(padded_side, padded_side, CV_8UC3, cv::Scalar(0, 0, 0));
    jittered.copyTo(padded(cv::Rect(0, 0, jit_size, jit_size)));
    const cv::Mat window = padded(cv::Rect(draw.x_offset, draw.y_offset, size, size));
    // 0.5 · a + 0.5 · b in float32, truncated: exactly (a + b) / 2 rounded down.
    for (int y = 0; y < size; ++y) {
        uchar* dst = image.rgb.ptr<uchar>(y);
        const uchar* src = window.ptr<uchar>(y);
        for (int x = 0; x < 3 * size; ++x) dst[x] = static_cast<uchar>((dst[x] + src[x]) >> 1);
    }
    const double scale = fit * draw.jitter;
    for (const PixelBox& b : partner.boxes) {
        double x1 = clip(b.x1 * scale, jit_size), x2 = clip(b.x2 * scale, jit_size);
        const double y1 = clip(b.y1 * scale, jit_size), y2 = clip(b.y2 * scale, jit_size);
        if (draw.flip) std::tie(x1, x2) = std::pair(jit_size - x2, jit_size - x1);
        image.boxes.push_back({b.cls, clip(x1 - draw.x_offset, size), clip(y1 - draw.y_offset, size),
                               clip(x2 - draw.x_offset, size), clip(y2 - draw.y_offset, size)});
    }
}

Sample finish_sample(const Sample& s, int size, const data::AugmentOptions& o, data::Rng& rng) {
    if (s.boxes.empty()) return letterbox_keeping_boxes(s, size);
    Sample t{s.rgb.clone(), s.boxes};
    if (rng.uniform() < o.hsv) data::shift_hsv(t.rgb, data::draw_hsv_shifts(rng));
    data::maybe_flip(t, o.flip, rng);
    Sample out = letterbox_keeping_boxes(t, size);
    std::erase_if(out.boxes, [](const PixelBox& b) { return std::min(b.x2 - b.x1, b.y2 - b.y1) <= 1; });
    if (out.boxes.empty()) out = letterbox_keeping_boxes(s, size);
    if (out.boxes.size() > kMaxLabels) out.boxes.resize(kMaxLabels);
    return out;
}

Sample YoloxPipeline::mosaic_sample(const data::SampleSource& source, int item, int size, data::Rng& rng) const {
    Sample s = data::affine_mosaic(source, item, size, o_, rng);
    if (!s.boxes.empty() && rng.uniform() < o_.mixup) {
        MixUpDraw draw;
        draw.jitter = rng.uniform(o_.mixup_scale_min, o_.mixup_scale_max);
        draw.flip = rng.uniform() > 0.5;
        // Up to 20 draws for a partner with boxes; none: no MixUp.
        for (int attempt = 0; attempt < 20; ++attempt) {
            const int partner = rng.below(source.size());
            if (!source.has_boxes(partner)) continue;
            // randint(0, side − size − 1), y first.
            const int room = mixup_canvas_side(size, draw.jitter) - size;
            draw.y_offset = room > 0 ? rng.below(room) : 0;
            draw.x_offset = room > 0 ? rng.below(room) : 0;
            mix_up(s, source.read(partner), size, draw);
            break;
        }
    }
    return s;
}

Sample YoloxPipeline::make(const data::SampleSource& source, int item, int size, bool mosaic_epoch,
                           data::Rng& rng) const {
    // The last close_mosaic epochs: no mosaic, affine or MixUp; HSV and flip go on.
    const Sample s = mosaic_epoch && rng.uniform() < mosaic_ ? mosaic_sample(source, item, size, rng)
                                                             : data::fit_sample(source.read(item), size);
    return finish_sample(s, size, o_, rng);
}

}  // namespace libreyolo::models::yolox
