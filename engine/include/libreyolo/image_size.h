#pragma once
// Input sizes: square, a multiple of the largest stride of every family (32).
#include <string>

namespace libreyolo {

inline constexpr int kImageSizeMultiple = 32;

// Throws InvalidArgument when imgsz is not a positive multiple of 32 (0 too, when allow_zero: "the
// model's own size"), naming the key and the valid sizes on either side ("imgsz=100: ... try 96 or 128").
void check_image_size(int imgsz, bool allow_zero = false, const std::string& key = "imgsz");

// The valid size nearest to imgsz (ties go up), at least 32.
int nearest_image_size(int imgsz);

}  // namespace libreyolo
