#include "image/media_io.h"

#include "image/raw_image_codecs.h"
#include "libreyolo/errors.h"

#ifdef LIBREYOLO_HAVE_IMGCODECS
#include <opencv2/imgcodecs.hpp>
#endif
#ifdef LIBREYOLO_HAVE_VIDEOIO
#include <opencv2/videoio.hpp>
#endif

namespace libreyolo::image {

cv::Mat read_image(const std::filesystem::path& path) {
#ifdef LIBREYOLO_HAVE_IMGCODECS
    try {
        return cv::imread(path.string(), cv::IMREAD_COLOR);
    } catch (const cv::Exception&) {
        return {};
    }
#else
    if (path.extension() == ".ppm") return read_ppm(path);
    if (path.extension() == ".bmp") return read_bmp(path);
    throw NotSupported(path.string() +
                       ": this build has no image decoder (OpenCV imgcodecs) and reads only .ppm and .bmp");
#endif
}

void write_image(const std::filesystem::path& path, const cv::Mat& bgr) {
#ifdef LIBREYOLO_HAVE_IMGCODECS
    bool ok = false;
    try {
        ok = cv::imwrite(path.string(), bgr);
    } catch (const cv::Exception& e) {
        throw Error(path.string() + ": cannot write image: " + e.what());
    }
    if (!ok) throw Error(path.string() + ": cannot write image");
#else
    if (path.extension() == ".ppm") return write_ppm(path, bgr);
    if (path.extension() == ".bmp") return write_bmp(path, bgr);
    throw NotSupported(path.string() +
                       ": this build has no image encoder (OpenCV imgcodecs) and writes only .ppm and .bmp");
#endif
}

#ifdef LIBREYOLO_HAVE_VIDEOIO
struct VideoReader::State {
    cv::VideoCapture capture;
};
struct VideoWriter::State {
    cv::VideoWriter writer;
};
#else
struct VideoReader::State {};
struct VideoWriter::State {};
#endif

VideoReader::VideoReader(const std::filesystem::path& path) : state_(std::make_unique<State>()) {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw FileNotFound(path.string() + ": no such file");
    if (!state_->capture.open(path.string()) || !state_->capture.isOpened())
        throw FormatError(path.string() + ": cannot open as a video (corrupt, or no decoder for it)");
#else
    throw NotSupported(path.string() + ": this build has no video decoder (OpenCV videoio)");
#endif
}
VideoReader::~VideoReader() = default;

bool VideoReader::read(cv::Mat& bgr) {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    return state_->capture.read(bgr) && !bgr.empty();
#else
    (void)bgr;
    return false;
#endif
}

double VideoReader::fps() const {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    const double fps = state_->capture.get(cv::CAP_PROP_FPS);
    return fps > 0 && fps < 1000 ? fps : 30.0;
#else
    return 30.0;
#endif
}

int VideoReader::frame_count() const {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    return std::max(0, static_cast<int>(state_->capture.get(cv::CAP_PROP_FRAME_COUNT)));
#else
    return 0;
#endif
}

VideoWriter::VideoWriter(const std::filesystem::path& path, double fps, cv::Size size)
    : state_(std::make_unique<State>()), path_(path) {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    path_.replace_extension(".mp4");
    if (state_->writer.open(path_.string(), cv::VideoWriter::fourcc('m', 'p', '4', 'v'), fps, size)) return;
    path_.replace_extension(".avi");
    if (state_->writer.open(path_.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps, size)) return;
    throw Error(path.string() + ": cannot create a video writer (no MP4 or MJPG encoder)");
#else
    (void)fps;
    (void)size;
    throw NotSupported(path.string() + ": this build has no video encoder (OpenCV videoio)");
#endif
}
VideoWriter::~VideoWriter() = default;

void VideoWriter::write(const cv::Mat& bgr) {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    state_->writer.write(bgr);
#else
    (void)bgr;
#endif
}

}  // namespace libreyolo::image
