// `libreyolo export`: LibreYOLO's export command, for the ONNX format.
#include "cli_common.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <utility>

#include "args.h"
#include "libreyolo/errors.h"
#include "libreyolo/export.h"
#include "libreyolo/model.h"
#include "model_argument.h"

namespace libreyolo::cli {
namespace {

const char* kExportHelp = R"(libreyolo export — write a model as an ONNX file, for ONNX Runtime, TensorRT, OpenVINO

keys (defaults in brackets):
  model=NAME|FILE   a model name (LibreYOLO's pretrained weights: ./weights/, the cache, else
                    downloaded once) or a .safetensors / LibreYOLO .pt checkpoint [the demo model]
  pretrained=BOOL   false: the model's architecture with random weights [true]
  download=BOOL     false: never touch the network, as LIBREYOLO_OFFLINE=1 [true]
  format=NAME       onnx [onnx]
  output=FILE       the file to write [<weights stem>.onnx beside the weights file; for a model
                    name, weights/<LibreYOLO's file stem>.onnx; _fp16 before .onnx when half]
  imgsz=N           square input size, a multiple of 32 [the model's]
  batch=N           the batch size when not dynamic [1]
  dynamic=BOOL      a symbolic batch axis, any batch size at run time [true]
  half=BOOL         float16 weights, input and output [false]
  nms=BOOL          NonMaxSuppression inside the graph ({nms families}; batch 1): outputs `output`
                    (1, max_det, 6) rows x1 y1 x2 y2 score class, and `raw` [false]
  conf=F            nms: score threshold [0.25]
  iou=F             nms: IoU threshold [0.45]
  max_det=N         nms: rows of `output` [300]
  opset=N           ONNX opset, up to 17 [the family's: {opsets}]
  device=D          where the model is loaded: auto, cpu, cuda, cuda:N [cpu]
flags:
  --json            print the result as JSON
Input `images` (B, 3, imgsz, imgsz), RGB in [0, 1], resized as predict does. YOLOv9: output
`output` (B, 4 + nc, anchors), xyxy boxes in input pixels, then class scores. RT-DETR (opset 17):
`pred_logits` (B, 300, nc) and `pred_boxes` (B, 300, 4), cx cy w h in [0, 1]. The checkpoint's
family, size, classes and names are in the file's metadata.
)";

// The help with each exporting family's default opset and the families that embed NMS, as they
// declare themselves.
std::string export_help() {
    std::string help = kExportHelp;
    for (const auto& [token, text] : {std::pair{std::string("{opsets}"), onnx_default_opsets_text()},
                                      std::pair{std::string("{nms families}"), onnx_embedded_nms_families_text()}})
        for (auto at = help.find(token); at != std::string::npos; at = help.find(token, at + text.size()))
            help.replace(at, token.size(), text);
    return help;
}

int run_export(const std::vector<std::string>& argv) {
    std::set<std::string> keys = {"format", "output", "imgsz",   "batch", "dynamic", "half", "nms",
                                  "conf",   "iou",    "max_det", "opset", "device",  "model"};
    for (const std::string& k : model_argument_keys()) keys.insert(k);
    const Arguments args = parse_arguments(argv, keys, {"json"});
    const std::string format = args.get("format", "onnx");
    const std::vector<std::string> formats = export_formats();
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
        std::string known;
        for (const std::string& f : formats) known += (known.empty() ? "" : ", ") + f;
        throw InvalidArgument("format: '" + format + "' is not a format this build exports (" + known + ")");
    }
    ExportOptions o;
    o.output = args.get("output");
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.batch = args.get_int("batch", o.batch);
    o.dynamic = args.get_bool("dynamic", o.dynamic);
    o.half = args.get_bool("half", o.half);
    o.nms = args.get_bool("nms", o.nms);
    o.conf = args.get_float("conf", o.conf);
    o.iou = args.get_float("iou", o.iou);
    o.max_det = args.get_int("max_det", o.max_det);
    o.opset = args.get_int("opset", o.opset);
    const std::string model_path = args.get("model", default_model());
    Model model = load_model_argument(args, model_path, args.get("device", "cpu"));
    const ExportResult r = model.export_onnx(o);

    if (args.flags.count("json")) {
        const nlohmann::json result = {{"path", r.path},   {"format", format}, {"bytes", r.bytes},
                                       {"imgsz", r.imgsz}, {"opset", r.opset}, {"dynamic", r.dynamic},
                                       {"half", r.half},   {"nms", r.nms},     {"outputs", r.outputs}};
        std::printf("%s\n", result.dump().c_str());
        return 0;
    }
    std::string outputs;
    for (const std::string& name : r.outputs) outputs += (outputs.empty() ? "" : ", ") + name;
    std::printf("exported %s to %s (%.1f MB): opset %d, imgsz %d, batch %s, %s, outputs %s\n", model_path.c_str(),
                r.path.c_str(), static_cast<double>(r.bytes) / 1e6, r.opset, r.imgsz,
                r.dynamic ? "dynamic" : std::to_string(o.batch).c_str(), r.half ? "float16" : "float32",
                outputs.c_str());
    return 0;
}

}  // namespace

extern const Command kExportCommand{"export", "write a model as an ONNX file (ONNX Runtime, TensorRT, OpenVINO)",
                                    nullptr, run_export, export_help};

}  // namespace libreyolo::cli
