#include "libreyolo/results.h"

#include <nlohmann/json.hpp>

namespace libreyolo {

const std::string& Result::class_name(int cls) const {
    static const std::string unknown = "?";
    return cls >= 0 && cls < static_cast<int>(names.size()) ? names[cls] : unknown;
}

std::string to_json(const std::vector<Result>& results) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : results) {
        nlohmann::json boxes = nlohmann::json::array();
        for (const auto& d : r.boxes) {
            nlohmann::json box = {
                {"xyxy", {d.x1, d.y1, d.x2, d.y2}}, {"conf", d.conf}, {"cls", d.cls}, {"name", r.class_name(d.cls)}};
            if (d.track_id >= 0) box["track_id"] = d.track_id;
            boxes.push_back(std::move(box));
        }
        nlohmann::json item = {{"path", r.path},
                               {"shape", {r.orig_h, r.orig_w}},
                               {"speed",
                                {{"preprocess", r.speed.preprocess_ms},
                                 {"inference", r.speed.inference_ms},
                                 {"postprocess", r.speed.postprocess_ms}}},
                               {"boxes", boxes}};
        if (r.frame >= 0) item["frame"] = r.frame;
        if (!r.saved_to.empty()) item["saved_to"] = r.saved_to;
        out.push_back(std::move(item));
    }
    return out.dump(2);
}

}  // namespace libreyolo
