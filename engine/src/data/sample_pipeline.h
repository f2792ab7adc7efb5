#pragma once
// How one training sample is made from the dataset: a family's augmentation pipeline. The loader
// runs it on worker threads, one Rng per sample; StandardPipeline is LibreYOLO's YOLOv9 and
// RT-DETR one, a family with its own (YOLOX) gives it through its training recipe.
#include <memory>

#include "data/augment.h"
#include "libreyolo/families.h"

namespace libreyolo::data {

// The split's images, by index: decoded to RGB with pixel boxes.
class SampleSource {
public:
    virtual ~SampleSource() = default;
    virtual int size() const = 0;
    virtual Sample read(int item) const = 0;
    virtual bool has_boxes(int item) const = 0;
    // LibreYOLO's _rand_partner_index: up to 20 draws until an image with boxes, else the last one.
    int draw_partner(Rng& rng) const;
};

// LibreYOLO's mosaic (MosaicMixupDataset and the YOLO9 one): the centre's y then x drawn in
// [size/2, 3·size/2), three partners (draw_partner), item and them on the mosaic canvas, through
// one random affine draw to size × size; every box kept.
Sample affine_mosaic(const SampleSource& source, int item, int size, const AugmentOptions& o, Rng& rng);

class SamplePipeline {
public:
    virtual ~SamplePipeline() = default;
    // The sample of image item, size × size; mosaic_epoch: false in the last close_mosaic epochs.
    virtual Sample make(const SampleSource& source, int item, int size, bool mosaic_epoch, Rng& rng) const = 0;
};

// With probability mosaic (in mosaic epochs): affine_mosaic, boxes 2 px wide or high or less
// dropped; otherwise the image fitted to size (letterbox families) or as it
// is (Stretch). Then HSV jitter and flip, and the letterbox (or the stretch) to size × size.
// augment false: only the resize.
class StandardPipeline : public SamplePipeline {
public:
    StandardPipeline(AugmentOptions options, float mosaic, InputResize resize, bool augment)
        : o_(options), mosaic_(mosaic), resize_(resize), augment_(augment) {}
    Sample make(const SampleSource& source, int item, int size, bool mosaic_epoch, Rng& rng) const override;

private:
    AugmentOptions o_;
    float mosaic_;
    InputResize resize_;
    bool augment_;
};

}  // namespace libreyolo::data
