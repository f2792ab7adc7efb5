#pragma once
// show=true: a window that shows each annotated frame of predict or track as it comes (one per
// source), through libreyolo::set_frame_viewer. Closing a window, or q / Esc in it, stops the run.
#include <memory>
#include <string>

namespace libreyolo::cli {

// The windows of one run, open while this lives (its end closes them, before the process exits).
class FrameWindows {
public:
    // Installs the viewer; why_not() is "" when frames will be shown, else why not (a build
    // without Qt, no display), which the command prints as a warning before going on without.
    FrameWindows();
    ~FrameWindows();
    FrameWindows(const FrameWindows&) = delete;
    FrameWindows& operator=(const FrameWindows&) = delete;
    const std::string& why_not() const { return why_not_; }
    // show=true: the windows, after a warning on stderr when they cannot open; nullptr for false.
    static std::unique_ptr<FrameWindows> open_if(bool show);

private:
    struct State;
    std::unique_ptr<State> state_;
    std::string why_not_;
};

}  // namespace libreyolo::cli
