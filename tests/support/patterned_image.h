#pragma once
// An in-memory 640×480 RGB image whose bytes follow a fixed pseudo-random pattern: input for the
// GPU tests, which run where no image codec is built. The pixels live as long as the object.
#include <vector>

#include "libreyolo/image.h"

namespace libreyolo::testing {

struct PatternedImage {
    std::vector<unsigned char> pixels = std::vector<unsigned char>(640 * 480 * 3);
    PatternedImage() {
        for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>((i * 7919) % 251);
    }
    ImageView view() const { return ImageView{pixels.data(), 640, 480, 640 * 3, PixelFormat::RGB8}; }
};

}  // namespace libreyolo::testing
