#pragma once
// Small helpers shared by the engine tests.
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

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

}  // namespace libreyolo::testing
