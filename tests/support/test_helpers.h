#pragma once
// Small helpers shared by the engine tests.
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "libreyolo/log.h"

namespace libreyolo::testing {

// The message of the exception f throws, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

inline std::string read_all(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes bytes to path, creating its folder.
inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

// Collects the engine's warnings while alive.
struct WarningCapture {
    std::vector<std::string> lines;
    WarningCapture() {
        set_log_callback([this](LogLevel l, const std::string&, const std::string& m) {
            if (l >= LogLevel::Warning) lines.push_back(m);
        });
    }
    ~WarningCapture() { set_log_callback({}); }
    WarningCapture(const WarningCapture&) = delete;
    WarningCapture& operator=(const WarningCapture&) = delete;
    bool mentions(const std::string& text) const {
        for (const auto& l : lines)
            if (l.find(text) != std::string::npos) return true;
        return false;
    }
};

}  // namespace libreyolo::testing
