#include "data/sample_pipeline.h"

namespace libreyolo::data {

int SampleSource::draw_partner(Rng& rng) const {
    int item = 0;
    for (int attempt = 0; attempt < 20; ++attempt) {
        item = rng.below(size());
        if (has_boxes(item)) break;
    }
    return item;
}

Sample affine_mosaic(const SampleSource& source, int item, int size, const AugmentOptions& o, Rng& rng) {
    const int yc = static_cast<int>(rng.uniform(0.5 * size, 1.5 * size));
    const int xc = static_cast<int>(rng.uniform(0.5 * size, 1.5 * size));
    const Sample a = source.read(item), b = source.read(source.draw_partner(rng)),
                 c = source.read(source.draw_partner(rng)), d = source.read(source.draw_partner(rng));
    return warp_affine(mosaic_canvas({&a, &b, &c, &d}, size, xc, yc), affine_matrix(draw_affine(o, size, rng)), size);
}

Sample StandardPipeline::make(const SampleSource& source, int item, int size, bool mosaic_epoch, Rng& rng) const {
    const bool stretch = is_stretch(resize_);
    Sample s;
    if (augment_ && mosaic_epoch && rng.uniform() < mosaic_) {
        s = affine_mosaic(source, item, size, o_, rng);
        std::erase_if(s.boxes, [](const PixelBox& b) { return b.x2 - b.x1 <= 2 || b.y2 - b.y1 <= 2; });
    } else {
        s = stretch ? source.read(item) : fit_sample(source.read(item), size);
    }
    if (augment_) {
        // LibreYOLO's TrainTransform: HSV and flip before the resize, background images too.
        if (rng.uniform() < o_.hsv) shift_hsv(s.rgb, draw_hsv_shifts(rng));
        maybe_flip(s, o_.flip, rng);
    }
    return stretch ? stretch_sample(s, size) : letterbox_sample(s, size);
}

}  // namespace libreyolo::data
