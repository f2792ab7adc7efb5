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
#include "libreyolo/frame_viewer.h"
#include "libreyolo/live_source.h"
#include "libreyolo/log.h"
#include "libreyolo/track.h"
#include "model/model_impl.h"
#include "predict/frame_batch.h"
#include "predict/live_frames.h"
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
    Tracker normalise(r.tracker);  // validates; the tracker's own spelling (a ".yaml" suffix dropped)
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
    // dir: the run folder, shared by the streams of one call (it outlives this).
    TrackVideo(SaveDir& dir, std::string stem, double fps) : dir_(dir), stem_(std::move(stem)), fps_(fps) {}
    std::string write(cv::Mat annotated) {
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
    SaveDir& dir_;
    std::string stem_;
    double fps_;
    std::unique_ptr<image::VideoWriter> writer_;
    cv::Size size_;
};

}  // namespace

namespace {

// One followed stream: its tracker, trails and annotated video.
struct StreamTrack {
    std::shared_ptr<KeptTrack> kept;
    track::TrackTrails trails;
    std::unique_ptr<TrackVideo> video;
};

// Tracks one frame of a stream; false when on_result says stop.
bool track_frame(Model::Impl& m, const Resolved& r, StreamTrack& s, const Frame& frame,
                 const std::function<bool(const Result&)>& on_result, std::vector<Result>& all) {
    Result result = std::move(run_batch(m, {frame}, r.predict).front());
    result.boxes = s.kept->tracker.update(result.boxes);
    s.trails.add(result);
    const bool shown = has_frame_viewer();
    if (s.video || shown) {
        cv::Mat annotated = frame.bgr.clone();
        s.trails.draw(annotated);
        image::draw_detections(annotated, result);
        if (shown && !show_frame(frame.path, image::bgr_view(annotated))) return false;
        if (s.video) result.saved_to = s.video->write(std::move(annotated));
    }
    if (!on_result) {
        all.push_back(std::move(result));
        return true;
    }
    return on_result(result);
}

// Cameras and streams: a tracker for each, frames as they come, every vid_stride-th of a stream.
std::vector<Result> track_live(Model::Impl& m, const std::string& source, const TrackOptions& o,
                               const std::function<bool(const Result&)>& on_result) {
    const Resolved r = resolve(o, /*image_sequence=*/false);
    LiveFrames live(source);
    SaveDir save_dir(r.predict);
    std::vector<StreamTrack> streams(live.size());
    for (std::size_t i = 0; i < live.size(); ++i) {
        // Only a single stream can be continued by persist: it is the model's one kept tracker.
        streams[i].kept = tracker_for(m, r, live.source(i), o.persist && live.size() == 1);
        if (r.predict.save)
            streams[i].video = std::make_unique<TrackVideo>(save_dir, live.stem(i), live.fps(i) / r.predict.vid_stride);
    }
    std::vector<int> seen(live.size(), 0);
    std::vector<Result> all;
    std::size_t stream = 0;
    Frame frame;
    while (live.next(stream, frame)) {
        if (seen[stream]++ % r.predict.vid_stride != 0) continue;
        if (!track_frame(m, r, streams[stream], frame, on_result, all)) break;
    }
    return all;
}

}  // namespace

std::vector<Result> Model::track(const std::string& source, const TrackOptions& o,
                                 const std::function<bool(const Result&)>& on_result) {
    if (is_live_source(source)) return track_live(*impl_, source, o, on_result);
    FrameSequence frames(source, std::max(1, o.predict.vid_stride));
    const Resolved r = resolve(o, frames.image_sequence());
    SaveDir save_dir(r.predict);
    StreamTrack s;
    s.kept = tracker_for(*impl_, r, frames.key(), o.persist);
    const double fps = frames.image_sequence() ? o.fps : frames.video_fps();
    if (r.predict.save)
        s.video = std::make_unique<TrackVideo>(save_dir, frames.stem(), fps / std::max(1, o.predict.vid_stride));
    std::vector<Result> all;
    Frame frame;
    while (!interrupt_requested() && frames.next(frame))
        if (!track_frame(*impl_, r, s, frame, on_result, all)) break;
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
