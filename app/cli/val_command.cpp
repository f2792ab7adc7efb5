// `libreyolo val`.
#include "cli_common.h"

#include <cstdio>

#include "args.h"
#include "libreyolo/errors.h"

#include "libreyolo/validate.h"
#include "model_argument.h"

namespace libreyolo::cli {
namespace {

const char* kValHelp = R"(libreyolo val — score a model on a dataset split

keys (defaults in brackets):
  model=NAME|FILE   a model name (LibreYOLO's pretrained weights: ./weights/, the cache, else
                    downloaded once) or a .safetensors / LibreYOLO .pt checkpoint [the demo model]
  pretrained=BOOL   false: the model's architecture with random weights [true]
  download=BOOL     false: never touch the network, as LIBREYOLO_OFFLINE=1 [true]
  data=FILE         the data YAML (required)
  split=NAME        val, train or test [val]
  imgsz=N           input size [the model's]
  batch=N           images per forward [8]
  conf=F            score threshold [0.001]
  iou=F             NMS IoU threshold [0.6]
  max_det=N         boxes kept per image [300]
  device=D          auto, cpu, cuda, cuda:N [auto]
  fuse=BOOL         the inference copy with BatchNorm folded (predict's fuse) [false]
flags:
  --json            print the metrics as JSON
mAP follows the COCO rules (pycocotools' COCOeval: IoU .50:.05:.95, 101-point precision,
100 detections per image and class, the small/medium/large split); a row per class, then the
other COCO numbers and best_conf, the confidence where F1 at IoU 0.50 peaks (LibreYOLO's).
)";

int run_val(const std::vector<std::string>& argv) {
    const Arguments args = parse_arguments(argv,
                                           {"model", "pretrained", "download", "data", "split", "imgsz", "batch",
                                            "conf", "iou", "max_det", "device", "fuse"},
                                           {"json"});
    if (!args.has("data")) throw InvalidArgument("data: name the dataset YAML (libreyolo val data=FILE)");
    ValOptions o;
    o.split = args.get("split", o.split);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.batch = args.get_int("batch", o.batch);
    o.conf = args.get_float("conf", o.conf);
    o.iou = args.get_float("iou", o.iou);
    o.max_det = args.get_int("max_det", o.max_det);
    o.fuse = args.get_bool("fuse", o.fuse);
    Model model = load_model_argument(args, default_model(), args.get("device", "auto"));
    const bool json = args.flags.count("json") != 0;
    const ValResult r = validate(model, args.get("data"), o, [&](int done, int total) {
        if (!json && progress_on_stderr()) std::fprintf(stderr, "\rval %d/%d images", done, total);
    });
    if (!json && progress_on_stderr()) std::fprintf(stderr, "\n");
    std::fflush(stderr);
    const DetectionMetrics& m = r.metrics;
    if (json) {
        // LibreYOLO's metric names, plus the counts.
        std::printf("{\"images\": %d, \"instances\": %d, \"skipped\": %d, \"mAP50\": %.6f, \"mAP50-95\": %.6f",
                    r.images, m.instances, r.skipped, m.map50, m.map50_95);
        for (const auto& [name, value] : metric_columns(r)) std::printf(", \"%s\": %.6g", name.c_str(), value);
        std::printf("}\n");
        return 0;
    }
    std::printf("%-16s %8s %10s %8s %10s %10s\n", "class", "images", "instances", "mAP50", "mAP50-95", "best_conf");
    std::printf("%-16s %8d %10d %8.4f %10.4f %10.3f\n", "all", r.images, m.instances, m.map50, m.map50_95, m.best_conf);
    for (std::size_t k = 0; k < r.names.size(); ++k) {
        if (m.per_class_instances[k] == 0) continue;
        std::printf("%-16s %8s %10d %8.4f %10.4f %10.3f\n", r.names[k].c_str(), "", m.per_class_instances[k],
                    m.per_class_map50[k], m.per_class_map50_95[k], m.per_class_best_conf[k]);
    }
    std::printf(
        "mAP75 %.4f; mAP small/medium/large %.4f/%.4f/%.4f; AR1/10/100 %.4f/%.4f/%.4f; "
        "AR small/medium/large %.4f/%.4f/%.4f (-1: no object of that size)\n",
        m.map75, m.map_small, m.map_medium, m.map_large, m.ar1, m.ar10, m.ar100, m.ar_small, m.ar_medium, m.ar_large);
    std::printf("best_conf %.3f (F1 %.4f at IoU 0.50, all classes)\n", m.best_conf, m.best_conf_f1);
    std::printf(
        "Speed: %.1fms pre-process, %.1fms inference, %.1fms post-process per image; %.1fs in all; %d "
        "image(s) skipped\n",
        r.preprocess_ms, r.inference_ms, r.postprocess_ms, r.total_s, r.skipped);
    return 0;
}

}  // namespace

extern const Command kValCommand{"val", "score a model on a dataset split (COCO mAP50, mAP50-95)", kValHelp, run_val};

}  // namespace libreyolo::cli
