#pragma once
// The synthetic shapes dataset: YOLO-format images and labels plus a data.yaml, rendered from a
// seed, so tests, the demo model and the benchmarks have data without any download.
#include <cstdint>
#include <string>
#include <vector>

namespace libreyolo {

struct SynthOptions {
    std::string out;             // dataset folder (created)
    int n = 200;                 // images in all, train + val
    int imgsz = 640;             // longest side of each image
    std::uint64_t seed = 0;      // the same seed renders the same bytes
    double val_fraction = 0.2;   // share of images in the val split
    int max_objects = 8;         // per image, at least 1
    std::string format = "jpg";  // jpg, png, or ppm (also where the build has no image codecs)
};

struct SynthSummary {
    int train_images = 0;
    int val_images = 0;
    int objects = 0;
    std::string data_yaml;  // path of the written data.yaml
};

// The class names, in label order: circle, square, triangle, star, hexagon, cross.
const std::vector<std::string>& synthetic_class_names();

// Throws InvalidArgument for bad options, Error when a file cannot be written.
SynthSummary render_synthetic_dataset(const SynthOptions& options);

}  // namespace libreyolo
