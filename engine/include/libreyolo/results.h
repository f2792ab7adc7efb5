#pragma once
// What a prediction returns. Plain values: no tensors cross this boundary.
#include <string>
#include <vector>

namespace libreyolo {

struct Detection {
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;  // pixels of the original image
    float conf = 0;
    int cls = 0;
    int track_id = -1;  // the object's id from a tracker (track.h); -1 for an untracked detection
};

struct Speed {
    double preprocess_ms = 0;
    double inference_ms = 0;
    double postprocess_ms = 0;
};

struct Result {
    std::string path;  // source file, or "" for an in-memory image
    int frame = -1;    // video frame index, -1 for still images
    int orig_h = 0, orig_w = 0;
    std::vector<Detection> boxes;
    std::vector<std::string> names;  // class names of the model, indexed by Detection::cls
    Speed speed;                     // per image: batch timings divided by the batch size
    std::string saved_to;            // annotated output written for this result, if any

    const std::string& class_name(int cls) const;
};

// One JSON object per result: {"path","frame","shape":[h,w],"speed":{...},"boxes":[...]}; a box has
// "xyxy", "conf", "cls", "name", and "track_id" when tracked.
std::string to_json(const std::vector<Result>& results);

}  // namespace libreyolo
