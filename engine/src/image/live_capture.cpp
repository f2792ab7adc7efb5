#include "image/live_capture.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "libreyolo/errors.h"
#include "libreyolo/log.h"

#include <opencv2/imgproc.hpp>
#ifdef LIBREYOLO_HAVE_VIDEOIO
#include <opencv2/videoio.hpp>
#endif

namespace libreyolo {
namespace {

bool is_camera_index(const std::string& s) {
    return !s.empty() && s.size() <= 4 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

const char* const kSchemes[] = {"rtsp://", "rtsps://", "rtmp://", "rtmps://",
                                "http://", "https://", "udp://",  "tcp://"};

bool has_stream_scheme(const std::string& s) {
    std::string lower = s;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    return std::any_of(std::begin(kSchemes), std::end(kSchemes), [&](const char* p) { return lower.starts_with(p); });
}

#ifdef LIBREYOLO_HAVE_VIDEOIO
// Host and port of a URL, for the connection check that gives a failed open its reason.
bool host_and_port(const std::string& url, std::string& host, std::string& port) {
    static const std::regex pattern(R"(^([a-zA-Z]+)://(?:[^@/]*@)?(\[[^\]]+\]|[^:/?#]+)(?::(\d+))?)");
    std::smatch m;
    if (!std::regex_search(url, m, pattern)) return false;
    std::string scheme = m[1].str();
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    host = m[2].str();
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    if (m[3].matched) {
        port = m[3].str();
    } else if (scheme == "http") {
        port = "80";
    } else if (scheme == "https") {
        port = "443";
    } else if (scheme == "rtsp") {
        port = "554";
    } else if (scheme == "rtmp") {
        port = "1935";
    } else {
        return false;  // udp and the rest: nothing to connect to beforehand
    }
    return true;
}

// Why a stream's host cannot be reached ("" when a TCP connection succeeds within the timeout).
std::string connection_problem(const std::string& url, double timeout_s) {
    std::string host, port;
    if (!host_and_port(url, host, port)) return "";
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
        return "unknown host '" + host + "' (" + gai_strerror(rc) + ")";
    std::string problem = "no address for '" + host + "'";
    for (addrinfo* a = found; a; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) continue;
        int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            rc = ::poll(&p, 1, static_cast<int>(timeout_s * 1000));
            if (rc == 0) {
                problem = "timed out connecting to " + host + ":" + port;
                ::close(fd);
                continue;
            }
            int err = 0;
            socklen_t len = sizeof err;
            ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
            rc = err == 0 ? 0 : -1;
            errno = err;
        }
        if (rc == 0) {
            ::close(fd);
            ::freeaddrinfo(found);
            return "";
        }
        problem = "cannot connect to " + host + ":" + port + " (" + std::strerror(errno) + ")";
        ::close(fd);
    }
    ::freeaddrinfo(found);
    return problem;
}
#endif

}  // namespace

bool is_live_source(const std::string& source) {
    if (is_camera_index(source) || has_stream_scheme(source)) return true;
    return std::filesystem::path(source).extension() == ".streams";
}

std::vector<std::string> read_streams_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw FileNotFound(path + ": cannot read the .streams file");
    std::vector<std::string> sources;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const std::string entry = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
        if (!is_camera_index(entry) && !has_stream_scheme(entry))
            throw FormatError(path + ":" + std::to_string(number) + ": '" + entry +
                              "' is not a camera index or a stream URL (rtsp://, rtmp://, http(s)://)");
        sources.push_back(entry);
    }
    if (sources.empty()) throw FormatError(path + ": the .streams file lists no sources");
    return sources;
}

std::vector<std::string> live_source_list(const std::string& source) {
    if (std::filesystem::path(source).extension() == ".streams") return read_streams_file(source);
    return {source};
}

namespace {
std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int signal) {
    if (g_interrupted.exchange(true)) {
        std::signal(signal, SIG_DFL);  // a second Ctrl-C: stop waiting for a clean end
        std::raise(signal);
    }
}
}  // namespace

void stop_on_interrupt() {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
}

bool interrupt_requested() {
    return g_interrupted.load();
}

#ifdef LIBREYOLO_HAVE_VIDEOIO
struct LiveCapture::Device {
    cv::VideoCapture capture;
};

// Opens source on d; "" on success, else the reason.
static std::string open_device(cv::VideoCapture& capture, const std::string& source, const LiveOptions& o) {
    if (is_camera_index(source)) {
        const int index = std::stoi(source);
        if (!std::filesystem::exists("/dev/video" + source))
            return "no camera " + source + " (no /dev/video" + source + ")";
        if (!capture.open(index) || !capture.isOpened())
            return "camera " + source + " cannot be opened (busy, or no permission)";
        return "";
    }
    if (std::string problem = connection_problem(source, o.open_timeout_s); !problem.empty()) return problem;
    const std::vector<int> params = {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, static_cast<int>(o.open_timeout_s * 1000),
                                     cv::CAP_PROP_READ_TIMEOUT_MSEC, static_cast<int>(o.read_timeout_s * 1000)};
    if (!capture.open(source, cv::CAP_FFMPEG, params) || !capture.isOpened())
        return "cannot open the stream (not a video stream the decoder reads, or it timed out)";
    return "";
}
#else
struct LiveCapture::Device {};
#endif

LiveCapture::LiveCapture(const std::string& source, const LiveOptions& options)
    : source_(source), options_(options), device_(std::make_unique<Device>()) {
    if (!is_camera_index(source) && !has_stream_scheme(source))
        throw InvalidArgument("source: '" + source + "' is not a camera index or a stream URL");
#ifdef LIBREYOLO_HAVE_VIDEOIO
    const std::string problem = open_device(device_->capture, source_, options_);
    if (!problem.empty()) {
        if (is_camera_index(source)) throw FileNotFound("source=" + source + ": " + problem);
        throw FormatError(source + ": " + problem);
    }
    stats_.connected = true;
    const double fps = device_->capture.get(cv::CAP_PROP_FPS);
    reported_fps_ = fps > 0 && fps < 1000;
    if (reported_fps_) stats_.fps = fps;
    thread_ = std::thread([this] { run(); });
#else
    throw NotSupported(source + ": this build has no video decoder (OpenCV videoio)");
#endif
}

LiveCapture::~LiveCapture() {
    stop();
    if (thread_.joinable()) thread_.join();
}

void LiveCapture::stop() {
    stopping_ = true;
    ready_.notify_all();
}

void LiveCapture::end(const std::string& reason) {
    std::lock_guard lock(mutex_);
    if (ended_) return;
    ended_ = true;
    end_reason_ = reason;
    stats_.connected = false;
    ready_.notify_all();
}

bool LiveCapture::sleep_unless_stopped(double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (stopping_ || interrupt_requested()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

bool LiveCapture::reopen() {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    double delay = options_.reconnect_delay_s;
    for (int attempt = 1; options_.reconnect_attempts < 0 || attempt <= options_.reconnect_attempts; ++attempt) {
        if (!sleep_unless_stopped(delay)) return false;
        device_->capture.release();
        const std::string problem = open_device(device_->capture, source_, options_);
        if (problem.empty()) {
            std::lock_guard lock(mutex_);
            ++stats_.reconnects;
            stats_.connected = true;
            log_info("live", source_ + ": reconnected");
            return true;
        }
        log_warning("live", source_ + ": reconnect attempt " + std::to_string(attempt) + " failed: " + problem);
        delay = std::min(delay * 2, options_.reconnect_max_delay_s);
    }
    end(source_ + ": gave up after " + std::to_string(options_.reconnect_attempts) + " reconnect attempts");
#endif
    return false;
}

void LiveCapture::run() {
#ifdef LIBREYOLO_HAVE_VIDEOIO
    cv::Mat frame;
    while (!stopping_ && !interrupt_requested()) {
        if (!device_->capture.read(frame) || frame.empty()) {
            {
                std::lock_guard lock(mutex_);
                stats_.connected = false;
            }
            log_warning("live", source_ + ": the stream dropped; reconnecting");
            if (!reopen()) break;
            continue;
        }
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        if (unread_) ++stats_.frames_dropped;
        frame.copyTo(latest_);  // the capture may reuse its buffer
        unread_ = true;
        latest_index_ = stats_.frames_read++;
        if (stats_.frames_read == 1) first_frame_time_ = now;
        const double elapsed = std::chrono::duration<double>(now - first_frame_time_).count();
        if (elapsed > 0.5 && !reported_fps_)
            stats_.fps = static_cast<double>(stats_.frames_read - 1) / elapsed;
        ready_.notify_all();
    }
    device_->capture.release();  // the camera is free again as soon as the source stops
    end(interrupt_requested() ? "interrupted" : (stopping_ ? "stopped" : end_reason()));
#endif
}

LiveSource::Next LiveCapture::next(cv::Mat& bgr, std::int64_t& index, int timeout_ms) {
    std::unique_lock lock(mutex_);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!unread_) {
        if (ended_ || stopping_ || interrupt_requested()) return LiveSource::Next::Ended;
        // Short waits: an interrupt sets a flag without notifying anyone.
        const auto step = std::min(until, std::chrono::steady_clock::now() + std::chrono::milliseconds(50));
        ready_.wait_until(lock, step);
        if (!unread_ && std::chrono::steady_clock::now() >= until) return LiveSource::Next::Timeout;
    }
    bgr = latest_;
    latest_ = cv::Mat();
    unread_ = false;
    index = latest_index_;
    return LiveSource::Next::Frame;
}

LiveStats LiveCapture::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

std::string LiveCapture::end_reason() const {
    std::lock_guard lock(mutex_);
    return end_reason_;
}

LiveSource::LiveSource(const std::string& source, const LiveOptions& options)
    : capture_(std::make_unique<LiveCapture>(source, options)) {}
LiveSource::~LiveSource() = default;

LiveSource::Next LiveSource::next(LiveFrame& frame, int timeout_ms) {
    cv::Mat bgr;
    const Next got = capture_->next(bgr, frame.index, timeout_ms);
    if (got != Next::Frame) return got;
    frame.width = bgr.cols;
    frame.height = bgr.rows;
    frame.rgb.resize(static_cast<std::size_t>(bgr.cols) * bgr.rows * 3);
    cv::Mat rgb(bgr.rows, bgr.cols, CV_8UC3, frame.rgb.data());
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    return Next::Frame;
}

void LiveSource::stop() {
    capture_->stop();
}
LiveStats LiveSource::stats() const {
    return capture_->stats();
}
const std::string& LiveSource::source() const {
    return capture_->source();
}
std::string LiveSource::end_reason() const {
    return capture_->end_reason();
}
LiveCapture& LiveSource::capture() {
    return *capture_;
}

}  // namespace libreyolo
