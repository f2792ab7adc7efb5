#pragma once
// Training augmentations on 8-bit RGB images with pixel xyxy boxes, LibreYOLO's primitives
// (data/augment/{geometry,color,mosaic}.py): letterbox, the 2 × 2 mosaic canvas, the random affine
// warp about the origin with corner-warped boxes, additive HSV jitter and horizontal flip.
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

// LibreYOLO's augmentation knobs (TrainOptions carries them under the same names).
struct AugmentOptions {
    float degrees = 0, translate = 0.1f, shear = 0;
    float scale_min = 0.5f, scale_max = 1.5f;  // mosaic_scale
    float mixup = 0;                           // mixup_prob
    float mixup_scale_min = 0.5f, mixup_scale_max = 1.5f;
    float hsv = 1.0f;  // hsv_prob
    float flip = 0.5f;
};

// Resized to fit size × size (aspect kept), in the top-left corner of a 114-grey canvas; boxes
// scaled with it and clipped, those left under 2 px dropped.
Sample letterbox_sample(const Sample& s, int size);
// Resized to fit size × size (int(w · r), int(h · r), bilinear), not padded; boxes scaled.
Sample fit_sample(const Sample& s, int size);
// Stretched to size × size (LibreYOLO's RT-DETR train transform, as its predict resizes); boxes
// that end up 1 px wide or high or less are dropped, unless that would drop them all.
Sample stretch_sample(const Sample& s, int size);

// The 2·size canvas (grey 114) with the four parts fitted to size × size around (xc, yc): part 0
// above-left of the centre, 1 above-right, 2 below-left, 3 below-right (LibreYOLO's
// get_mosaic_coordinate). Each part's boxes moved with it and clipped to the canvas, in part order.
Sample mosaic_canvas(const std::array<const Sample*, 4>& parts, int size, int xc, int yc);

// One draw of LibreYOLO's random affine (get_affine_matrix, in its order): angle in ±degrees,
// scale in [scale_min, scale_max], the tangents of two shears in ±shear degrees, a translation of
// ±translate · size pixels.
struct AffineDraw {
    double angle = 0, scale = 1, shear_x = 0, shear_y = 0, tx = 0, ty = 0;
};
AffineDraw draw_affine(const AugmentOptions& o, int size, Rng& rng);
// Rotation and scale about the origin, then shear, then translation (not about the centre:
// at scale 1 a 2·size mosaic shows its top-left quarter, at 0.5 all of it).
cv::Matx23d affine_matrix(const AffineDraw& d);
// The image warped into size × size (bilinear, grey 114 outside); every box's four corners
// through m, their bounds clipped to the window. No box is dropped.
Sample warp_affine(const Sample& s, const cv::Matx23d& m, int size);

// LibreYOLO's augment_hsv: hue, saturation and value shifted by whole numbers drawn in ±5, ±30,
// ±30 (truncated toward zero), each channel's shift kept with probability ½ ...
std::array<int, 3> draw_hsv_shifts(Rng& rng);
// ... added in OpenCV's 8-bit HSV: hue wraps in [0, 180), saturation and value clip.
void shift_hsv(cv::Mat& rgb, const std::array<int, 3>& shifts);
// With probability flip: mirrored left–right, boxes with it.
void maybe_flip(Sample& s, float flip, Rng& rng);

}  // namespace libreyolo::data
