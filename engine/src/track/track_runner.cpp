// Model::track: frames in order → detector → tracker → results with track ids (+ the annotated video).
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "image/annotate.h"
#include "image/media_io.h"
#include "image/preprocess.h"
#include "image/sources.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "libreyolo/track.h"
#include "model/model_impl.h"
#include "predict/frame_batch.h"
#include "track/trails.h"

namespace libreyolo {
namespace fs = std::filesystem;

struct KeptTrack {
    TrackerConfig config;
    std::string source_key;  // the video or folder it followed; "" for in-memory frames
    Tracker tracker;
};

namespace {

bool explicitly_set(const TrackOptions& o, const std::string& field) {
    return std::find(o.tracker_fields_set.begin(), o.tracker_fields_set.end(), field) != o.tracker_fields_set.end();
}

struct Resolved {
    PredictOptions predict;
    TrackerConfig tracker;
};

// LibreYOLO's track() rules: track_conf sets the first stage's threshold, an image sequence's
// frame rate is fps / vid_stride, and the detector runs at the second stage's threshold unless
// conf is given.
Resolved resolve(const TrackOptions& o, bool image_sequence) {
    if (!(o.track_conf >= 0.0f && o.track_conf <= 1.0f))
        throw InvalidArgument("track_conf: must be within [0, 1], got " + std::to_string(o.track_conf));
    if (!(o.fps > 0)) throw InvalidArgument("fps: must be > 0, got " + std::to_string(o.fps));
    Resolved r{o.predict, o.tracker};
    if (!explicitly_set(o, "track_high_thresh")) r.tracker.track_high_thresh = o.track_conf;
    if (image_sequence && !explicitly_set(o, "frame_rate"))
        r.tracker.frame_rate = o.fps / std::max(1, o.predict.vid_stride);
    validate(r.tracker);
    Tracker normalise(r.tracker);  // the tracker's own spelling (a ".yaml" suffix dropped)
    r.tracker = normalise.config();
    if (r.predict.conf < 0) r.predict.conf = r.tracker.track_low_thresh;
    r.predict.batch = 1;  // one frame at a time, in order
    validate_predict_options(r.predict);
    return r;
}

std::shared_ptr<KeptTrack> tracker_for(Model::Impl& m, const Resolved& r, const std::string& source_key, bool persist) {
    if (persist && m.kept_track && m.kept_track->config == r.tracker && m.kept_track->source_key == source_key)
        return m.kept_track;
    auto fresh = std::make_shared<KeptTrack>(KeptTrack{r.tracker, source_key, Tracker(r.tracker)});
    m.kept_track = persist ? fresh : nullptr;
    return fresh;
}

// The frames of one video file, or of a sequence of image files, in order, every vid_stride-th.
class FrameSequence {
public:
    FrameSequence(const std::string& source, int stride) : stride_(stride) {
        std::vector<image::SourceItem> items = image::expand_source(source);
        const auto videos =
            std::count_if(items.begin(), items.end(), [](const auto& i) { return i.kind == image::SourceKind::Video; });
        if (videos > 0 && items.size() > 1)
            throw InvalidArgument("source: '" + source + "' holds " + std::to_string(items.size()) +
                                  " files with videos among them; track one video, or one folder of images, at a time");
        std::error_code ec;
        key_ = fs::weakly_canonical(source, ec).string();
        if (videos == 1) {
            video_ = std::make_unique<image::VideoReader>(items.front().path);
            stem_ = items.front().path.stem().string();
        } else {
            for (auto& i : items) images_.push_back(std::move(i.path));
            stem_ = fs::is_directory(source, ec) ? fs::path(key_).filename().string() : "sequence";
        }
    }
    bool image_sequence() const { return !video_; }
    const std::string& key() const { return key_; }
    const std::string& stem() const { return stem_; }
    double video_fps() const { return video_ ? video_->fps() : 0.0; }

    // The next frame to track; false at the end. Unreadable images are skipped with a warning.
    bool next(Frame& frame) {
        if (video_) {
            cv::Mat bgr;
            for (;;) {
                if (!video_->read(bgr)) return false;
                const int index = read_++;
                if (index % stride_ != 0) continue;
                frame = decoded_frame(bgr.clone(), key_, index);
                return true;
            }
        }
        while (read_ < static_cast<int>(images_.size())) {
            const int index = read_++;
            if (index % stride_ != 0) continue;
            cv::Mat bgr = image::read_image(images_[static_cast<std::size_t>(index)]);
            if (bgr.empty()) {
                log_warning("track",
                            images_[static_cast<std::size_t>(index)].string() + ": cannot decode image; skipped");
                continue;
            }
            frame = decoded_frame(std::move(bgr), images_[static_cast<std::size_t>(index)].string(), index);
            return true;
        }
        return false;
    }

private:
    int stride_;
    std::string key_, stem_;
    std::unique_ptr<image::VideoReader> video_;
    std::vector<fs::path> images_;
    int read_ = 0;
};

// The annotated video of a tracked stream: boxes with ids and trails, written as frames come.
class TrackVideo {
public:
    TrackVideo(const PredictOptions& o, std::string stem, double fps) : dir_(o), stem_(std::move(stem)), fps_(fps) {}
    std::string write(const cv::Mat& decoded_bgr, const Result& r, const track::TrackTrails& trails) {
        cv::Mat annotated = decoded_bgr.clone();
        trails.draw(annotated);
        image::draw_detections(annotated, r);
        if (!writer_) {
            size_ = annotated.size();
            writer_ = std::make_unique<image::VideoWriter>(dir_.get() / stem_, fps_, size_);
        }
        // A video has one frame size: an image sequence's odd-sized frames are scaled to the first's.
        if (annotated.size() != size_) cv::resize(annotated, annotated, size_);
        writer_->write(annotated);
        return writer_->written_path().string();
    }

private:
    SaveDir dir_;
    std::string stem_;
    double fps_;
    std::unique_ptr<image::VideoWriter> writer_;
    cv::Size size_;
};

}  // namespace

std::vector<Result> Model::track(const std::string& source, const TrackOptions& o,
                                 const std::function<bool(const Result&)>& on_result) {
    FrameSequence frames(source, std::max(1, o.predict.vid_stride));
    const Resolved r = resolve(o, frames.image_sequence());
    const std::shared_ptr<KeptTrack> kept = tracker_for(*impl_, r, frames.key(), o.persist);
    const double fps = frames.image_sequence() ? o.fps : frames.video_fps();
    TrackVideo video(r.predict, frames.stem(), fps / std::max(1, o.predict.vid_stride));
    track::TrackTrails trails;
    std::vector<Result> all;
    Frame frame;
    while (frames.next(frame)) {
        Result result = std::move(run_batch(*impl_, {frame}, r.predict).front());
        result.boxes = kept->tracker.update(result.boxes);
        trails.add(result);
        if (r.predict.save) result.saved_to = video.write(frame.bgr, result, trails);
        if (!on_result) {
            all.push_back(std::move(result));
        } else if (!on_result(result)) {
            break;
        }
    }
    return all;
}

std::vector<Result> Model::track(const std::vector<ImageView>& images, const TrackOptions& o) {
    const Resolved r = resolve(o, /*image_sequence=*/true);
    const std::shared_ptr<KeptTrack> kept = tracker_for(*impl_, r, "", o.persist);
    std::vector<Result> all;
    for (const ImageView& view : images) {
        const Frame frame{image::to_rgb(view), cv::Mat(), "", -1};
        Result result = std::move(run_batch(*impl_, {frame}, r.predict).front());
        result.boxes = kept->tracker.update(result.boxes);
        all.push_back(std::move(result));
    }
    return all;
}

}  // namespace libreyolo
