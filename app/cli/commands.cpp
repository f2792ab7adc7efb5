#include "commands.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "args.h"
#include "libreyolo/dataset.h"
#include "libreyolo/device.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/train.h"
#include "libreyolo/validate.h"
#include "libreyolo/version.h"

extern char** environ;

namespace libreyolo::cli {
namespace fs = std::filesystem;
namespace {

std::string with_thousands(long long n) {
    const std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out = n < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

bool wants_help(const std::vector<std::string>& argv) {
    for (const auto& a : argv)
        if (a == "--help" || a == "-h" || a == "help") return true;
    return false;
}

std::string default_sample_image() {
    if (const char* env = std::getenv("LIBREYOLO_SAMPLE_IMAGE")) return env;
    return LIBREYOLO_SAMPLE_IMAGE;
}

void warn_if_random(const Model& model) {
    const ModelInfo info = model.info();
    if (!info.pretrained)
        log_warning("model", "no weights file given: " + info.family + "-" + info.size +
                                 " has random weights, so its detections are meaningless");
}

int run_process(const std::vector<std::string>& argv) {
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), environ) != 0)
        throw Error("cannot start '" + argv[0] + "'");
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) throw Error("lost track of '" + argv[0] + "'");
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

const char* kPredictHelp = R"(libreyolo predict — detect objects

keys (defaults in brackets):
  model=NAME|FILE   yolo9-t|s|m|c (random init) or a .safetensors checkpoint [the demo model]
  source=PATH       image, folder, glob ("imgs/*.jpg") or video [the bundled sample image]
  conf=F            score threshold [0.25]
  iou=F             NMS IoU threshold [0.45]
  imgsz=N           input size, a multiple of 32 [the model's, 640]
  max_det=N         detections kept per image [300]
  batch=N           images per forward [1]
  device=D          auto, cpu, cuda, cuda:N [auto]
  vid_stride=N      predict every Nth video frame [1]
  save=BOOL         write annotated images/videos under project/name [false]
  project=DIR       [runs/predict]
  name=NAME         run folder, numbered when it exists [predict]
  exist_ok=BOOL     reuse project/name [false]
flags:
  --json            print results as JSON on stdout
)";

const char* kInfoHelp = R"(libreyolo info — describe a model

keys:
  model=NAME|FILE   yolo9-t|s|m|c or a .safetensors checkpoint [the demo model]
  imgsz=N           input size for the GFLOPs figure [the model's]
  device=D          auto, cpu, cuda, cuda:N [cpu]
  nc=N              class count for a model name (random init) [80]
flags:
  --json            print as JSON
)";

const char* kConvertHelp = R"(libreyolo convert — import a LibreYOLO checkpoint

usage: libreyolo convert IN.pt [OUT.safetensors]

Reads a LibreYOLO .pt checkpoint with the Python of the venv that holds torch (LIBREYOLO_PYTHON
overrides it), writes the weights and the checkpoint fields (model_family, size, task, nc, names,
imgsz) as safetensors, then loads the result here to prove that it fits.
)";

const char* kSynthHelp = R"(libreyolo synth — render the synthetic shapes dataset

keys (defaults in brackets):
  out=DIR           dataset folder (required)
  n=N               images in all, train + val [200]
  imgsz=N           longest image side [640]
  seed=N            the same seed renders the same dataset [0]
  val=F             share of images in the val split [0.2]
  max_objects=N     shapes per image, at most [8]
Writes DIR/images/{train,val}/*.jpg, DIR/labels/{train,val}/*.txt (cls cx cy w h, normalised) and
DIR/data.yaml with the class names: circle, square, triangle, star, hexagon, cross.
)";

const char* kCheckHelp = R"(libreyolo check — report what is wrong in a dataset

keys:
  data=FILE         the data YAML (path, train, val, test, names) (required)
  decode=BOOL       decode every image to find corrupt ones [true]
  show=N            problems listed per split [20]
Counts per split: images, usable, labelled, backgrounds (no or empty label file), boxes, polygon
rows reduced to boxes, corrupt images, malformed / out-of-range / unknown-class / duplicate rows;
then the problems as file:line: message. Training skips the same items. Exit 1 when train or val
has no usable image.
)";

const char* kValHelp = R"(libreyolo val — score a model on a dataset split

keys (defaults in brackets):
  model=NAME|FILE   a .safetensors checkpoint [the demo model]
  data=FILE         the data YAML (required)
  split=NAME        val, train or test [val]
  imgsz=N           input size [the model's]
  batch=N           images per forward [8]
  conf=F            score threshold [0.001]
  iou=F             NMS IoU threshold [0.6]
  max_det=N         boxes kept per image [300]
  device=D          auto, cpu, cuda, cuda:N [auto]
flags:
  --json            print the metrics as JSON
mAP follows the COCO rules (pycocotools' COCOeval: IoU .50:.05:.95, 101-point precision,
100 detections per image and class); a row per class, then all classes.
)";

const char* kTrainHelp = R"(libreyolo train — train a model on a dataset

keys (defaults in brackets):
  model=NAME|FILE   yolo9-t|s|m|c from scratch, or a .safetensors checkpoint to fine-tune [yolo9-t]
  data=FILE         the data YAML (required)
  epochs=N [100]  batch=N [16]  imgsz=N [640]  workers=N [4]  device=D [auto]  seed=N [0]
  optimizer=NAME    SGD (nesterov), Adam or AdamW [SGD]
  lr0=F [0.01]  lrf=F [0.01]  momentum=F [0.937]  weight_decay=F [0.0005]  warmup_epochs=N [3]
  mosaic=F [1.0]  close_mosaic=N [15]   (mosaic off for the last N epochs)
  patience=N [50]  eval_interval=N [1]  save_period=N [-1]
  project=DIR [runs/train]  name=NAME [exp]  exist_ok=BOOL [false]
  resume=BOOL       continue project/name from its weights/last.* [false]
  amp=BOOL          mixed precision on CUDA [true]
flags:
  --cuda-graph      capture the training step as a CUDA graph (not available yet: trains eager)
Ctrl-C stops after the current batch and leaves a checkpoint that resume=true continues.
Writes project/name/weights/{last,best}.safetensors and results.csv.
)";

std::atomic<bool> g_stop_training{false};
extern "C" void request_training_stop(int) {
    g_stop_training = true;
}

}  // namespace

int run_predict(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kPredictHelp;
        return 0;
    }
    const Arguments args = parse_arguments(argv,
                                           {"model", "source", "conf", "iou", "imgsz", "max_det", "batch", "device",
                                            "vid_stride", "save", "project", "name", "exist_ok"},
                                           {"json"});
    PredictOptions o;
    o.conf = args.get_float("conf", o.conf);
    o.iou = args.get_float("iou", o.iou);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.max_det = args.get_int("max_det", o.max_det);
    o.batch = args.get_int("batch", o.batch);
    o.vid_stride = args.get_int("vid_stride", o.vid_stride);
    o.save = args.get_bool("save", o.save);
    o.project = args.get("project", o.project);
    o.name = args.get("name", o.name);
    o.exist_ok = args.get_bool("exist_ok", o.exist_ok);
    const bool json = args.flags.count("json") != 0;
    const std::string source = args.get("source", default_sample_image());

    Model model = Model::load(args.get("model", default_model()), args.get("device", "auto"));
    warn_if_random(model);
    const ModelInfo info = model.info();
    const int imgsz = o.imgsz > 0 ? o.imgsz : info.imgsz;

    int index = 0;
    Speed total;
    std::string saved_dir;
    auto print = [&](const Result& r) {
        ++index;
        total.preprocess_ms += r.speed.preprocess_ms;
        total.inference_ms += r.speed.inference_ms;
        total.postprocess_ms += r.speed.postprocess_ms;
        if (!r.saved_to.empty()) saved_dir = fs::path(r.saved_to).parent_path().string();
        if (json) return true;
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
    const std::vector<Result> results = model.predict(source, o, print);
    if (json) {
        std::cout << to_json(results) << "\n";
    } else if (!results.empty()) {
        const double n = static_cast<double>(results.size());
        std::printf(
            "Speed: %.1fms preprocess, %.1fms inference, %.1fms postprocess per image at imgsz %d (batch %d, %s)\n",
            total.preprocess_ms / n, total.inference_ms / n, total.postprocess_ms / n, imgsz, o.batch,
            info.device.c_str());
    }
    if (!saved_dir.empty()) std::cerr << "Results saved to " << saved_dir << "\n";
    if (results.empty()) {
        std::cerr << "error: no image or frame of '" << source << "' could be read\n";
        return 1;
    }
    return 0;
}

int run_info(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kInfoHelp;
        return 0;
    }
    const Arguments args = parse_arguments(argv, {"model", "imgsz", "device", "nc"}, {"json"});
    const std::string name = args.get("model", default_model());
    const std::string device = args.get("device", "cpu");
    Model model = args.has("nc") ? Model::create(name, args.get_int("nc", 80), device) : Model::load(name, device);
    const ModelInfo info = model.info();
    const int imgsz = args.get_int("imgsz", info.imgsz);
    const double gflops = model.gflops(imgsz);
    const FamilyTraits& traits = family_traits(info.family);
    if (args.flags.count("json")) {
        std::printf(
            "{\"family\": \"%s\", \"size\": \"%s\", \"task\": \"%s\", \"nc\": %d, \"parameters\": %lld, "
            "\"gflops\": %.3f, \"imgsz\": %d, \"device\": \"%s\", \"source\": \"%s\"}\n",
            info.family.c_str(), info.size.c_str(), info.task.c_str(), info.nc, static_cast<long long>(info.parameters),
            gflops, imgsz, info.device.c_str(), info.source.c_str());
        return 0;
    }
    std::printf("model       %s-%s (%s)\n", info.family.c_str(), info.size.c_str(), traits.display_name.c_str());
    std::printf("task        %s\n", info.task.c_str());
    std::printf("source      %s\n", info.source.c_str());
    std::printf("classes     %d\n", info.nc);
    std::printf("parameters  %s\n", with_thousands(info.parameters).c_str());
    std::printf("GFLOPs      %.1f (imgsz %d)\n", gflops, imgsz);
    std::printf("imgsz       %d\n", info.imgsz);
    std::printf("device      %s\n", info.device.c_str());
    std::printf("cuda graph  %s\n",
                traits.supports_cuda_graph_inference(info.task) ? "supported" : "not supported yet");
    return 0;
}

int run_convert(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kConvertHelp;
        return 0;
    }
    const Arguments args = parse_arguments(argv, {}, {}, 2);
    if (args.positional.empty())
        throw InvalidArgument("convert: name the input checkpoint (libreyolo convert IN.pt [OUT.safetensors])");
    const fs::path in = args.positional[0];
    const fs::path out =
        args.positional.size() > 1 ? fs::path(args.positional[1]) : fs::path(in).replace_extension(".safetensors");
    std::error_code ec;
    if (!fs::exists(in, ec)) throw FileNotFound("convert: '" + in.string() + "': no such file");
    if (out.extension() != ".safetensors")
        throw InvalidArgument("convert: output '" + out.string() + "' must end in .safetensors");

    const char* python_env = std::getenv("LIBREYOLO_PYTHON");
    const std::string python = python_env ? python_env : LIBREYOLO_DEFAULT_PYTHON;
    const char* script_env = std::getenv("LIBREYOLO_CONVERT_SCRIPT");
    const std::string script = script_env ? script_env : LIBREYOLO_CONVERT_SCRIPT;
    const int rc = run_process({python, script, in.string(), out.string()});
    if (rc != 0) {
        std::cerr << "error: converting " << in.string() << " failed (the lines above say why)\n";
        return 1;
    }
    Model model = Model::load(out.string(), "cpu");
    const ModelInfo info = model.info();
    std::printf("converted %s -> %s: %s-%s %s, %d classes, %s parameters\n", in.string().c_str(), out.string().c_str(),
                info.family.c_str(), info.size.c_str(), info.task.c_str(), info.nc,
                with_thousands(info.parameters).c_str());
    return 0;
}

int run_version(const std::vector<std::string>& argv) {
    parse_arguments(argv, {}, {});
    std::printf("libreyolo %s\nlibtorch  %s\ncuda      %s (%s)\n", version().c_str(), torch_version().c_str(),
                cuda_version().c_str(),
                cuda_available() ? std::to_string(cuda_device_count()).append(" device(s)").c_str() : "no device");
    return 0;
}

int run_synth(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kSynthHelp;
        return 0;
    }
    const Arguments args = parse_arguments(argv, {"out", "n", "imgsz", "seed", "val", "max_objects"}, {});
    SynthOptions o;
    o.out = args.get("out");
    o.n = args.get_int("n", o.n);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    const int seed = args.get_int("seed", 0);
    if (seed < 0) throw InvalidArgument("seed=" + args.get("seed") + ": must not be negative");
    o.seed = static_cast<std::uint64_t>(seed);
    o.val_fraction = args.get_float("val", static_cast<float>(o.val_fraction));
    o.max_objects = args.get_int("max_objects", o.max_objects);
    const SynthSummary s = render_synthetic_dataset(o);
    std::printf("wrote %d train + %d val images with %d objects; dataset: %s\n", s.train_images, s.val_images,
                s.objects, s.data_yaml.c_str());
    return 0;
}

int run_check(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kCheckHelp;
        return 0;
    }
    const Arguments args = parse_arguments(argv, {"data", "decode", "show"}, {});
    if (!args.has("data")) throw InvalidArgument("data: name the dataset YAML (libreyolo check data=FILE)");
    const int show = args.get_int("show", 20);
    const DatasetReport report = check_dataset(args.get("data"), args.get_bool("decode", true));
    std::printf("dataset %s: %zu classes, root %s\n", report.config.yaml_path.c_str(), report.config.names.size(),
                report.config.root.c_str());
    std::printf("%-6s %7s %7s %8s %11s %7s %8s %7s %9s %12s %13s %10s\n", "split", "images", "usable", "labelled",
                "backgrounds", "boxes", "polygons", "corrupt", "malformed", "out-of-range", "unknown-class",
                "duplicates");
    for (const auto& s : report.splits)
        std::printf("%-6s %7d %7d %8d %11d %7d %8d %7d %9d %12d %13d %10d\n", s.split.c_str(), s.images, s.usable,
                    s.labelled, s.backgrounds, s.boxes, s.polygons, s.corrupt_images, s.malformed, s.out_of_range,
                    s.unknown_class, s.duplicates);
    for (const auto& s : report.splits) {
        if (s.problems.empty()) continue;
        std::printf("\n%s: %zu problem(s)\n", s.split.c_str(), s.problems.size());
        for (std::size_t i = 0; i < s.problems.size() && static_cast<int>(i) < show; ++i)
            std::printf("  %s\n", s.problems[i].c_str());
        if (static_cast<int>(s.problems.size()) > show)
            std::printf("  ... and %zu more (show=N lists more)\n", s.problems.size() - static_cast<std::size_t>(show));
    }
    if (!report.usable()) {
        std::cerr << "error: train or val has no usable image\n";
        return 1;
    }
    return 0;
}

int run_val(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kValHelp;
        return 0;
    }
    const Arguments args = parse_arguments(
        argv, {"model", "data", "split", "imgsz", "batch", "conf", "iou", "max_det", "device"}, {"json"});
    if (!args.has("data")) throw InvalidArgument("data: name the dataset YAML (libreyolo val data=FILE)");
    ValOptions o;
    o.split = args.get("split", o.split);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.batch = args.get_int("batch", o.batch);
    o.conf = args.get_float("conf", o.conf);
    o.iou = args.get_float("iou", o.iou);
    o.max_det = args.get_int("max_det", o.max_det);
    Model model = Model::load(args.get("model", default_model()), args.get("device", "auto"));
    warn_if_random(model);
    const bool json = args.flags.count("json") != 0;
    const ValResult r = validate(model, args.get("data"), o, [&](int done, int total) {
        if (!json) std::fprintf(stderr, "\rval %d/%d images", done, total);
    });
    if (!json) std::fprintf(stderr, "\n");
    std::fflush(stderr);
    const DetectionMetrics& m = r.metrics;
    if (json) {
        std::printf("{\"images\": %d, \"instances\": %d, \"mAP50\": %.6f, \"mAP50-95\": %.6f, \"skipped\": %d}\n",
                    r.images, m.instances, m.map50, m.map50_95, r.skipped);
        return 0;
    }
    std::printf("%-16s %8s %10s %8s %10s\n", "class", "images", "instances", "mAP50", "mAP50-95");
    std::printf("%-16s %8d %10d %8.4f %10.4f\n", "all", r.images, m.instances, m.map50, m.map50_95);
    for (std::size_t k = 0; k < r.names.size(); ++k) {
        if (m.per_class_instances[k] == 0) continue;
        std::printf("%-16s %8s %10d %8.4f %10.4f\n", r.names[k].c_str(), "", m.per_class_instances[k],
                    m.per_class_map50[k], m.per_class_map50_95[k]);
    }
    std::printf("Speed: %.1fms per image (pre + inference + post); %d image(s) skipped\n", r.ms_per_image, r.skipped);
    return 0;
}

int run_train(const std::vector<std::string>& argv) {
    if (wants_help(argv)) {
        std::cout << kTrainHelp;
        return 0;
    }
    const Arguments args = parse_arguments(
        argv, {"model",        "data",          "epochs",    "batch",        "imgsz",    "workers",
               "device",       "seed",          "optimizer", "lr0",          "lrf",      "momentum",
               "weight_decay", "warmup_epochs", "mosaic",    "close_mosaic", "patience", "eval_interval",
               "save_period",  "project",       "name",      "exist_ok",     "resume",   "amp"},
        {"cuda-graph"});
    TrainOptions o;
    o.model = args.get("model", o.model);
    o.data = args.get("data");
    o.epochs = args.get_int("epochs", o.epochs);
    o.batch = args.get_int("batch", o.batch);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.workers = args.get_int("workers", o.workers);
    o.device = args.get("device", o.device);
    o.seed = args.get_int("seed", o.seed);
    o.optimizer = args.get("optimizer", o.optimizer);
    o.lr0 = args.get_float("lr0", static_cast<float>(o.lr0));
    o.lrf = args.get_float("lrf", static_cast<float>(o.lrf));
    o.momentum = args.get_float("momentum", static_cast<float>(o.momentum));
    o.weight_decay = args.get_float("weight_decay", static_cast<float>(o.weight_decay));
    o.warmup_epochs = args.get_int("warmup_epochs", o.warmup_epochs);
    o.mosaic = args.get_float("mosaic", o.mosaic);
    o.close_mosaic = args.get_int("close_mosaic", o.close_mosaic);
    o.patience = args.get_int("patience", o.patience);
    o.eval_interval = args.get_int("eval_interval", o.eval_interval);
    o.save_period = args.get_int("save_period", o.save_period);
    o.project = args.get("project", o.project);
    o.name = args.get("name", o.name);
    o.exist_ok = args.get_bool("exist_ok", o.exist_ok);
    o.resume = args.get_bool("resume", o.resume);
    o.amp = args.get_bool("amp", o.amp);
    o.cuda_graph = args.flags.count("cuda-graph") != 0;
    if (o.data.empty() && !o.resume) throw InvalidArgument("data: name the dataset YAML (libreyolo train data=FILE)");

    g_stop_training = false;
    ::signal(SIGINT, request_training_stop);
    const TrainResult r = train(
        o,
        [](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Batch) {
                std::fprintf(
                    stderr, "\repoch %d/%d  batch %d/%d  loss %.4f (box %.4f dfl %.4f cls %.4f)  lr %.5f  %.0f ms ",
                    e.epoch, e.epochs, e.batch, e.batches, e.loss, e.box_loss, e.dfl_loss, e.cls_loss, e.lr, e.step_ms);
                return;
            }
            std::fprintf(stderr, "\n");
            std::printf("epoch %d/%d: loss %.4f (box %.4f dfl %.4f cls %.4f)", e.epoch, e.epochs, e.loss, e.box_loss,
                        e.dfl_loss, e.cls_loss);
            if (e.map50 >= 0) std::printf("  mAP50 %.4f  mAP50-95 %.4f", e.map50, e.map50_95);
            std::printf("  %.1f s\n", e.epoch_seconds);
            std::fflush(stdout);
        },
        &g_stop_training);
    ::signal(SIGINT, SIG_DFL);
    std::printf("%s after %d epoch(s); best mAP50-95 %.4f\nResults saved to %s\n", r.stopped ? "Stopped" : "Finished",
                r.epochs_run, r.best_map50_95, r.save_dir.c_str());
    return 0;
}

}  // namespace libreyolo::cli
