#pragma once
// LibreYOLO's D-FINE and DEIM training samples (data/augment/detr.py DetrTrainTransform, with
// torchvision.transforms.v2's operations as it configures them). D-FINE starts from the image
// fitted to the size without padding, DEIM from the image as it is. While the strong stage lasts
// (augmentation epochs) and the image has boxes: photometric distortion, zoom-out (p 0.5), IoU
// crop (p 0.8), boxes sanitised. Always: horizontal flip (flip_prob), the stretch to size × size
// (bilinear, antialiased), boxes sanitised again, those 1 px wide or high or less dropped, at most
// 120 kept.
#include <array>
#include <optional>

#include "data/sample_pipeline.h"

namespace libreyolo::models::dfine_network {

inline constexpr std::size_t kMaxLabels = 120;

// RandomPhotometricDistort's draws: each adjustment present with probability ½ and its factor
// (brightness 0.875–1.125, contrast and saturation 0.5–1.5, hue ±0.05), contrast before or after
// saturation and hue (½ each), a channel permutation with probability ½.
struct PhotometricDraw {
    std::optional<double> brightness, contrast, saturation, hue;
    bool contrast_first = true;
    std::optional<std::array<int, 3>> permutation;
};
PhotometricDraw draw_photometric(data::Rng& rng);
// torchvision's 8-bit kernels: brightness scales; contrast blends with the mean of the (truncated)
// grey image, saturation with the grey image; hue rotates in HSV; every result clamped and
// truncated to 8 bits; then the channels permuted.
void photometric_distort(cv::Mat& rgb, const PhotometricDraw& draw);

// RandomZoomOut: the image on a black canvas ratio (1–4) times its size, at offsets (the free
// width and height times u, u in [0, 1)); boxes moved with it.
data::Sample zoom_out(const data::Sample& s, double ratio, double u_left, double u_top);

// RandomIoUCrop (min_scale 0.3, aspect 0.5–2, 40 trials per threshold drawn from 0, 0.1, 0.3, 0.5,
// 0.7, 0.9, 1): a window of 0.3–1 of each side, accepted when a box's centre lies strictly inside
// and such a box overlaps it by the threshold's IoU; boxes moved into it and clipped, those whose
// centre is outside emptied. Threshold 1 keeps the image. Returns whether it cropped.
bool iou_crop(data::Sample& s, data::Rng& rng);

// SanitizeBoundingBoxes(min_size=1): boxes at least 1 px wide and high, inside the image.
void sanitize(data::Sample& s);

class DetrPipeline : public data::SamplePipeline {
public:
    // fit_first: D-FINE (the image fitted to the size before the augmentations); DEIM: false.
    DetrPipeline(data::AugmentOptions options, bool fit_first) : o_(options), fit_first_(fit_first) {}
    data::Sample make(const data::SampleSource& source, int item, int size, bool strong_epoch,
                      data::Rng& rng) const override;

private:
    data::AugmentOptions o_;
    bool fit_first_;
};

}  // namespace libreyolo::models::dfine_network
