#pragma once
// Post-training quantization in simulation mode (LibreYOLO's model.quantize): the model's
// convolutions compute FP8 E4M3 W8A8 arithmetic in float32 (fake quantization), on any device,
// with the numbers LibreYOLO's QuantConv2d gives. Model::quantize / dequantize / quant_info.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace libreyolo {

struct QuantizeOptions {
    // "fp8": E4M3 weights (per output channel, amax / 448) and inputs (per tensor, calibrated
    // max(|lo|, |hi|) / 448). LibreYOLO's other recipes are refused by name.
    std::string recipe = "fp8";
    // Calibration images, forward only, labels unused: a data YAML (its train split, else val) or
    // an image file, folder or glob. "" or "none": no calibration, so inputs stay in float
    // (weight-only simulation; a warning says so).
    std::string calib;
    int samples = 128;  // at most this many calibration images, in sorted order
    int batch = 8;      // calibration images per forward
    int imgsz = 0;      // calibration input size; 0: the model's
    // Input range estimation: "auto" (= "minmax"), "minmax" (extremes over all batches) or
    // "percentile" (mean over batches of the 0.1 % / 99.9 % quantiles).
    std::string algorithm = "auto";
    // Modules whose qualified name contains one of these stay in float. Absent: the family's
    // default (yolo9: "head.", "backbone.conv0."). "dfl" is always kept.
    std::optional<std::vector<std::string>> keep_high_precision;
};

// LibreYOLO's quant manifest, as saved in a quantized checkpoint's "quant" metadata field.
struct QuantInfo {
    std::string schema = "1.0";
    std::string recipe;
    std::string execution = "simulated";
    std::string state = "prepared";
    bool calibrated = false;
    std::string calib_data;       // "" when not calibrated
    int calib_samples = 0;        // images seen by calibration
    std::string calib_algorithm;  // "" when not calibrated
    std::vector<std::string> keep_high_precision;
    int module_count = 0;
    std::map<std::string, int> module_counts;  // "conv_fp8" → how many
};

// Recipes Model::quantize accepts.
std::vector<std::string> quantization_recipes();

}  // namespace libreyolo
