#pragma once
// How engine messages write a tensor's shape: "8x3x640x640" (a scalar: "scalar").
#include <c10/util/ArrayRef.h>

#include <cstdint>
#include <string>

namespace libreyolo {

inline std::string shape_text(c10::IntArrayRef sizes) {
    if (sizes.empty()) return "scalar";
    std::string s;
    for (const std::int64_t d : sizes) {
        if (!s.empty()) s += 'x';
        s += std::to_string(d);
    }
    return s;
}

}  // namespace libreyolo
