// `libreyolo predict`.
#include "cli_common.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

#include <map>
#include <sstream>
#include "args.h"
#include "libreyolo/errors.h"
#include "libreyolo/live_source.h"

#include "frame_window.h"
#include "libreyolo/model.h"
#include "model_argument.h"

namespace libreyolo::cli {
namespace fs = std::filesystem;
namespace {

const char* kPredictHelp = R"(libreyolo predict — detect objects

keys (defaults in brackets):
  model=NAME|FILE   a model name (LibreYOLO's pretrained weights: ./weights/, the cache, else
                    downloaded once) or a .safetensors / LibreYOLO .pt checkpoint [the demo model]:
                    {models}
  pretrained=BOOL   false: the model's architecture with random weights [true]
  download=BOOL     false: never touch the network, as LIBREYOLO_OFFLINE=1 [true]
  source=PATH       image, folder, glob ("imgs/*.jpg"), video, camera index (source=0), stream URL
                    (rtsp://, rtmp://, http(s)://, .m3u8) or a .streams file listing several
                    [the bundled sample image]; Ctrl-C ends a video or stream cleanly
  conf=F            score threshold [0.25]
  iou=F             NMS IoU threshold [0.45]
  imgsz=N           input size, a multiple of 32 [the model's, 640]
  max_det=N         detections kept per image [300]
  batch=N           images per forward [1]
  device=D          auto, cpu, cuda, cuda:N [auto]
  vid_stride=N      predict every Nth video frame [1]
  classes=LIST      keep only these class ids, such as classes=0,2 [all]
  save=BOOL         write annotated images/videos under project/name [false]
  show=BOOL         show each annotated frame in a window as it comes (q or Esc stops) [false]
  project=DIR       [runs/predict]
  name=NAME         run folder, numbered when it exists [predict]
  exist_ok=BOOL     reuse project/name [false]
  half=BOOL         float16 weights and inputs [false]
  fuse=BOOL         run an inference copy with each BatchNorm folded into its convolution
                    (rounding-level differences from the eager network) [false]
  cuda_graph=MODE   true: capture the forward as a CUDA graph for each new input shape, then
                    replay it; auto: capture when a shape comes a second time; false [false]
                    (CUDA only; NMS and scaling stay eager; a summary line at the end)
  fused_attention=BOOL  attention on the fused scaled-dot-product kernels (true) or the manual
                    equation, byte-exact to LibreYOLO (false) [the family's default]; says how
                    many attention modules the model has
flags:
  --json            print results as JSON on stdout
)";

int run_predict(const std::vector<std::string>& argv) {
    const Arguments args = parse_arguments(
        argv, {"model",   "pretrained", "download", "source",     "conf",    "iou",        "imgsz",
               "max_det", "batch",      "device",   "vid_stride", "classes", "save",       "show",
               "project", "name",       "exist_ok", "half",       "fuse",    "cuda_graph", "fused_attention"},
        {"json"});
    PredictOptions o;
    read_predict_keys(args, o);
    o.batch = args.get_int("batch", o.batch);
    const bool json = args.flags.count("json") != 0;
    const std::string source = args.get("source", default_sample_image());

    Model model = load_model_argument(args, default_model(), args.get("device", "auto"));
    if (args.get_bool("half", false)) model.set_dtype("float16");
    if (args.has("fused_attention")) {
        const bool fused = args.get_bool("fused_attention", false);
        const int modules = model.set_fused_attention(fused);
        std::fprintf(stderr, "fused_attention=%s: %d attention module%s%s\n", fused ? "true" : "false", modules,
                     modules == 1 ? "" : "s", modules == 0 ? " (this model has none; nothing changes)" : "");
    }
    const ModelInfo info = model.info();
    const int imgsz = model.input_size(o.imgsz);

    int index = 0;
    std::string saved_dir;
    std::vector<Result> results;  // what --json prints (a live source's results come only here)
    std::vector<Speed> speeds;
    auto print = [&](const Result& r) {
        ++index;
        speeds.push_back(r.speed);
        if (!r.saved_to.empty()) saved_dir = fs::path(r.saved_to).parent_path().string();
        if (json) {
            results.push_back(r);
            return true;
        }
        std::map<int, int> counts;
        for (const auto& d : r.boxes) ++counts[d.cls];
        std::ostringstream line;
        line << (r.frame >= 0 ? "video frame " + std::to_string(r.frame) : "image " + std::to_string(index)) << " "
             << r.path << ": " << r.orig_w << "x" << r.orig_h << " ";
        if (counts.empty()) line << "(no detections) ";
        for (const auto& [cls, n] : counts) line << n << " " << r.class_name(cls) << ", ";
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.1fms", r.speed.inference_ms);
        line << ms;
        std::cout << line.str() << "\n";
        for (const auto& d : r.boxes) {
            char box[200];
            std::snprintf(box, sizeof box, "  %-14s %.3f  [%.1f, %.1f, %.1f, %.1f]\n", r.class_name(d.cls).c_str(),
                          d.conf, d.x1, d.y1, d.x2, d.y2);
            std::cout << box;
        }
        std::cout.flush();
        return true;
    };
    std::unique_ptr<FrameWindows> windows = FrameWindows::open_if(args.get_bool("show", false));
    stop_on_interrupt();  // Ctrl-C ends a video or a live source cleanly
    model.predict(source, o, print);
    windows.reset();
    if (json) {
        std::cout << to_json(results) << "\n";
    } else if (!speeds.empty()) {
        const auto median_of = [&](double Speed::*part) {
            std::vector<double> v;
            for (const Speed& s : speeds) v.push_back(s.*part);
            return median(v);
        };
        std::printf(
            "Speed: %.1fms preprocess, %.1fms inference, %.1fms postprocess per image (median of %zu) at imgsz %d "
            "(batch %d, %s)\n",
            median_of(&Speed::preprocess_ms), median_of(&Speed::inference_ms), median_of(&Speed::postprocess_ms),
            speeds.size(), imgsz, o.batch, info.device.c_str());
    }
    print_graph_summary(model, o.cuda_graph);
    if (!saved_dir.empty()) std::cerr << "Results saved to " << saved_dir << "\n";
    if (speeds.empty()) {
        std::cerr << "error: no image or frame of '" << source << "' could be read\n";
        return 1;
    }
    return 0;
}

}  // namespace

extern const Command kPredictCommand{"predict", "detect objects in images, folders, globs or videos", kPredictHelp,
                                     run_predict};

}  // namespace libreyolo::cli
