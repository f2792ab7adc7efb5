#include "libreyolo/frame_viewer.h"

#include <mutex>

namespace libreyolo {
namespace {

std::mutex g_mutex;
FrameViewer g_viewer;

}  // namespace

void set_frame_viewer(FrameViewer viewer) {
    std::lock_guard lock(g_mutex);
    g_viewer = std::move(viewer);
}

bool has_frame_viewer() {
    std::lock_guard lock(g_mutex);
    return static_cast<bool>(g_viewer);
}

bool show_frame(const std::string& source, const ImageView& annotated_bgr) {
    FrameViewer viewer;
    {
        std::lock_guard lock(g_mutex);
        viewer = g_viewer;
    }
    return !viewer || viewer(source, annotated_bgr);
}

}  // namespace libreyolo
