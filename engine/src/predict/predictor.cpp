// Model::predict: sources → batches → letterbox or resize → forward → postprocess → results (+ saved
// files).
#include <opencv2/imgproc.hpp>

#include <filesystem>

#include "image/annotate.h"
#include "image/media_io.h"
#include "image/preprocess.h"
#include "image/sources.h"
#include "libreyolo/errors.h"
#include "libreyolo/frame_viewer.h"
#include "libreyolo/image_size.h"
#include "libreyolo/log.h"
#include "model/model_impl.h"
#include "predict/frame_batch.h"
#include "predict/live_frames.h"

namespace libreyolo {
namespace fs = std::filesystem;
void validate_predict_options(const PredictOptions& o) {
    auto fail = [](const std::string& m) { throw InvalidArgument(m); };
    if (!(o.conf >= 0.0f && o.conf <= 1.0f)) fail("conf: must be within [0, 1], got " + std::to_string(o.conf));
    if (!(o.iou > 0.0f && o.iou <= 1.0f)) fail("iou: must be within (0, 1], got " + std::to_string(o.iou));
    check_image_size(o.imgsz, /*allow_zero=*/true);
    if (o.max_det < 1) fail("max_det: must be at least 1, got " + std::to_string(o.max_det));
    if (o.batch < 1) fail("batch: must be at least 1, got " + std::to_string(o.batch));
    if (o.vid_stride < 1) fail("vid_stride: must be at least 1, got " + std::to_string(o.vid_stride));
    for (int c : o.classes)
        if (c < 0) fail("classes: class ids are 0 or more, got " + std::to_string(c));
}

std::string resolve_save_dir(const PredictOptions& o) {
    const fs::path base = fs::path(o.project) / o.name;
    fs::path dir = base;
    std::error_code ec;
    for (int i = 2; !o.exist_ok && fs::exists(dir, ec); ++i) dir = fs::path(o.project) / (o.name + std::to_string(i));
    fs::create_directories(dir, ec);
    if (ec) throw Error(dir.string() + ": cannot create output folder: " + ec.message());
    return dir.string();
}

namespace {

// A camera or stream (or several): one frame at a time as they come, every vid_stride-th of each
// stream, until the sources end, on_result says stop, or the process is interrupted.
std::vector<Result> predict_live(Model::Impl& m, const std::string& source, const PredictOptions& o,
                                 const std::function<bool(const Result&)>& on_result) {
    LiveFrames live(source);
    SaveDir save_dir(o);
    std::vector<std::unique_ptr<image::VideoWriter>> writers(live.size());
    std::vector<int> seen(live.size(), 0);
    std::vector<Result> all;
    std::size_t stream = 0;
    Frame frame;
    while (live.next(stream, frame)) {
        if (seen[stream]++ % o.vid_stride != 0) continue;
        Result r = std::move(run_batch(m, {frame}, o).front());
        const bool shown = has_frame_viewer();
        cv::Mat annotated;
        if (o.save || shown) {
            annotated = frame.bgr.clone();
            image::draw_detections(annotated, r);
        }
        if (shown && !show_frame(frame.path, image::bgr_view(annotated))) break;
        if (o.save) {
            if (!writers[stream])
                writers[stream] = std::make_unique<image::VideoWriter>(
                    save_dir.get() / live.stem(stream), live.fps(stream) / o.vid_stride, annotated.size());
            writers[stream]->write(annotated);
            r.saved_to = writers[stream]->written_path().string();
        }
        if (!on_result) {
            all.push_back(std::move(r));
        } else if (!on_result(r)) {
            break;
        }
    }
    return all;
}

}  // namespace

std::vector<Result> Model::predict(const std::string& source, const PredictOptions& o,
                                   const std::function<bool(const Result&)>& on_result) {
    validate_predict_options(o);
    if (is_live_source(source)) return predict_live(*impl_, source, o, on_result);
    const std::vector<image::SourceItem> items = image::expand_source(source);
    SaveDir save_dir(o);
    std::vector<Result> all;
    bool stop = false;
    int skipped = 0;

    // Emits results; false when the caller asked to stop.
    auto deliver = [&](std::vector<Result>& batch_results, const std::vector<Frame>& frames,
                       image::VideoWriter* writer) {
        for (std::size_t i = 0; i < batch_results.size(); ++i) {
            Result& r = batch_results[i];
            const bool shown = has_frame_viewer();
            cv::Mat annotated;
            if (o.save || shown) {
                annotated = frames[i].bgr.clone();
                image::draw_detections(annotated, r);
            }
            if (shown && !show_frame(r.path, image::bgr_view(annotated))) stop = true;
            if (o.save) {
                if (writer) {
                    writer->write(annotated);
                    r.saved_to = writer->written_path().string();
                } else {
                    const fs::path out = save_dir.get() / fs::path(r.path).filename();
                    image::write_image(out, annotated);
                    r.saved_to = out.string();
                }
            }
            all.push_back(r);
            if (on_result && !on_result(r)) stop = true;
        }
    };

    std::vector<Frame> pending;
    auto flush_images = [&] {
        if (pending.empty()) return;
        std::vector<Result> results = run_batch(*impl_, pending, o);
        deliver(results, pending, nullptr);
        pending.clear();
    };

    for (const auto& item : items) {
        if (stop || interrupt_requested()) break;
        if (item.kind == image::SourceKind::Image) {
            cv::Mat bgr = image::read_image(item.path);
            if (bgr.empty()) {
                log_warning("predict", item.path.string() + ": cannot decode image (corrupt or truncated); skipped");
                ++skipped;
                continue;
            }
            pending.push_back(decoded_frame(std::move(bgr), item.path.string(), -1));
            if (static_cast<int>(pending.size()) == o.batch) flush_images();
            continue;
        }
        flush_images();
        std::unique_ptr<image::VideoReader> opened;
        try {
            opened = std::make_unique<image::VideoReader>(item.path);
        } catch (const FormatError& e) {
            if (items.size() == 1) throw;
            log_warning("predict", std::string(e.what()) + "; skipped");
            ++skipped;
            continue;
        }
        image::VideoReader& reader = *opened;
        std::unique_ptr<image::VideoWriter> writer;
        std::vector<Frame> frames;
        cv::Mat frame;
        auto flush_frames = [&] {
            if (frames.empty()) return;
            if (o.save && !writer)
                writer = std::make_unique<image::VideoWriter>(save_dir.get() / item.path.stem(),
                                                              reader.fps() / o.vid_stride, frames.front().bgr.size());
            std::vector<Result> results = run_batch(*impl_, frames, o);
            deliver(results, frames, writer.get());
            frames.clear();
        };
        for (int index = 0; !stop && !interrupt_requested() && reader.read(frame); ++index) {
            if (index % o.vid_stride != 0) continue;
            frames.push_back(decoded_frame(frame.clone(), item.path.string(), index));
            if (static_cast<int>(frames.size()) == o.batch) flush_frames();
        }
        if (!stop) flush_frames();
    }
    if (!stop) flush_images();
    if (skipped > 0) log_warning("predict", std::to_string(skipped) + " file(s) could not be decoded and were skipped");
    return all;
}

std::vector<Result> Model::predict(const std::vector<ImageView>& images, const PredictOptions& o) {
    validate_predict_options(o);
    std::vector<Result> all;
    std::vector<Frame> frames;
    for (std::size_t i = 0; i < images.size(); ++i) {
        frames.push_back({image::to_rgb(images[i]), cv::Mat(), "", -1});
        if (static_cast<int>(frames.size()) == o.batch || i + 1 == images.size()) {
            std::vector<Result> results = run_batch(*impl_, frames, o);
            all.insert(all.end(), results.begin(), results.end());
            frames.clear();
        }
    }
    return all;
}

}  // namespace libreyolo
