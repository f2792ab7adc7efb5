#pragma once
// Validation: predict over a dataset split and score it with COCO-rule mAP (LibreYOLO's val:
// conf 0.001, iou 0.6, at most 300 boxes per image, the same letterbox as prediction).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "libreyolo/metrics.h"
#include "libreyolo/model.h"

namespace libreyolo {

struct ValOptions {
    std::string split = "val";  // val, train or test
    int imgsz = 0;              // 0: the model's
    int batch = 8;
    float conf = 0.001f;
    float iou = 0.6f;
    int max_det = 300;
    bool fuse = false;  // PredictOptions::fuse
};

struct ValResult {
    DetectionMetrics metrics;
    std::vector<std::string> names;
    int images = 0;   // scored
    int skipped = 0;  // could not be decoded
    // Per scored image: the model's three stages, and the wall time of the whole run (decoding
    // and scoring included); total_s is that wall time in seconds.
    double preprocess_ms = 0, inference_ms = 0, postprocess_ms = 0, total_ms = 0, total_s = 0;
};

// The metrics under LibreYOLO's names and in its order ("metrics/precision" … "speed/images_seen"),
// as its results.csv and val() report them. LibreYOLO's "precision" and "recall" are aliases of
// mAP50-95 and AR100, not a precision/recall pair; they are kept for its file format.
std::vector<std::pair<std::string, double>> metric_columns(const ValResult& result);

// progress(done, total) is called after each batch. Throws FormatError when the dataset's class
// count differs from the model's.
ValResult validate(Model& model, const std::string& data_yaml, const ValOptions& options = {},
                   const std::function<void(int, int)>& progress = {});

}  // namespace libreyolo
