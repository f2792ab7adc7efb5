// `libreyolo quantize`: LibreYOLO's quantize command for the simulation tier.
#include "cli_common.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

#include "args.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "model_argument.h"

namespace libreyolo::cli {
namespace fs = std::filesystem;
namespace {

const char* kQuantizeHelp = R"(libreyolo quantize — quantize a model (simulation) and save a quantized checkpoint

keys (defaults in brackets):
  model=NAME|FILE   a model name (LibreYOLO's pretrained weights: ./weights/, the cache, else
                    downloaded once) or a .safetensors / LibreYOLO .pt checkpoint [the demo model]
  pretrained=BOOL   false: the model's architecture with random weights [true]
  download=BOOL     false: never touch the network, as LIBREYOLO_OFFLINE=1 [true]
  recipe=NAME       fp8: E4M3 weights per output channel and inputs per tensor [fp8]
  calib=SOURCE      calibration images, forward only: a data YAML (its train split) or an image,
                    folder or glob (required; none: no calibration, weight-only simulation)
  samples=N         at most this many calibration images [128]
  batch=N           calibration images per forward [8]
  imgsz=N           calibration input size [the model's]
  algorithm=NAME    input range estimation: auto (= minmax), minmax, percentile [auto]
  keep=A,B          module-name patterns kept in float [the family's: head.,backbone.conv0.];
                    none: keep only dfl
  out=FILE          the quantized checkpoint [<model>-<recipe>.safetensors beside the model]
  device=D          auto, cpu, cuda, cuda:N [auto]
flags:
  --json            print the result as JSON
The checkpoint carries LibreYOLO's quant manifest: predict, val and info load it quantized.
)";

std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!part.empty()) parts.push_back(part);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return parts;
}

std::string default_output(const std::string& model, const std::string& recipe) {
    const fs::path source(model);
    if (source.extension() == ".safetensors")
        return (source.parent_path() / (source.stem().string() + "-" + recipe + ".safetensors")).string();
    return model + "-" + recipe + ".safetensors";
}

int run_quantize(const std::vector<std::string>& argv) {
    const Arguments args = parse_arguments(argv,
                                           {"model", "pretrained", "download", "recipe", "calib", "samples", "batch",
                                            "imgsz", "algorithm", "keep", "out", "device"},
                                           {"json"});
    if (!args.has("calib"))
        throw InvalidArgument("calib: name the calibration images (a data YAML, folder or glob), or calib=none");
    QuantizeOptions o;
    o.recipe = args.get("recipe", o.recipe);
    o.calib = args.get("calib");
    o.samples = args.get_int("samples", o.samples);
    o.batch = args.get_int("batch", o.batch);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.algorithm = args.get("algorithm", o.algorithm);
    if (args.has("keep")) {
        const std::string keep = args.get("keep");
        o.keep_high_precision = keep == "none" ? std::vector<std::string>{} : split_commas(keep);
    }
    const std::string model_path = args.get("model", default_model());
    Model model = load_model_argument(args, model_path, args.get("device", "auto"));
    const QuantInfo info = model.quantize(o);
    const std::string out = args.get("out", default_output(model_path, info.recipe));
    model.save(out);

    if (args.flags.count("json")) {
        const nlohmann::json result = {{"path", out},
                                       {"recipe", info.recipe},
                                       {"execution", info.execution},
                                       {"calibrated", info.calibrated},
                                       {"calib_samples", info.calib_samples},
                                       {"module_counts", info.module_counts}};
        std::printf("%s\n", result.dump().c_str());
        return 0;
    }
    std::string keep;
    for (const auto& k : info.keep_high_precision) keep += (keep.empty() ? "" : ", ") + k;
    std::printf("quantized %s to %s: %d convolutions simulated in E4M3 (kept in float: %s; dfl always)\n",
                model_path.c_str(), info.recipe.c_str(), info.module_count, keep.empty() ? "nothing" : keep.c_str());
    if (info.calibrated)
        std::printf("calibrated on %d images from %s (%s)\n", info.calib_samples, info.calib_data.c_str(),
                    info.calib_algorithm.c_str());
    else
        std::printf("not calibrated: inputs stay in float (weight-only simulation)\n");
    std::printf("saved %s\n", out.c_str());
    return 0;
}

}  // namespace

extern const Command kQuantizeCommand{"quantize", "quantize a model (fp8 simulation) into a quantized checkpoint",
                                      kQuantizeHelp, run_quantize};

}  // namespace libreyolo::cli
