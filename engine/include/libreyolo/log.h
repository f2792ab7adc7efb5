#pragma once
// One log sink for the whole engine. The CLI and the studio install their own callback;
// without one, lines go to stderr.
#include <functional>
#include <string>
#include <string_view>

namespace libreyolo {

enum class LogLevel { Debug = 0, Info = 1, Warning = 2, Error = 3 };

// source names the part of the engine that speaks ("predict", "weights", ...).
using LogCallback = std::function<void(LogLevel level, const std::string& source, const std::string& message)>;

// Installs cb as the sink (thread-safe); an empty function restores the stderr sink.
void set_log_callback(LogCallback cb);
// Lines below this level are dropped before reaching the sink. Default: Info.
void set_log_level(LogLevel level);
LogLevel log_level();

void log(LogLevel level, std::string_view source, std::string_view message);
inline void log_debug(std::string_view s, std::string_view m) {
    log(LogLevel::Debug, s, m);
}
inline void log_info(std::string_view s, std::string_view m) {
    log(LogLevel::Info, s, m);
}
inline void log_warning(std::string_view s, std::string_view m) {
    log(LogLevel::Warning, s, m);
}
inline void log_error(std::string_view s, std::string_view m) {
    log(LogLevel::Error, s, m);
}

const char* to_string(LogLevel level);

}  // namespace libreyolo
