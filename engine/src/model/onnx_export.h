#pragma once
// A model written as an ONNX file by its own modules (nn::DetectorImpl::emit_onnx on the fused
// copy: BatchNorm folded, branches merged): input `images` (B, 3, imgsz, imgsz) in [0, 1], output
// `output`, forward()'s tensor, or with nms the detections and `raw`; LibreYOLO's metadata_props.
// Checked by ONNX's checker, then written atomically. Model::export_onnx resolves the file name.
#include <filesystem>

#include "libreyolo/export.h"
#include "model/model_impl.h"

namespace libreyolo {

// Writes options' export of model to output. Throws InvalidArgument for a bad request and
// NotSupported for a family without an exporter or a build without ONNX.
ExportResult export_onnx(Model::Impl& model, const ExportOptions& options, const std::filesystem::path& output);

}  // namespace libreyolo
