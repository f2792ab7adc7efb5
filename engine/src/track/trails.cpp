#include "track/trails.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

#include "libreyolo/annotate.h"

namespace libreyolo::track {

void TrackTrails::add(const Result& result) {
    ++frame_;
    for (const auto& d : result.boxes) {
        if (d.track_id < 0) continue;
        Trail& t = trails_[d.track_id];
        t.centres.emplace_back(static_cast<int>(std::lround((d.x1 + d.x2) / 2)),
                               static_cast<int>(std::lround((d.y1 + d.y2) / 2)));
        while (static_cast<int>(t.centres.size()) > length_) t.centres.pop_front();
        t.last_seen = frame_;
    }
    std::erase_if(trails_, [&](const auto& item) { return frame_ - item.second.last_seen > length_; });
}

void TrackTrails::draw(cv::Mat& bgr) const {
    const int thickness = std::max(1, static_cast<int>(std::lround((bgr.rows + bgr.cols) / 2.0 * 0.002)));
    for (const auto& [id, trail] : trails_) {
        if (trail.centres.size() < 2 || trail.last_seen != frame_) continue;
        const Rgb c = class_colour(id);
        const std::vector<cv::Point> points(trail.centres.begin(), trail.centres.end());
        cv::polylines(bgr, points, false, cv::Scalar(c.b, c.g, c.r), thickness, cv::LINE_AA);
    }
}

}  // namespace libreyolo::track
