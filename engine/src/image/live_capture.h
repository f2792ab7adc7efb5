#pragma once
// The capture thread behind LiveSource (libreyolo/live_source.h): OpenCV's VideoCapture on a
// camera or a network stream, the newest decoded frame kept in a one-frame slot, reconnection
// with back-off after a drop.
#include <opencv2/core.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "libreyolo/live_source.h"

namespace libreyolo {

class LiveCapture {
public:
    LiveCapture(const std::string& source, const LiveOptions& options);  // opens, or throws
    ~LiveCapture();

    // The newest frame not yet taken (BGR), waiting up to timeout_ms.
    LiveSource::Next next(cv::Mat& bgr, std::int64_t& index, int timeout_ms);
    void stop();
    LiveStats stats() const;
    const std::string& source() const { return source_; }
    std::string end_reason() const;

private:
    struct Device;
    void run();
    bool reopen();  // after a drop: waits with back-off, false when giving up or stopped
    void end(const std::string& reason);
    bool sleep_unless_stopped(double seconds);

    std::string source_;
    LiveOptions options_;
    std::unique_ptr<Device> device_;
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    cv::Mat latest_;
    bool unread_ = false;
    std::int64_t latest_index_ = -1;
    LiveStats stats_;
    std::string end_reason_;
    bool ended_ = false;
    bool reported_fps_ = false;  // the source states its frame rate; else it is measured
    std::atomic<bool> stopping_{false};
    std::chrono::steady_clock::time_point first_frame_time_{};
    std::thread thread_;
};

}  // namespace libreyolo
