#include "data/loader.h"

#include <opencv2/imgproc.hpp>

#include <numeric>

#include "image/media_io.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo::data {

LoadedSplit load_split(const DatasetConfig& config, const std::string& split) {
    LoadedSplit out;
    for (auto& item : load_split_labels(config, split)) {
        if (image::read_image(item.image).empty()) {
            ++out.corrupt_images;
            log_warning("data", item.image + ": cannot decode the image; skipped");
            continue;
        }
        out.dropped_rows += static_cast<int>(item.labels.problems.size());
        out.items.push_back({std::move(item.image), std::move(item.labels.boxes)});
    }
    return out;
}

BatchLoader::BatchLoader(std::vector<DatasetItem> items, LoaderOptions options)
    : items_(std::move(items)), options_(options) {
    if (items_.empty()) throw InvalidArgument("data: no usable training images");
    if (options_.batch < 1) throw InvalidArgument("batch: must be at least 1");
    if (options_.shard_count < 1 || options_.shard_rank < 0 || options_.shard_rank >= options_.shard_count)
        throw InvalidArgument("loader: shard " + std::to_string(options_.shard_rank) + " of " +
                              std::to_string(options_.shard_count) + " does not exist");
    if (options_.batch < options_.shard_count)
        throw InvalidArgument("batch: " + std::to_string(options_.batch) + " images cannot be split over " +
                              std::to_string(options_.shard_count) + " ranks");
    if (static_cast<int>(items_.size()) < options_.shard_count)
        throw InvalidArgument("data: " + std::to_string(items_.size()) + " training images for " +
                              std::to_string(options_.shard_count) + " ranks");
    if (options_.pin_memory) pinner_ = std::make_unique<PinMemoryThread>();
    if (!options_.pipeline)
        options_.pipeline = std::make_shared<StandardPipeline>(options_.augment_options, options_.mosaic,
                                                               options_.resize, options_.augment);
}

BatchLoader::~BatchLoader() {
    for (auto& f : pending_)
        if (f.valid()) f.wait();
}

int BatchLoader::batches_per_epoch() const {
    return std::max(1, static_cast<int>(items_.size()) / options_.batch);
}

std::pair<int, int> BatchLoader::shard_positions(int index) const {
    const int n = static_cast<int>(items_.size());
    const int start = index * options_.batch, size = std::min(n, start + options_.batch) - start;
    const int base = size / options_.shard_count, extra = size % options_.shard_count, r = options_.shard_rank;
    const int first = start + r * base + std::min(r, extra);
    return {first, first + base + (r < extra ? 1 : 0)};
}

void BatchLoader::begin_epoch(int epoch, bool use_mosaic) {
    for (auto& f : pending_) f.wait();
    pending_.clear();
    epoch_ = epoch;
    mosaic_ = use_mosaic && options_.augment && options_.mosaic > 0;
    order_.resize(items_.size());
    std::iota(order_.begin(), order_.end(), 0);
    if (options_.augment) {
        Rng rng(options_.seed * 1000003ull + static_cast<std::uint64_t>(epoch));
        for (std::size_t i = order_.size(); i > 1; --i)
            std::swap(order_[i - 1], order_[rng.below(static_cast<int>(i))]);
    }
    next_launch_ = next_take_ = 0;
    for (int i = 0; i < std::max(1, options_.workers) && next_launch_ < batches_per_epoch(); ++i)
        launch(next_launch_++);
}

void BatchLoader::launch(int index) {
    std::future<Batch> built = std::async(
        std::launch::async, [this, index, epoch = epoch_, mosaic = mosaic_] { return build(epoch, index, mosaic); });
    pending_.push_back(pinner_ ? pinner_->pin(std::move(built)) : std::move(built));
}

bool BatchLoader::next(Batch& out) {
    if (next_take_ >= batches_per_epoch()) return false;
    out = pending_.front().get();
    pending_.pop_front();
    ++next_take_;
    if (next_launch_ < batches_per_epoch()) launch(next_launch_++);
    return true;
}

Sample BatchLoader::read(int item) const {
    const DatasetItem& d = items_[item];
    Sample s;
    cv::cvtColor(image::read_image(d.image), s.rgb, cv::COLOR_BGR2RGB);
    const float w = static_cast<float>(s.rgb.cols), h = static_cast<float>(s.rgb.rows);
    for (const auto& b : d.labels)
        s.boxes.push_back(
            {b.cls, (b.cx - b.w / 2) * w, (b.cy - b.h / 2) * h, (b.cx + b.w / 2) * w, (b.cy + b.h / 2) * h});
    return s;
}

Batch BatchLoader::build(int epoch, int index, bool use_mosaic) const {
    const int size = options_.imgsz;
    std::vector<Sample> samples;
    const auto [first, last] = shard_positions(index);
    for (int j = first; j < last; ++j) {
        Rng rng((options_.seed + 1) * 0x100000001b3ull ^ (static_cast<std::uint64_t>(epoch) << 32) ^
                static_cast<std::uint64_t>(j));
        samples.push_back(options_.pipeline->make(*this, order_[j], size, use_mosaic, rng));
    }
    std::size_t most = 1;
    for (const auto& s : samples) most = std::max(most, s.boxes.size());
    Batch batch;
    batch.images = torch::empty({static_cast<int64_t>(samples.size()), 3, size, size});
    batch.targets = torch::zeros({static_cast<int64_t>(samples.size()), static_cast<int64_t>(most), 5});
    auto t = batch.targets.accessor<float, 3>();
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const cv::Mat& img = samples[i].rgb;
        batch.images[static_cast<int64_t>(i)] = torch::from_blob(img.data, {size, size, 3}, torch::kUInt8)
                                                    .permute({2, 0, 1})
                                                    .to(torch::kFloat32)
                                                    .div(255.0);
        for (std::size_t k = 0; k < samples[i].boxes.size(); ++k) {
            const PixelBox& b = samples[i].boxes[k];
            t[i][k][0] = static_cast<float>(b.cls);
            t[i][k][1] = b.x1 / size;
            t[i][k][2] = b.y1 / size;
            t[i][k][3] = b.x2 / size;
            t[i][k][4] = b.y2 / size;
        }
    }
    return batch;
}

}  // namespace libreyolo::data
