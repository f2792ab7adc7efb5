#include "frame_window.h"

#include <cstdlib>
#include <iostream>

#include "libreyolo/frame_viewer.h"

#ifdef LIBREYOLO_CLI_HAVE_WINDOW
#include <QApplication>
#include <QKeyEvent>
#include <QLabel>
#include <QPixmap>

#include <map>
#endif
#include <memory>

namespace libreyolo::cli {

#ifdef LIBREYOLO_CLI_HAVE_WINDOW
namespace {

// One source's window: the frame scaled into it; closed, or q / Esc pressed, means stop.
class FrameLabel : public QLabel {
public:
    explicit FrameLabel(const QString& title) {
        setWindowTitle(title);
        setMinimumSize(320, 180);
        setAlignment(Qt::AlignCenter);
        resize(960, 540);
        show();
    }
    bool stopped() const { return stopped_ || !isVisible(); }

protected:
    void keyPressEvent(QKeyEvent* e) override {
        if (e->key() == Qt::Key_Q || e->key() == Qt::Key_Escape) stopped_ = true;
    }

private:
    bool stopped_ = false;
};

}  // namespace

struct FrameWindows::State {
    int argc = 1;
    char name[10] = "libreyolo";
    char* argv[2] = {name, nullptr};
    std::unique_ptr<QApplication> app;
    std::map<std::string, std::unique_ptr<FrameLabel>> windows;
};

FrameWindows::FrameWindows() {
    const bool platform_set = std::getenv("QT_QPA_PLATFORM") != nullptr;
    if (!platform_set && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) {
        why_not_ = "no display here ($DISPLAY and $WAYLAND_DISPLAY are unset)";
        return;
    }
    state_ = std::make_unique<State>();
    state_->app = std::make_unique<QApplication>(state_->argc, state_->argv);
    set_frame_viewer([state = state_.get()](const std::string& source, const ImageView& bgr) {
        auto& window = state->windows[source];
        if (!window) window = std::make_unique<FrameLabel>(QString::fromStdString("libreyolo — " + source));
        const QImage image(bgr.data, bgr.width, bgr.height, bgr.bytes_per_line, QImage::Format_BGR888);
        window->setPixmap(
            QPixmap::fromImage(image).scaled(window->size(), Qt::KeepAspectRatio, Qt::SmoothTransformation));
        QApplication::processEvents();
        return !window->stopped();
    });
}

FrameWindows::~FrameWindows() {
    if (!state_) return;
    set_frame_viewer({});
    state_->windows.clear();  // the widgets before the application
    state_->app.reset();
}

#else

struct FrameWindows::State {};
FrameWindows::FrameWindows() : why_not_("this build has no window support (built without the studio's Qt)") {}
FrameWindows::~FrameWindows() = default;

#endif

std::unique_ptr<FrameWindows> FrameWindows::open_if(bool show) {
    if (!show) return nullptr;
    auto windows = std::make_unique<FrameWindows>();
    if (!windows->why_not().empty())
        std::cerr << "warning: show=true: " << windows->why_not() << "; frames are not shown\n";
    return windows;
}

}  // namespace libreyolo::cli
