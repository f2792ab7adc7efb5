#pragma once
// The engine's entry point for users: load or build a model, inspect it, predict with it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libreyolo/cuda_graph.h"
#include "libreyolo/image.h"
#include "libreyolo/pretrained.h"
#include "libreyolo/quantize.h"
#include "libreyolo/results.h"

namespace libreyolo {

struct TrackOptions;  // track.h
struct ExportOptions;  // export.h
struct ExportResult;   // export.h

struct ModelInfo {
    std::string family;  // "yolo9"
    std::string size;    // "t"
    std::string task;    // "detect"
    int nc = 0;
    std::vector<std::string> names;
    int imgsz = 640;
    std::int64_t parameters = 0;
    std::string device;       // "cpu", "cuda:0"
    std::string dtype;        // "float32", "float16"
    std::string source;       // the weights file, or "random init" for a bare architecture
    bool pretrained = false;  // false for a random-init architecture
};

struct PredictOptions {
    float conf = 0.25f;  // score threshold
    float iou = 0.45f;   // NMS IoU threshold
    int imgsz = 0;       // 0: the model's own imgsz
    int max_det = 300;
    int batch = 1;       // images per forward
    int vid_stride = 1;  // predict every Nth video frame
    // Keep only these class ids (empty: every class). As LibreYOLO, the filter runs after NMS over
    // max(max_det, 300) candidates and keeps the max_det best of the classes asked for.
    std::vector<int> classes;
    bool save = false;   // write annotated images / videos
    std::string project = "runs/predict";
    std::string name = "predict";           // run folder; a suffix 2, 3, ... is added when it exists
    bool exist_ok = false;                  // reuse project/name instead of adding a suffix
    GraphMode cuda_graph = GraphMode::Off;  // CUDA graph capture of the forward (cuda_graph.h)
    // Run an inference copy of the network with every BatchNorm folded into its convolution
    // (Model::fuse); the outputs differ from the eager network's by rounding only. Off by default:
    // the eager network is the reference.
    bool fuse = false;
};

class Model {
public:
    // name_or_path: a .safetensors or LibreYOLO .pt file, or a model name ("yolo9-t", or LibreYOLO's
    // file name "LibreYOLO9t.pt") whose pretrained weights are taken from ./weights/ or the cache,
    // else downloaded (pretrained.h; weights says where from and whether downloads may happen).
    // device: "auto", "cpu", "cuda", "cuda:N".
    static Model load(const std::string& name_or_path, const std::string& device = "auto");
    static Model load(const std::string& name_or_path, const std::string& device, const PretrainedOptions& weights);
    // The bare architecture with random weights and nc classes (LibreYOLO's pretrained=False).
    static Model create(const std::string& model_name, int nc = 80, const std::string& device = "auto");

    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;
    ~Model();

    ModelInfo info() const;
    // Floating-point operations (2 per multiply-add) of one forward at imgsz×imgsz, batch 1.
    double gflops(int imgsz = 640) const;

    // source: an image file, a folder, a glob pattern, a video file, or a live source
    // (live_source.h: a camera index, a stream URL, a .streams file). Unreadable images are
    // skipped with a warning; on_result (optional) sees each result as soon as it exists and may
    // return false to stop early. A live source runs until it ends, on_result stops it, or the
    // process is interrupted (stop_on_interrupt); its results go only to on_result when one is
    // given, so that an endless stream does not grow memory.
    std::vector<Result> predict(const std::string& source, const PredictOptions& options = {},
                                const std::function<bool(const Result&)>& on_result = {});
    std::vector<Result> predict(const std::vector<ImageView>& images, const PredictOptions& options = {});

    // Predicts every frame of source in order and links the detections across frames with a
    // tracker (track.h): each result's boxes are the tracked objects with Detection::track_id set.
    // source: a video file, a folder or pattern of images (one sequence), or a live source as
    // predict takes it. save=true writes the annotated video (ids and short trails) under
    // project/name. on_result may return false to stop; when given, results go only to it and the
    // returned list stays empty, so that an endless stream does not grow memory.
    std::vector<Result> track(const std::string& source, const TrackOptions& options,
                              const std::function<bool(const Result&)>& on_result = {});
    // In-memory frames of one stream, in order (options.persist continues the ids of the last call).
    std::vector<Result> track(const std::vector<ImageView>& frames, const TrackOptions& options);

    // Writes the weights and checkpoint fields as safetensors (atomically: temp file, rename).
    void save(const std::string& path) const;

    // Each of these changes what the network's kernels read, so it releases every CUDA graph.
    void to(const std::string& device);        // "cpu", "cuda", "cuda:N", "auto"
    void set_dtype(const std::string& dtype);  // "float32", or "float16" (half precision)
    // Weights for the same architecture from a .safetensors file (WeightsMismatch otherwise).
    void load_weights(const std::string& path);

    // Attention modules (DETR-family encoders and decoders) compute with the fused
    // scaled-dot-product kernels (enabled) or with the manual equation, byte-exact to LibreYOLO's
    // ports; a family's default is FamilyTraits::fused_attention_default. Traces and exports always
    // take the manual math. Returns how many attention modules the model has (0: none, nothing
    // changes); a change releases the CUDA graphs.
    int set_fused_attention(bool enabled);

    // Builds the inference copy that PredictOptions::fuse runs (done on first use otherwise):
    // the network's weights with each BatchNorm folded into the convolution before it. Returns how
    // many were folded. The model's own network, what save() writes and training use, is
    // untouched; a change of device, dtype, weights or attention builds the copy again. Throws
    // NotSupported for a quantized model.
    int fuse();

    // Simulated quantization in place (quantize.h): selects the family's convolutions outside
    // the keep list, calibrates their input ranges on the calibration images, releases the CUDA
    // graphs and returns the manifest. Throws NotSupported for a family or recipe without
    // quantization, InvalidArgument when already quantized or for a bad option, FileNotFound for
    // missing calibration images; a failed calibration leaves the model as it was. save() then
    // writes a quantized checkpoint that load() rebuilds.
    QuantInfo quantize(const QuantizeOptions& options = {});
    // Plain float convolutions again with the same weights (no-op when not quantized); releases
    // the CUDA graphs.
    void dequantize();
    std::optional<QuantInfo> quant_info() const;  // nullopt: a float model

    // Writes the model as an ONNX file (export.h): the fused network's operations from its own
    // parameters, LibreYOLO's input, output and metadata names, checked by ONNX's checker, written
    // atomically. The model itself is unchanged. Throws InvalidArgument for a bad option (naming
    // it), NotSupported for a family without an exporter or a build without ONNX.
    ExportResult export_onnx(const ExportOptions& options);

    // CUDA graphs (cuda_graph.h). capture_graph moves the capture out of the first request:
    // The input size a call with imgsz uses: imgsz, or the model's own (its checkpoint's imgsz, else
    // the family's default) when 0. Throws InvalidArgument naming the valid sizes nearby when imgsz
    // is not a positive multiple of 32. Predict, val, capture_graph and quantize all resolve it so.
    int input_size(int imgsz = 0) const;
    // imgsz 0 means the model's, dtype "" the model's (another dtype converts the model first).
    // Throws DeviceError on a CPU model, NotSupported for a family that has not opted in.
    void capture_graph(int imgsz = 0, int batch = 1, const std::string& dtype = "");
    std::vector<GraphInfo> graph_info() const;  // most recently used first
    void release_graphs();
    // At most this many graphs are kept (least recently used released first); default 8.
    void set_graph_cache_limit(int limit);
    int graph_cache_limit() const;

    struct Impl;
    // Engine-internal: wrap a network that the engine built (the trainer's EMA, for validation).
    static Model adopt(std::unique_ptr<Impl> impl);
    Impl& impl() { return *impl_; }
    const Impl& impl() const { return *impl_; }

private:
    explicit Model(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// The model used when none is named: the bundled demo model (YOLOv9-t trained on the synthetic
// shapes; $LIBREYOLO_DEMO_MODEL overrides its path) when that file exists, else "yolo9-t".
std::string default_model();

// The folder that predict(save=true) will write into for these options (created on demand).
std::string resolve_save_dir(const PredictOptions& options);

}  // namespace libreyolo
