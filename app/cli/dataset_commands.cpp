// `libreyolo synth / check`.
#include "cli_common.h"

#include <cstdio>
#include <iostream>

#include "args.h"
#include "libreyolo/errors.h"

#include "libreyolo/dataset.h"
#include "libreyolo/synth.h"

namespace libreyolo::cli {
namespace {

const char* kSynthHelp = R"(libreyolo synth — render the synthetic shapes dataset

keys (defaults in brackets):
  out=DIR           dataset folder (required)
  n=N               images in all, train + val [200]
  imgsz=N           longest image side [640]
  seed=N            the same seed renders the same dataset [0]
  val=F             share of images in the val split [0.2]
  max_objects=N     shapes per image, at most [8]
  format=EXT        jpg, png, bmp or ppm [jpg]
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

int run_synth(const std::vector<std::string>& argv) {
    const Arguments args = parse_arguments(argv, {"out", "n", "imgsz", "seed", "val", "max_objects", "format"}, {});
    SynthOptions o;
    o.out = args.get("out");
    o.n = args.get_int("n", o.n);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    const int seed = args.get_int("seed", 0);
    if (seed < 0) throw InvalidArgument("seed=" + args.get("seed") + ": must not be negative");
    o.seed = static_cast<std::uint64_t>(seed);
    o.val_fraction = args.get_float("val", static_cast<float>(o.val_fraction));
    o.max_objects = args.get_int("max_objects", o.max_objects);
    o.format = args.get("format", o.format);
    const SynthSummary s = render_synthetic_dataset(o);
    std::printf("wrote %d train + %d val images with %d objects; dataset: %s\n", s.train_images, s.val_images,
                s.objects, s.data_yaml.c_str());
    return 0;
}

int run_check(const std::vector<std::string>& argv) {
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

}  // namespace

extern const Command kSynthCommand{"synth", "render the synthetic shapes dataset (YOLO format + data.yaml)", kSynthHelp,
                                   run_synth};
extern const Command kCheckCommand{"check", "report what is wrong in a dataset (corrupt images, bad label rows)",
                                   kCheckHelp, run_check};

}  // namespace libreyolo::cli
