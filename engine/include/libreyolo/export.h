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
    int opset = 0;        // 0: the family's (onnx_export_support)
    // NonMaxSuppression inside the graph (the families whose support says so; batch 1): outputs
    // `output` (1, max_det, 6) rows [x1, y1, x2, y2, score, class] on the input canvas, zero rows
    // past the count, and `raw`.
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

// A family that exports to ONNX, as it declares itself: its default (lowest) opset and whether
// nms=true embeds NonMaxSuppression.
struct OnnxExportSupport {
    std::string family;
    std::string display_name;
    int opset = 0;
    bool embedded_nms = false;
};
// Every family that exports to ONNX, in the registry's order.
std::vector<OnnxExportSupport> onnx_export_support();
// "yolo9 13, rtdetr 17": each exporting family's default opset, as help and the studio show it.
std::string onnx_default_opsets_text();
// "YOLOv9": the families whose nms=true embeds NonMaxSuppression.
std::string onnx_embedded_nms_families_text();

}  // namespace libreyolo
