#pragma once
// Small text helpers the engine's parsers share.
#include <cctype>
#include <string>
#include <string_view>

namespace libreyolo {

inline std::string lower_case(std::string_view text) {
    std::string s(text);
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace libreyolo
