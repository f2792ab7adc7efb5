#include "model/onnx_export.h"

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "libreyolo/errors.h"
#include "libreyolo/version.h"
#include "onnx/onnx_graph.h"

namespace libreyolo {
namespace {

constexpr int kStride = 32;

// Python's json.dumps({"0": name, ...}) as LibreYOLO writes it: ", " and ": " separators, ASCII.
std::string names_json(const std::vector<std::string>& names) {
    std::string text = "{";
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i ? ", \"" : "\"") + std::to_string(i) + "\": " + nlohmann::json(names[i]).dump(-1, ' ', true);
    return text + "}";
}

}  // namespace

std::uintmax_t export_onnx(Model::Impl& m, const OnnxExportOptions& o) {
    const int imgsz = m.input_size(o.imgsz);
    if (imgsz % kStride != 0)
        throw InvalidArgument("imgsz: must be a multiple of " + std::to_string(kStride) + " for ONNX export, got " +
                              std::to_string(imgsz));
    if (o.batch < 1) throw InvalidArgument("batch: must be at least 1, got " + std::to_string(o.batch));
    if (o.opset < 13 || o.opset > 17) throw InvalidArgument("opset: from 13 to 17, got " + std::to_string(o.opset));
    torch::NoGradGuard no_grad;
    nn::DetectorImpl& network = m.fused_network();
    onnx::Graph g(o.opset);
    const onnx::Dim batch = o.dynamic ? onnx::Dim{std::string("batch")} : onnx::Dim{int64_t{o.batch}};
    const std::string images = g.input("images", m.dtype, {batch, int64_t{3}, int64_t{imgsz}, int64_t{imgsz}});
    const std::string output = network.emit_onnx(g, images, imgsz, imgsz);
    int64_t anchors = 0;
    for (int stride : {8, 16, 32}) anchors += static_cast<int64_t>(imgsz / stride) * (imgsz / stride);
    g.output(output, m.dtype, {batch, int64_t{4 + network.num_classes()}, anchors});

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
    g.metadata("dynamic", o.dynamic ? "True" : "False");
    const bool half = m.dtype == torch::kFloat16;
    g.metadata("precision", half ? "fp16" : "fp32");
    g.metadata("half", half ? "True" : "False");

    const std::string bytes = g.serialize_checked(version());
    io::write_file_atomically(o.output, [&](std::ostream& out) { out.write(bytes.data(), bytes.size()); });
    return bytes.size();
}

}  // namespace libreyolo
