#pragma once
// An image in memory, described without depending on OpenCV or Qt.
#include <cstdint>

namespace libreyolo {

enum class PixelFormat { RGB8, BGR8, RGBA8, BGRA8, Gray8 };

struct ImageView {
    const std::uint8_t* data = nullptr;
    int width = 0;
    int height = 0;
    int bytes_per_line = 0;  // 0 = tightly packed
    PixelFormat format = PixelFormat::RGB8;
};

}  // namespace libreyolo
