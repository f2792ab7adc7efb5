#pragma once
// Where predict and track hand each annotated frame when a front end shows them as they come (the
// CLI's show=true): the source it came from and the frame with its boxes (and track ids and trails)
// drawn, blue first. Called on the thread that runs predict or track; return false to stop the run.
#include <functional>
#include <string>

#include "libreyolo/image.h"

namespace libreyolo {

using FrameViewer = std::function<bool(const std::string& source, const ImageView& annotated_bgr)>;

// Replaces the viewer (an empty one: frames are not shown, the default). Not for images predicted
// from memory (Model::predict and Model::track on ImageViews): their caller has the pixels.
void set_frame_viewer(FrameViewer viewer);
bool has_frame_viewer();
// Hands frame to the viewer; true when there is none.
bool show_frame(const std::string& source, const ImageView& annotated_bgr);

}  // namespace libreyolo
