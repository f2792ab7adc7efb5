#pragma once
// ByteTrack's association (LibreYOLO 1.6.0's tracking/tracker.py) and its BoT-SORT variant
// without camera-motion compensation (tracking/botsort.py, enable_cmc=false): the same three
// stages, lists and id rules, step for step, so that ids agree with LibreYOLO's frame by frame.
#include <memory>
#include <vector>

#include "libreyolo/track.h"
#include "track/kalman_box_filter.h"

namespace libreyolo::track {

enum class TrackLife { New, Tracked, Lost, Removed };

struct Tracklet {
    KalmanEstimate estimate;
    std::array<double, 4> detected_xyxy{};  // the detection this tracklet was made from
    double score = 0;
    int cls = 0;
    int detection_index = 0;  // index of the detection last matched, in the frame's input
    long track_id = 0;        // 0: none yet; BoT-SORT's unconfirmed births are negative
    TrackLife life = TrackLife::New;
    bool activated = false;
    int frame_id = 0, start_frame = 0, hits = 0;
};
using TrackletPtr = std::shared_ptr<Tracklet>;

struct TrackedDetection {
    int detection_index;
    long track_id;
};

class ByteTracker {
public:
    explicit ByteTracker(const TrackerConfig& config);
    std::vector<TrackedDetection> update(const std::vector<Detection>& detections);
    void reset();
    int frame_id() const { return frame_id_; }
    const TrackerConfig& config() const { return config_; }

private:
    bool botsort() const { return filter_.state() == BoxState::CentreWidthHeight; }
    std::array<double, 4> measurement(const std::array<double, 4>& xyxy) const;
    std::array<double, 4> state_xyxy(const Tracklet& t) const;
    void clamp_size(Tracklet& t) const;
    void predict(Tracklet& t) const;
    void activate(Tracklet& t, long id);
    void match(Tracklet& t, const Tracklet& detection, bool reactivate);
    void activate_new_track(Tracklet& t);
    void after_unconfirmed_match(Tracklet& t);
    bool should_output(const Tracklet& t) const;
    std::vector<double> iou_cost(const std::vector<TrackletPtr>& tracks, const std::vector<TrackletPtr>& dets) const;

    TrackerConfig config_;
    KalmanBoxFilter filter_;
    long next_id_ = 0, tentative_ids_ = 0;
    int frame_id_ = 0;
    std::vector<TrackletPtr> tracked_, lost_, removed_;
};

}  // namespace libreyolo::track
