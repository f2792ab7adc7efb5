#pragma once
// One forward over a batch of decoded frames, shared by predict and track: the frames' pixels in,
// a Result per frame out (postprocessed, classes filtered, with per-frame stage timings).
#include <opencv2/core.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "libreyolo/model.h"

namespace libreyolo {

struct Frame {
    cv::Mat rgb;  // what the network sees
    cv::Mat bgr;  // as decoded, what save=true draws on; empty for in-memory images
    std::string path;
    int frame = -1;
};

// A decoded image or video frame: converted to RGB once, the decoded pixels kept for saving.
Frame decoded_frame(cv::Mat bgr, std::string path, int frame);

// Throws InvalidArgument naming the first bad option.
void validate_predict_options(const PredictOptions& options);

std::vector<Result> run_batch(Model::Impl& model, const std::vector<Frame>& frames, const PredictOptions& options);

// Keeps the detections of options.classes (all when empty), at most max_det of them, the best by
// score, in their order: LibreYOLO's filter after postprocessing.
void keep_classes(std::vector<Detection>& boxes, const std::vector<int>& classes, int max_det);

// The run folder of save=true, made on first use (resolve_save_dir).
class SaveDir {
public:
    explicit SaveDir(const PredictOptions& o) : options_(o) {}
    std::filesystem::path get() {
        if (dir_.empty()) dir_ = resolve_save_dir(options_);
        return dir_;
    }

private:
    PredictOptions options_;
    std::filesystem::path dir_;
};

}  // namespace libreyolo
