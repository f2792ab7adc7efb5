#pragma once
// Training augmentations on 8-bit RGB images with pixel xyxy boxes: letterbox, 4-image mosaic
// with random scale and translation, HSV jitter and horizontal flip (LibreYOLO's YOLOv9 recipe:
// mosaic 1.0, scale 0.5–1.5, translate 0.1, HSV gains 0.015/0.7/0.4, flip 0.5).
#include <opencv2/core.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace libreyolo::data {

struct PixelBox {
    int cls = 0;
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

struct Sample {
    cv::Mat rgb;  // CV_8UC3
    std::vector<PixelBox> boxes;
};

// splitmix64: the same numbers for a seed on every platform.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    double uniform(double lo = 0, double hi = 1);
    int below(int n);  // [0, n)

private:
    std::uint64_t state_;
};

struct AugmentOptions {
    float scale_min = 0.5f, scale_max = 1.5f;
    float translate = 0.1f;
    float hsv_h = 0.015f, hsv_s = 0.7f, hsv_v = 0.4f;
    float flip = 0.5f;
};

// Resized to fit size × size (aspect kept), in the top-left corner of a 114-grey canvas.
Sample letterbox_sample(const Sample& s, int size);
// Stretched to size × size (LibreYOLO's RT-DETR train transform, as its predict resizes); boxes
// that end up 1 px wide or high or less are dropped, unless that would drop them all.
Sample stretch_sample(const Sample& s, int size);
// Four images around a random centre of a 2·size canvas, scaled about its centre and cropped to
// the central size × size (randomly shifted); boxes clipped, those left under 2 px dropped.
Sample mosaic(const std::array<const Sample*, 4>& parts, int size, const AugmentOptions& o, Rng& rng);
void jitter_hsv(cv::Mat& rgb, const AugmentOptions& o, Rng& rng);
void maybe_flip(Sample& s, const AugmentOptions& o, Rng& rng);

}  // namespace libreyolo::data
