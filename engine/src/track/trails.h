#pragma once
// The short trail behind each tracked object in saved and shown frames: the centres of its last
// boxes, drawn as a polyline in the track's colour.
#include <opencv2/core.hpp>

#include <deque>
#include <map>

#include "libreyolo/results.h"

namespace libreyolo::track {

class TrackTrails {
public:
    explicit TrackTrails(int length = 30) : length_(length) {}
    // Adds this frame's tracked boxes; ids not seen for `length` frames are forgotten.
    void add(const Result& result);
    void draw(cv::Mat& bgr) const;  // blue-first image, in place

private:
    struct Trail {
        std::deque<cv::Point> centres;
        int last_seen = 0;
    };
    int length_;
    int frame_ = 0;
    std::map<int, Trail> trails_;
};

}  // namespace libreyolo::track
