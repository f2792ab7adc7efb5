#include "libreyolo/log.h"

#include <atomic>
#include <iostream>
#include <mutex>

namespace libreyolo {
namespace {

std::mutex& sink_mutex() {
    static std::mutex m;
    return m;
}
LogCallback& sink() {
    static LogCallback cb;
    return cb;
}
std::atomic<int>& min_level() {
    static std::atomic<int> level{static_cast<int>(LogLevel::Info)};
    return level;
}

}  // namespace

const char* to_string(LogLevel level) {
    switch (level) {
        case LogLevel::Debug:
            return "debug";
        case LogLevel::Info:
            return "info";
        case LogLevel::Warning:
            return "warning";
        case LogLevel::Error:
            return "error";
    }
    return "?";
}

void set_log_callback(LogCallback cb) {
    std::lock_guard lock(sink_mutex());
    sink() = std::move(cb);
}

void set_log_level(LogLevel level) {
    min_level() = static_cast<int>(level);
}
LogLevel log_level() {
    return static_cast<LogLevel>(min_level().load());
}

void log(LogLevel level, std::string_view source, std::string_view message) {
    if (static_cast<int>(level) < min_level().load()) return;
    // Held while the callback runs so that lines from worker threads never interleave.
    std::lock_guard lock(sink_mutex());
    if (sink()) {
        sink()(level, std::string(source), std::string(message));
        return;
    }
    std::cerr << "[" << source << "] " << (level >= LogLevel::Warning ? to_string(level) : "")
              << (level >= LogLevel::Warning ? ": " : "") << message << '\n';
}

}  // namespace libreyolo
