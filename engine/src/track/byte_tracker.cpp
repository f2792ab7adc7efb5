#include "track/byte_tracker.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/linear_sum_assignment.h"
#include "libreyolo/errors.h"

namespace libreyolo::track {
namespace {

using Box = std::array<double, 4>;

double iou(const Box& a, const Box& b) {
    const double w = std::max(0.0, std::min(a[2], b[2]) - std::max(a[0], b[0]));
    const double h = std::max(0.0, std::min(a[3], b[3]) - std::max(a[1], b[1]));
    const double inter = w * h;
    const double area_a = (a[2] - a[0]) * (a[3] - a[1]);
    const double area_b = (b[2] - b[0]) * (b[3] - b[1]);
    return inter / std::max(area_a + area_b - inter, 1e-6);
}

struct Matching {
    std::vector<std::pair<int, int>> pairs;           // (row, col), rows ascending
    std::vector<int> unmatched_rows, unmatched_cols;  // ascending
};

// LibreYOLO's linear_assignment: the optimal assignment, then pairs costing more than thresh
// dropped; a matrix with a non-finite entry matches nothing.
Matching assign(const std::vector<double>& cost, int rows, int cols, double thresh) {
    Matching m;
    std::vector<bool> row_used(rows, false), col_used(cols, false);
    const bool finite = std::all_of(cost.begin(), cost.end(), [](double v) { return std::isfinite(v); });
    if (rows > 0 && cols > 0 && finite) {
        const Assignment a = linear_sum_assignment(cost, rows, cols);
        for (std::size_t k = 0; k < a.rows.size(); ++k) {
            const int r = static_cast<int>(a.rows[k]), c = static_cast<int>(a.cols[k]);
            if (cost[static_cast<std::size_t>(r) * cols + c] > thresh) continue;
            m.pairs.emplace_back(r, c);
            row_used[r] = col_used[c] = true;
        }
    }
    for (int r = 0; r < rows; ++r)
        if (!row_used[r]) m.unmatched_rows.push_back(r);
    for (int c = 0; c < cols; ++c)
        if (!col_used[c]) m.unmatched_cols.push_back(c);
    return m;
}

// cost ← 1 - (1 - cost) · score of the column's detection.
void fuse_scores(std::vector<double>& cost, const std::vector<TrackletPtr>& dets) {
    const std::size_t cols = dets.size();
    for (std::size_t i = 0; i < cost.size(); ++i) cost[i] = 1.0 - (1.0 - cost[i]) * dets[i % cols]->score;
}

// Tracks of a then those of b whose id a lacks, by id, in first-seen order (LibreYOLO's dict merge).
std::vector<TrackletPtr> joint(const std::vector<TrackletPtr>& a, const std::vector<TrackletPtr>& b) {
    std::vector<long> order;
    std::map<long, TrackletPtr> by_id;
    for (const auto& t : a) {
        if (!by_id.count(t->track_id)) order.push_back(t->track_id);
        by_id[t->track_id] = t;
    }
    for (const auto& t : b)
        if (!by_id.count(t->track_id)) {
            order.push_back(t->track_id);
            by_id[t->track_id] = t;
        }
    std::vector<TrackletPtr> out;
    for (long id : order) out.push_back(by_id[id]);
    return out;
}

std::vector<TrackletPtr> first_of_each_id(const std::vector<TrackletPtr>& tracks) {
    std::set<long> seen;
    std::vector<TrackletPtr> out;
    for (const auto& t : tracks)
        if (seen.insert(t->track_id).second) out.push_back(t);
    return out;
}

}  // namespace

ByteTracker::ByteTracker(const TrackerConfig& config)
    : config_(config),
      filter_(config.tracker == "botsort" ? BoxState::CentreWidthHeight : BoxState::CentreAspectHeight) {}

void ByteTracker::reset() {
    next_id_ = tentative_ids_ = 0;
    frame_id_ = 0;
    tracked_.clear();
    lost_.clear();
    removed_.clear();
}

Box ByteTracker::measurement(const Box& b) const {
    if (botsort()) {
        const double w = std::max(b[2] - b[0], 1e-3), h = std::max(b[3] - b[1], 1e-3);
        return {b[0] + w / 2, b[1] + h / 2, w, h};
    }
    const double w = b[2] - b[0], h = b[3] - b[1];
    return {b[0] + w / 2, b[1] + h / 2, w / std::max(h, 1e-6), h};
}

Box ByteTracker::state_xyxy(const Tracklet& t) const {
    const Vec8& m = t.estimate.mean;
    double w = m[2], h = m[3];
    if (botsort()) {
        w = std::max(w, 1e-3);
        h = std::max(h, 1e-3);
    } else {
        w = m[2] * m[3];
    }
    const double x = m[0] - w / 2, y = m[1] - h / 2;
    return {x, y, x + w, y + h};
}

void ByteTracker::clamp_size(Tracklet& t) const {
    if (!botsort()) return;
    t.estimate.mean[2] = std::max(t.estimate.mean[2], 1e-3);
    t.estimate.mean[3] = std::max(t.estimate.mean[3], 1e-3);
}

void ByteTracker::predict(Tracklet& t) const {
    // A lost track keeps its centre velocity but not its size change, so it does not drift in scale.
    if (t.life != TrackLife::Tracked) {
        t.estimate.mean[7] = 0;
        if (botsort()) t.estimate.mean[6] = 0;
    }
    filter_.predict(t.estimate);
    clamp_size(t);
}

void ByteTracker::activate(Tracklet& t, long id) {
    t.track_id = id;
    t.estimate = filter_.initiate(measurement(t.detected_xyxy));
    t.life = TrackLife::Tracked;
    t.activated = true;
    t.frame_id = t.start_frame = frame_id_;
    t.hits = 1;
    clamp_size(t);
}

void ByteTracker::match(Tracklet& t, const Tracklet& detection, bool reactivate) {
    const Box z = measurement(detection.detected_xyxy);
    bool degenerate = false;
    for (const auto& row : t.estimate.covariance)
        for (double v : row) degenerate = degenerate || !std::isfinite(v);
    if (reactivate && degenerate) {
        t.estimate = filter_.initiate(z);
    } else {
        try {
            filter_.update(t.estimate, z);
        } catch (const InvalidArgument&) {
            // A covariance that lost positive definiteness: start the estimate over from this
            // measurement rather than stopping the stream (LibreYOLO raises here).
            t.estimate = filter_.initiate(z);
        }
    }
    t.life = TrackLife::Tracked;
    t.activated = true;
    t.frame_id = frame_id_;
    t.score = detection.score;
    t.cls = detection.cls;
    t.detection_index = detection.detection_index;
    ++t.hits;
    clamp_size(t);
}

void ByteTracker::activate_new_track(Tracklet& t) {
    if (!botsort()) {
        activate(t, ++next_id_);
        if (config_.minimum_consecutive_frames > 1) t.activated = false;
        return;
    }
    // BoT-SORT confirms the first frame's detections at once; a later birth takes a public id only
    // after it is matched again (negative ids keep tentative tracks apart until then).
    if (frame_id_ == 1) {
        activate(t, ++next_id_);
        return;
    }
    activate(t, -(++tentative_ids_));
    t.activated = false;
}

void ByteTracker::after_unconfirmed_match(Tracklet& t) {
    if (!botsort()) return;
    if (t.hits >= config_.minimum_consecutive_frames) {
        t.track_id = ++next_id_;
        t.activated = true;
    } else {
        t.activated = false;
    }
}

bool ByteTracker::should_output(const Tracklet& t) const {
    if (botsort()) return t.activated && t.track_id > 0;
    return t.activated && t.hits >= config_.minimum_consecutive_frames;
}

std::vector<double> ByteTracker::iou_cost(const std::vector<TrackletPtr>& tracks,
                                          const std::vector<TrackletPtr>& dets) const {
    std::vector<double> cost;
    cost.reserve(tracks.size() * dets.size());
    for (const auto& t : tracks) {
        const Box a = state_xyxy(*t);
        for (const auto& d : dets) cost.push_back(1.0 - iou(a, d->detected_xyxy));
    }
    return cost;
}

std::vector<TrackedDetection> ByteTracker::update(const std::vector<Detection>& detections) {
    ++frame_id_;
    const TrackerConfig& c = config_;

    // 1. Detections at or above track_low_thresh, split at track_high_thresh.
    std::vector<TrackletPtr> high, low;
    for (std::size_t i = 0; i < detections.size(); ++i) {
        const Detection& d = detections[i];
        const double score = d.conf;
        if (!(score >= c.track_low_thresh)) continue;
        auto t = std::make_shared<Tracklet>();
        t->detected_xyxy = {d.x1, d.y1, d.x2, d.y2};
        t->score = score;
        t->cls = d.cls;
        t->detection_index = static_cast<int>(i);
        (score >= c.track_high_thresh ? high : low).push_back(std::move(t));
    }

    // 2. Predict every kept track.
    for (const auto& t : tracked_) predict(*t);
    for (const auto& t : lost_) predict(*t);
    std::vector<TrackletPtr> unconfirmed, confirmed;
    for (const auto& t : tracked_) (t->activated ? confirmed : unconfirmed).push_back(t);
    const std::vector<TrackletPtr> pool = joint(confirmed, lost_);

    // 3. Stage 1: sure detections against confirmed and lost tracks.
    std::vector<double> cost = iou_cost(pool, high);
    if (c.fuse_score && !high.empty()) fuse_scores(cost, high);
    const Matching m1 = assign(cost, static_cast<int>(pool.size()), static_cast<int>(high.size()), c.match_thresh);
    for (const auto& [r, col] : m1.pairs) match(*pool[r], *high[col], pool[r]->life != TrackLife::Tracked);

    // 4. Stage 2: unsure detections against the tracked (not lost) tracks left over.
    std::vector<TrackletPtr> remaining;
    for (int r : m1.unmatched_rows)
        if (pool[r]->life == TrackLife::Tracked) remaining.push_back(pool[r]);
    const Matching m2 = assign(iou_cost(remaining, low), static_cast<int>(remaining.size()),
                               static_cast<int>(low.size()), c.match_thresh_low);
    for (const auto& [r, col] : m2.pairs) match(*remaining[r], *low[col], false);
    for (int r : m2.unmatched_rows)
        if (remaining[r]->life != TrackLife::Lost) remaining[r]->life = TrackLife::Lost;

    // 5. Stage 3: the sure detections left against unconfirmed tracks.
    std::vector<TrackletPtr> left;
    for (int col : m1.unmatched_cols) left.push_back(high[col]);
    cost = iou_cost(unconfirmed, left);
    if (c.fuse_score && !left.empty()) fuse_scores(cost, left);
    const Matching m3 =
        assign(cost, static_cast<int>(unconfirmed.size()), static_cast<int>(left.size()), c.match_thresh_unconfirmed);
    for (const auto& [r, col] : m3.pairs) {
        match(*unconfirmed[r], *left[col], false);
        after_unconfirmed_match(*unconfirmed[r]);
    }
    for (int r : m3.unmatched_rows) {
        unconfirmed[r]->life = TrackLife::Removed;
        removed_.push_back(unconfirmed[r]);
    }

    // 6. New tracks from sure, unmatched detections.
    for (int col : m3.unmatched_cols)
        if (left[col]->score >= c.new_track_thresh) activate_new_track(*left[col]);

    // 7. Lost tracks past the buffer are removed.
    const int max_time_lost = static_cast<int>(c.track_buffer * c.frame_rate / 30.0);
    for (const auto& t : lost_)
        if (frame_id_ - t->frame_id > max_time_lost) {
            t->life = TrackLife::Removed;
            removed_.push_back(t);
        }

    // 8. The lists for the next frame.
    std::vector<TrackletPtr> candidates = pool;
    candidates.insert(candidates.end(), unconfirmed.begin(), unconfirmed.end());
    candidates.insert(candidates.end(), high.begin(), high.end());
    candidates.insert(candidates.end(), low.begin(), low.end());
    std::vector<TrackletPtr> now_tracked;
    for (const auto& t : candidates)
        if (t->life == TrackLife::Tracked) now_tracked.push_back(t);
    now_tracked = first_of_each_id(now_tracked);
    std::set<long> tracked_ids;
    for (const auto& t : now_tracked) tracked_ids.insert(t->track_id);
    std::vector<TrackletPtr> now_lost;
    for (const std::vector<TrackletPtr>* list : {&pool, const_cast<const std::vector<TrackletPtr>*>(&lost_)})
        for (const auto& t : *list)
            if (t->life == TrackLife::Lost && !tracked_ids.count(t->track_id)) now_lost.push_back(t);
    now_lost = first_of_each_id(now_lost);

    // A tracked and a lost track over the same object (IoU > 0.85): the one followed longer stays.
    std::set<std::size_t> drop_tracked, drop_lost;
    for (std::size_t i = 0; i < now_tracked.size(); ++i) {
        const Box a = state_xyxy(*now_tracked[i]);
        for (std::size_t j = 0; j < now_lost.size(); ++j) {
            if (!(iou(a, state_xyxy(*now_lost[j])) > 0.85)) continue;
            const int age_tracked = now_tracked[i]->frame_id - now_tracked[i]->start_frame;
            const int age_lost = now_lost[j]->frame_id - now_lost[j]->start_frame;
            (age_tracked >= age_lost ? drop_lost : drop_tracked).insert(age_tracked >= age_lost ? j : i);
        }
    }
    tracked_.clear();
    for (std::size_t i = 0; i < now_tracked.size(); ++i)
        if (!drop_tracked.count(i)) tracked_.push_back(now_tracked[i]);
    lost_.clear();
    for (std::size_t j = 0; j < now_lost.size(); ++j)
        if (!drop_lost.count(j)) lost_.push_back(now_lost[j]);
    std::erase_if(removed_, [](const TrackletPtr& t) { return t->life != TrackLife::Removed; });
    if (removed_.size() > 1000) removed_.erase(removed_.begin(), removed_.end() - 500);

    std::vector<TrackedDetection> out;
    for (const auto& t : tracked_)
        if (should_output(*t)) out.push_back({t->detection_index, t->track_id});
    return out;
}

}  // namespace libreyolo::track
