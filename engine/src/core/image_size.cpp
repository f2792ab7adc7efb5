#include "libreyolo/image_size.h"

#include <algorithm>

#include "libreyolo/errors.h"

namespace libreyolo {

void check_image_size(int imgsz, bool allow_zero, const std::string& key) {
    if (imgsz > 0 && imgsz % kImageSizeMultiple == 0) return;
    if (imgsz == 0 && allow_zero) return;
    const std::string m = std::to_string(kImageSizeMultiple);
    std::string message = key + "=" + std::to_string(imgsz) + ": must be a positive multiple of " + m +
                          " (the largest stride)" + (allow_zero ? ", or 0 for the model's own size" : "");
    if (imgsz > kImageSizeMultiple) {
        const int below = imgsz / kImageSizeMultiple * kImageSizeMultiple;
        message += "; try " + std::to_string(below) + " or " + std::to_string(below + kImageSizeMultiple);
    } else {
        message += "; try " + m;
    }
    throw InvalidArgument(message);
}

int nearest_image_size(int imgsz) {
    return std::max(kImageSizeMultiple, (imgsz + kImageSizeMultiple / 2) / kImageSizeMultiple * kImageSizeMultiple);
}

}  // namespace libreyolo
