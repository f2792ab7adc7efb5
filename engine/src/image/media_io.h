#pragma once
// Image and video files through OpenCV's optional imgcodecs / videoio modules. Where the engine is
// built without them (the GPU test host), these throw NotSupported.
#include <opencv2/core.hpp>

#include <filesystem>
#include <memory>

namespace libreyolo::image {

// BGR 8-bit, or an empty Mat when the file cannot be decoded.
cv::Mat read_image(const std::filesystem::path& path);
// Throws Error naming the path when the image cannot be written.
void write_image(const std::filesystem::path& path, const cv::Mat& bgr);

class VideoReader {
public:
    // Throws FormatError naming the file when it cannot be opened as a video.
    explicit VideoReader(const std::filesystem::path& path);
    ~VideoReader();
    bool read(cv::Mat& bgr);  // false at the end
    double fps() const;
    int frame_count() const;  // as the container says; may be 0 for streams

private:
    struct State;
    std::unique_ptr<State> state_;
};

class VideoWriter {
public:
    // Tries MP4 (mp4v); falls back to AVI (MJPG) when no MP4 encoder exists. path may change
    // extension accordingly: see written_path().
    VideoWriter(const std::filesystem::path& path, double fps, cv::Size size);
    ~VideoWriter();
    void write(const cv::Mat& bgr);
    const std::filesystem::path& written_path() const { return path_; }

private:
    struct State;
    std::unique_ptr<State> state_;
    std::filesystem::path path_;
};

}  // namespace libreyolo::image
