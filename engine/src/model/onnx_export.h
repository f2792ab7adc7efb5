#pragma once
// A model written as an ONNX file by its own modules (nn::DetectorImpl::emit_onnx on the fused
// copy: BatchNorm folded, branches merged): input `images` (B, 3, imgsz, imgsz) in [0, 1], output
// `output`, forward()'s tensor; LibreYOLO's metadata_props. Checked by ONNX's checker, then written
// atomically.
#include <filesystem>
#include <string>

#include "model/model_impl.h"

namespace libreyolo {

struct OnnxExportOptions {
    int imgsz = 0;         // 0: the checkpoint's; a multiple of the family's stride (32)
    int batch = 1;         // the batch axis when not dynamic
    bool dynamic = false;  // the batch axis symbolic ("batch")
    int opset = 13;
    std::filesystem::path output;  // the file to write
};

// Returns the written file's size in bytes. Throws InvalidArgument for a bad request and
// NotSupported for a family without an exporter or a build without ONNX.
std::uintmax_t export_onnx(Model::Impl& model, const OnnxExportOptions& options);

}  // namespace libreyolo
