#include "model/onnx_export.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "io/atomic_file.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "libreyolo/model.h"
#include "libreyolo/pretrained.h"
#include "libreyolo/version.h"
#include "onnx/embedded_nms.h"
#include "onnx/onnx_graph.h"
#include "registry/family_definition.h"

namespace libreyolo {
namespace fs = std::filesystem;
namespace {

constexpr int kStride = 32;
// The opsets the emitters write valid graphs for: 18 moved the reductions' axes to an input, and
// the checker of Debian's ONNX 1.12 knows the opsets up to 17.
constexpr int kMaxOpset = 17;

// Python's json.dumps({"0": name, ...}) as LibreYOLO writes it: ", " and ": " separators, ASCII.
std::string names_json(const std::vector<std::string>& names) {
    std::string text = "{";
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i ? ", \"" : "\"") + std::to_string(i) + "\": " + nlohmann::json(names[i]).dump(-1, ' ', true);
    return text + "}";
}

// Python's str(float) for the thresholds LibreYOLO writes (0.25, 0.45, 0.7).
std::string python_float(float v) {
    std::ostringstream text;
    text.precision(7);
    text << static_cast<double>(v);
    std::string s = text.str();
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

// The family's exporter, or NotSupported naming the families that have one.
const registry::FamilyDefinition& exporting_family(const Model::Impl& m) {
    const registry::FamilyDefinition& f = registry::family_definition(m.spec.name.family);
    if (f.onnx_opset == 0) {
        std::string exporting;
        for (const OnnxExportSupport& s : onnx_export_support())
            exporting += (exporting.empty() ? "" : ", ") + s.family;
        throw NotSupported("ONNX export: the " + f.traits.display_name +
                           " family has no exporter yet (these do: " + exporting + ")");
    }
    return f;
}

// LibreYOLO's name for a model without a weights file: its pretrained file's stem (LibreYOLO9t),
// else <family>_<size>.
std::string default_stem(const Model::Impl& m) {
    const std::string name = m.spec.name.canonical();
    if (family_traits(m.spec.name.family).weights_prefix.empty()) return m.spec.name.family + "_" + m.spec.name.size;
    return fs::path(pretrained_file_name(name)).stem().string();
}

}  // namespace

std::vector<std::string> export_formats() {
    return {"onnx"};
}

std::vector<OnnxExportSupport> onnx_export_support() {
    std::vector<OnnxExportSupport> out;
    for (const registry::FamilyDefinition& f : registry::family_definitions())
        if (f.onnx_opset > 0)
            out.push_back({f.traits.family, f.traits.display_name, f.onnx_opset, f.onnx_embedded_nms});
    return out;
}

std::string onnx_default_opsets_text() {
    std::string text;
    for (const OnnxExportSupport& s : onnx_export_support())
        text += (text.empty() ? "" : ", ") + s.family + " " + std::to_string(s.opset);
    return text;
}

std::string onnx_embedded_nms_families_text() {
    std::string text;
    for (const OnnxExportSupport& s : onnx_export_support())
        if (s.embedded_nms) text += (text.empty() ? "" : ", ") + s.display_name;
    return text;
}

ExportResult export_onnx(Model::Impl& m, const ExportOptions& o, const fs::path& path) {
    const int imgsz = m.input_size(o.imgsz);
    if (imgsz % kStride != 0)
        throw InvalidArgument("imgsz: must be a multiple of " + std::to_string(kStride) + " for ONNX export, got " +
                              std::to_string(imgsz));
    if (o.batch < 1) throw InvalidArgument("batch: must be at least 1, got " + std::to_string(o.batch));
    const registry::FamilyDefinition& family = exporting_family(m);
    const int opset = o.opset == 0 ? family.onnx_opset : o.opset;
    if (opset < family.onnx_opset || opset > kMaxOpset)
        throw InvalidArgument("opset: " + m.spec.name.family + " exports with opset " +
                              std::to_string(family.onnx_opset) + " to " + std::to_string(kMaxOpset) + ", got " +
                              std::to_string(opset));
    bool dynamic = o.dynamic;
    if (o.nms) {
        if (family.traits.nms_free)
            throw InvalidArgument("nms: " + m.spec.name.family +
                                  " is NMS-free (its top-k outputs are the detections); export it without nms");
        if (!family.onnx_embedded_nms)
            throw InvalidArgument("nms: " + m.spec.name.family + " has no embedded NMS yet (" +
                                  onnx_embedded_nms_families_text() + " do)");
        if (o.batch != 1) throw InvalidArgument("batch: embedded NMS exports batch 1, got " + std::to_string(o.batch));
        if (!(o.conf >= 0.0f && o.conf < 1.0f)) throw InvalidArgument("conf: must be in [0, 1)");
        if (!(o.iou > 0.0f && o.iou <= 1.0f)) throw InvalidArgument("iou: must be in (0, 1]");
        if (o.max_det < 1) throw InvalidArgument("max_det: must be at least 1, got " + std::to_string(o.max_det));
        if (dynamic) log_info("export", "embedded NMS uses a fixed batch-1 graph: dynamic=false");
        dynamic = false;
    }
    torch::NoGradGuard no_grad;
    nn::DetectorImpl& network = m.fused_network();
    const torch::Dtype dtype = o.half ? torch::kFloat16 : torch::kFloat32;
    onnx::Graph g(opset, dtype);
    const onnx::Dim batch = dynamic ? onnx::Dim{std::string("batch")} : onnx::Dim{int64_t{o.batch}};
    const std::string images = g.input("images", dtype, {batch, int64_t{3}, int64_t{imgsz}, int64_t{imgsz}});
    const std::vector<nn::OnnxOutput> outputs = network.emit_onnx(g, images, imgsz, imgsz);
    auto shape_of = [&](const nn::OnnxOutput& out) {
        std::vector<onnx::Dim> dims{batch};
        for (const int64_t size : out.sizes) dims.emplace_back(size);
        return dims;
    };
    ExportResult result;
    if (o.nms) {
        // The raw head output: (1, 4 + nc, anchors), xyxy in input pixels, then the class scores.
        const nn::OnnxOutput& raw = outputs.front();
        onnx::EmbeddedNms nms;
        nms.classes = network.num_classes();
        nms.anchors = raw.sizes.at(1);
        nms.canvas = imgsz;
        nms.conf = o.conf;
        nms.iou = o.iou;
        nms.max_det = o.max_det;
        g.output(g.op("Identity", {onnx::embedded_nms(g, raw.value, nms)}, "output"), torch::kFloat32,
                 {int64_t{1}, int64_t{o.max_det}, int64_t{6}});
        g.output(g.op("Identity", {raw.value}, "raw"), dtype, shape_of(raw));
        result.outputs = {"output", "raw"};
    } else {
        for (const nn::OnnxOutput& out : outputs) {
            g.output(g.op("Identity", {out.value}, out.name), dtype, shape_of(out));
            result.outputs.push_back(out.name);
        }
    }

    // LibreYOLO's keys and value formats (its exporter's metadata), all strings.
    g.metadata("schema_version", "1.0");
    g.metadata("libreyolo_version", version());
    g.metadata("model_family", m.spec.name.family);
    g.metadata("size", m.spec.name.size);
    g.metadata("model_size", m.spec.name.size);
    g.metadata("task", m.spec.name.task);
    g.metadata("supported_tasks", "[\"" + m.spec.name.task + "\"]");
    g.metadata("default_task", m.spec.name.task);
    g.metadata("nc", std::to_string(network.num_classes()));
    g.metadata("nb_classes", std::to_string(network.num_classes()));
    g.metadata("names", names_json(m.meta.names));
    g.metadata("imgsz", std::to_string(imgsz));
    g.metadata("imgsz_h", std::to_string(imgsz));
    g.metadata("imgsz_w", std::to_string(imgsz));
    g.metadata("dynamic", dynamic ? "True" : "False");
    g.metadata("precision", o.half ? "fp16" : "fp32");
    g.metadata("half", o.half ? "True" : "False");
    g.metadata("segmentation", m.spec.name.task == "segment" ? "true" : "false");
    g.metadata("obb", m.spec.name.task == "obb" ? "true" : "false");
    // Where the image sits on the canvas, for runtimes that letterbox themselves.
    if (family.traits.input_resize == InputResize::Letterbox) g.metadata("letterbox_pad", "topleft");
    if (o.nms) {
        g.metadata("nms", "true");
        g.metadata("nms_conf", python_float(o.conf));
        g.metadata("nms_iou", python_float(o.iou));
        g.metadata("max_det", std::to_string(o.max_det));
        g.metadata("nms_raw_output", "true");
    }

    const std::string bytes = g.serialize_checked(version());
    if (!path.parent_path().empty()) fs::create_directories(path.parent_path());
    io::write_file_atomically(path, [&](std::ostream& out) { out.write(bytes.data(), bytes.size()); });
    result.path = path.string();
    result.bytes = bytes.size();
    result.imgsz = imgsz;
    result.opset = opset;
    result.dynamic = dynamic;
    result.half = o.half;
    result.nms = o.nms;
    return result;
}

// <weights stem>.onnx beside a weights file the user named; weights/<stem>.onnx for pretrained
// weights from the cache and for random weights, as LibreYOLO's exporter names its files.
ExportResult Model::export_onnx(const ExportOptions& options) {
    fs::path path = options.output;
    if (path.empty()) {
        const Impl& m = *impl_;
        const fs::path source(m.source);
        std::error_code ec;
        const bool file = m.source != "random init" && fs::is_regular_file(source, ec);
        const fs::path cache = PretrainedOptions::from_environment().cache;
        const bool cached = file && fs::weakly_canonical(source, ec).parent_path() == fs::weakly_canonical(cache, ec);
        const std::string stem = file ? source.stem().string() : default_stem(m);
        const fs::path folder = file && !cached ? source.parent_path() : fs::path("weights");
        path = folder / (stem + (options.half ? "_fp16" : "") + ".onnx");
    }
    return libreyolo::export_onnx(*impl_, options, path);
}

}  // namespace libreyolo
