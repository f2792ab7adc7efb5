#pragma once
// Multi-object tracking: links detections across the frames of a video or stream and gives each
// object a track id (Detection::track_id). ByteTrack and motion-only BoT-SORT, as LibreYOLO 1.6.0
// runs them, with its option names and defaults.
#include <memory>
#include <string>
#include <vector>

#include "libreyolo/model.h"
#include "libreyolo/results.h"

namespace libreyolo {

// LibreYOLO's TrackConfig (ByteTrack) and BoTSortConfig fields.
struct TrackerConfig {
    std::string tracker = "bytetrack";      // "bytetrack" or "botsort" (".yaml" suffix accepted)
    float track_high_thresh = 0.25f;        // first association stage: detections at least this sure
    float track_low_thresh = 0.1f;          // second stage: the rest down to this (below: dropped)
    float new_track_thresh = 0.25f;         // an unmatched detection starts a track from this score
    float match_thresh = 0.8f;              // stage 1 cost limit (1 - IoU, times the score when fused)
    float match_thresh_low = 0.5f;          // stage 2 cost limit
    float match_thresh_unconfirmed = 0.7f;  // stage 3: new tracks against the leftover detections
    int track_buffer = 30;                  // frames a lost track can be found again (at 30 fps)
    double frame_rate = 30;                 // scales track_buffer: kept int(buffer·rate/30) frames
    bool fuse_score = true;                 // stage 1 and 3 costs weigh IoU by the score
    int minimum_consecutive_frames = 1;     // matched frames before a track is reported
    // BoT-SORT's camera-motion compensation (LibreYOLO's default true) is not implemented: true
    // is refused with NotSupported, so botsort here is its motion-only form (enable_cmc=false).
    bool enable_cmc = false;

    bool operator==(const TrackerConfig&) const = default;
};

// Throws InvalidArgument naming the field (LibreYOLO's rules: thresholds within [0, 1],
// track_high_thresh >= track_low_thresh, frame_rate > 0, ...), NotSupported for enable_cmc, and
// InvalidArgument for an unknown tracker name.
void validate(const TrackerConfig& config);

// Sets one field from its LibreYOLO name and a text value (as `key=value` on the command line);
// false when key is not a tracker field. Throws InvalidArgument for a value of the wrong type.
bool set_tracker_field(TrackerConfig& config, const std::string& key, const std::string& value);
// The field names set_tracker_field takes.
std::vector<std::string> tracker_field_names();

// One tracker over one stream: update() once per frame, in order.
class Tracker {
public:
    explicit Tracker(const TrackerConfig& config = {});  // validates config
    ~Tracker();
    Tracker(Tracker&&) noexcept;
    Tracker& operator=(Tracker&&) noexcept;

    // The frame's detections (any order, any score) in; out the confirmed, currently tracked
    // objects: a copy of the detection each matched this frame, with track_id set (1, 2, ...),
    // in LibreYOLO's order.
    std::vector<Detection> update(const std::vector<Detection>& detections);
    // The same, keeping the detections' positions: index_of[i] is the input index of output i.
    std::vector<Detection> update(const std::vector<Detection>& detections, std::vector<int>& index_of);
    void reset();  // no tracks, ids from 1 again
    const TrackerConfig& config() const;
    int frames_seen() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

struct TrackOptions {
    // The detector. conf < 0 (the default here) runs it at the tracker's track_low_thresh, so that
    // unsure detections reach the second stage, as LibreYOLO's track(conf=None).
    PredictOptions predict = default_predict();
    // track_conf: LibreYOLO's track(track_conf=0.25), the first stage's threshold; sets
    // tracker.track_high_thresh unless tracker_fields_set has it.
    float track_conf = 0.25f;
    TrackerConfig tracker;
    // Keep the tracker (and so the ids) from the previous track() call on this model when the
    // tracker's configuration is the same, for per-frame loops.
    bool persist = false;
    // Frame rate assumed for image sequences (folders, lists): frame_rate = fps / vid_stride.
    double fps = 30;
    // Names of TrackerConfig fields the caller set explicitly (track_conf then leaves
    // track_high_thresh alone; fps leaves frame_rate alone).
    std::vector<std::string> tracker_fields_set;

    static PredictOptions default_predict() {
        PredictOptions p;
        p.conf = -1.0f;
        p.project = "runs/track";
        p.name = "track";
        return p;
    }
};

}  // namespace libreyolo
