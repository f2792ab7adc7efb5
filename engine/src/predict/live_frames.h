#pragma once
// The frames of one or more live sources (a .streams file) for predict and track: whichever
// stream has a new frame next, until all of them have ended or the process is interrupted.
#include <memory>
#include <string>
#include <vector>

#include "image/live_capture.h"
#include "predict/frame_batch.h"

namespace libreyolo {

class LiveFrames {
public:
    // Opens every source the spec names; throws naming the first that cannot be opened.
    explicit LiveFrames(const std::string& source, const LiveOptions& options = {});
    std::size_t size() const { return captures_.size(); }
    const std::string& source(std::size_t stream) const { return captures_[stream]->source(); }
    double fps(std::size_t stream) const;
    // A name for the stream's saved video: "camera0", or "stream" and its position in the list.
    std::string stem(std::size_t stream) const;
    // The next frame of any stream, taking them in turn; false when all have ended.
    bool next(std::size_t& stream, Frame& frame);

private:
    std::vector<std::unique_ptr<LiveCapture>> captures_;
    std::vector<bool> ended_;
    std::size_t turn_ = 0;
};

}  // namespace libreyolo
