#pragma once
// Training batches: images decoded, augmented and letterboxed by worker threads, a few batches
// ahead of the trainer, then (for CUDA) pinned by a thread of their own. Every sample's randomness
// comes from (seed, epoch, position), so a run is reproducible whatever the thread timing.
#include <torch/torch.h>

#include <deque>
#include <future>
#include <string>
#include <vector>

#include "data/augment.h"
#include "data/batch.h"
#include "data/pin_memory.h"
#include "data/sample_pipeline.h"
#include "libreyolo/dataset.h"
#include "libreyolo/families.h"

namespace libreyolo::data {

struct DatasetItem {
    std::string image;
    std::vector<LabelBox> labels;  // normalised cx, cy, w, h
};

struct LoadedSplit {
    std::vector<DatasetItem> items;
    int corrupt_images = 0;  // skipped
    int dropped_rows = 0;    // bad label rows skipped
};

// Reads a split's images and labels, skipping what `libreyolo check` reports.
LoadedSplit load_split(const DatasetConfig& config, const std::string& split);

struct LoaderOptions {
    int batch = 16;
    int imgsz = 640;
    int workers = 4;  // batches built at once
    std::uint64_t seed = 0;
    bool augment = true;  // mosaic, HSV, flip; off: letterbox only, in order
    float mosaic = 1.0f;
    InputResize resize = InputResize::Letterbox;  // the family's, so that training sees what predict feeds
    bool pin_memory = false;                      // hand batches over in page-locked memory (CUDA training)
    AugmentOptions augment_options;
    // The family's own way of making samples; null: StandardPipeline of the options above.
    std::shared_ptr<const SamplePipeline> pipeline;
    // Distributed runs: batch is the global batch, and this loader yields shard_rank's part of
    // each one (the global batch's positions split in shard_count consecutive runs), so the ranks
    // together see exactly the batches one process would; a last global batch smaller than
    // shard_count is dropped so that every rank takes the same number of steps.
    int shard_rank = 0;
    int shard_count = 1;
};

// An epoch is the shuffled split in whole batches, a last partial one dropped (LibreYOLO's
// drop_last), unless the split is smaller than one batch: then it is that one batch.
class BatchLoader : private SampleSource {
public:
    BatchLoader(std::vector<DatasetItem> items, LoaderOptions options);
    ~BatchLoader();
    int batches_per_epoch() const;
    std::size_t image_count() const { return items_.size(); }
    // use_mosaic: false for the last close_mosaic epochs.
    void begin_epoch(int epoch, bool use_mosaic);
    // False after the epoch's last batch.
    bool next(Batch& out);

private:
    Batch build(int epoch, int index, bool use_mosaic) const;
    // The epoch positions [first, last) of this shard's part of global batch index.
    std::pair<int, int> shard_positions(int index) const;
    int size() const override { return static_cast<int>(items_.size()); }
    Sample read(int item) const override;
    bool has_boxes(int item) const override { return !items_[item].labels.empty(); }
    void launch(int index);

    std::vector<DatasetItem> items_;
    LoaderOptions options_;
    std::vector<int> order_;
    int epoch_ = 0;
    bool mosaic_ = true;
    int next_launch_ = 0, next_take_ = 0;
    std::deque<std::future<Batch>> pending_;
    std::unique_ptr<PinMemoryThread> pinner_;  // set when options.pin_memory
};

}  // namespace libreyolo::data
