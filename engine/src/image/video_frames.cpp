#include <opencv2/imgproc.hpp>

#include "image/media_io.h"
#include "image/sources.h"
#include "libreyolo/video.h"

namespace libreyolo {

struct VideoFrames::State {
    explicit State(const std::string& path) : reader(path) {}
    image::VideoReader reader;
    cv::Mat bgr, rgb;
    int read = 0;
};

VideoFrames::VideoFrames(const std::string& path) : state_(std::make_unique<State>(path)) {}
VideoFrames::~VideoFrames() = default;

bool VideoFrames::next(std::vector<unsigned char>& rgb, int& width, int& height) {
    if (!state_->reader.read(state_->bgr)) return false;
    cv::cvtColor(state_->bgr, state_->rgb, cv::COLOR_BGR2RGB);
    width = state_->rgb.cols;
    height = state_->rgb.rows;
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    rgb.resize(row * static_cast<std::size_t>(height));
    for (int y = 0; y < height; ++y) std::copy_n(state_->rgb.ptr<unsigned char>(y), row, rgb.data() + row * y);
    ++state_->read;
    return true;
}

double VideoFrames::fps() const {
    return state_->reader.fps();
}

int VideoFrames::frames_read() const {
    return state_->read;
}

bool VideoFrames::is_video_file(const std::string& path) {
    return image::is_video_file(path);
}

}  // namespace libreyolo
