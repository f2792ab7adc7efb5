#pragma once
// Export to ONNX (LibreYOLO's model.export(format="onnx")): the network written by its own modules
// from its parameters, checked by ONNX's checker and written atomically. Model::export_onnx.
#include <cstdint>
#include <string>
#include <vector>

namespace libreyolo {

struct ExportOptions {
    // The file to write. "": <weights stem>.onnx beside a weights file the model was loaded from,
    // else weights/<LibreYOLO's file stem>.onnx; "_fp16" before the suffix when half.
    std::string output;
    int imgsz = 0;        // square input size, a multiple of 32; 0: the model's
    int batch = 1;        // the batch axis when not dynamic
    bool dynamic = true;  // a symbolic batch axis ("batch"); forced off by nms
    bool half = false;    // float16 weights, input and output
    int opset = 0;        // 0: 13, or 17 for families with attention (RT-DETR)
    // NonMaxSuppression inside the graph (YOLOv9, batch 1): outputs `output` (1, max_det, 6) rows
    // [x1, y1, x2, y2, score, class] on the input canvas, zero rows past the count, and `raw`.
    bool nms = false;
    float conf = 0.25f;  // nms: scores strictly above this are candidates
    float iou = 0.45f;   // nms: IoU threshold of the suppression
    int max_det = 300;   // nms: rows of `output`
};

struct ExportResult {
    std::string path;
    std::uintmax_t bytes = 0;
    int imgsz = 0;
    int opset = 0;
    bool dynamic = false;
    bool half = false;
    bool nms = false;
    std::vector<std::string> outputs;  // the graph's output names, in order
};

// The formats `libreyolo export` writes.
std::vector<std::string> export_formats();

}  // namespace libreyolo
