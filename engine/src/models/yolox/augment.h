#pragma once
// LibreYOLO's YOLOX training samples (data/augment/yolox.py): MosaicMixupDataset and
// TrainTransform. In mosaic epochs, with probability mosaic, four images on the mosaic canvas
// through the random affine (rotation, shear, scale, translation, no box dropped), then with
// probability mixup_prob MixUp with a fifth image; otherwise the image fitted to the size. Then
// TrainTransform: HSV jitter and flip (not on images without boxes), the letterbox, boxes under
// 1 px dropped (none left: the sample before HSV and flip, every box kept), at most 50 boxes.
#include "data/sample_pipeline.h"

namespace libreyolo::models::yolox {

inline constexpr std::size_t kMaxLabels = 50;

// One MixUp's draws: the partner canvas's scale and mirroring, the window's offsets in the
// mixup_canvas_side square (each in [0, side − size), 0 when side is size).
struct MixUpDraw {
    double jitter = 1;
    bool flip = false;
    int y_offset = 0, x_offset = 0;
};
int mixup_canvas_side(int size, double jitter);

// LibreYOLO's _mixup of image (size × size, with its boxes) with partner: the partner fitted into
// the top-left of a grey size × size canvas, that canvas resized by jitter and mirrored when flip,
// placed top-left on a black mixup_canvas_side square, the size × size window at the offsets
// blended half-and-half into image (truncated to 8 bits); the partner's boxes, clipped to the
// window, appended.
void mix_up(data::Sample& image, const data::Sample& partner, int size, const MixUpDraw& draw);

// LibreYOLO's TrainTransform on s (any size; boxes in its pixels), to a size × size sample.
data::Sample finish_sample(const data::Sample& s, int size, const data::AugmentOptions& o, data::Rng& rng);

class YoloxPipeline : public data::SamplePipeline {
public:
    YoloxPipeline(data::AugmentOptions options, float mosaic) : o_(options), mosaic_(mosaic) {}
    data::Sample make(const data::SampleSource& source, int item, int size, bool mosaic_epoch,
                      data::Rng& rng) const override;

private:
    data::Sample mosaic_sample(const data::SampleSource& source, int item, int size, data::Rng& rng) const;
    data::AugmentOptions o_;
    float mosaic_;
};

}  // namespace libreyolo::models::yolox
