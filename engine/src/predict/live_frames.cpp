#include "predict/live_frames.h"

#include <algorithm>

#include "libreyolo/log.h"

namespace libreyolo {

LiveFrames::LiveFrames(const std::string& source, const LiveOptions& options) {
    for (const std::string& s : live_source_list(source))
        captures_.push_back(std::make_unique<LiveCapture>(s, options));
    ended_.assign(captures_.size(), false);
}

double LiveFrames::fps(std::size_t stream) const {
    const double fps = captures_[stream]->stats().fps;
    return fps > 0 ? fps : 30.0;
}

std::string LiveFrames::stem(std::size_t stream) const {
    const std::string& s = source(stream);
    if (std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return "camera" + s;
    return captures_.size() == 1 ? "stream" : "stream" + std::to_string(stream);
}

bool LiveFrames::next(std::size_t& stream, Frame& frame) {
    for (;;) {
        if (std::all_of(ended_.begin(), ended_.end(), [](bool e) { return e; })) return false;
        // Each open stream in turn gets a short wait, so that one stalled stream holds up none of
        // the others for long.
        const int wait_ms = captures_.size() == 1 ? 200 : 20;
        for (std::size_t k = 0; k < captures_.size(); ++k) {
            const std::size_t i = (turn_ + k) % captures_.size();
            if (ended_[i]) continue;
            cv::Mat bgr;
            std::int64_t index = 0;
            const LiveSource::Next got = captures_[i]->next(bgr, index, wait_ms);
            if (got == LiveSource::Next::Ended) {
                ended_[i] = true;
                const std::string why = captures_[i]->end_reason();
                if (why != "interrupted" && why != "stopped")
                    log_warning("live", why.empty() ? source(i) + ": ended" : why);
                continue;
            }
            if (got == LiveSource::Next::Timeout) continue;
            turn_ = i + 1;
            stream = i;
            frame = decoded_frame(std::move(bgr), source(i), static_cast<int>(index));
            return true;
        }
    }
}

}  // namespace libreyolo
