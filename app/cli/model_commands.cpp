// `libreyolo info / convert / version`.
#include "cli_common.h"

#include <cstdio>
#include <filesystem>
#include <optional>

#include "args.h"
#include "libreyolo/errors.h"

#include "libreyolo/device.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "libreyolo/pretrained.h"
#include "libreyolo/version.h"
#include "model_argument.h"

namespace libreyolo::cli {
namespace fs = std::filesystem;
namespace {

const char* kInfoHelp = R"(libreyolo info — describe a model

keys:
  model=NAME|FILE   a model name or a .safetensors / LibreYOLO .pt checkpoint [the demo model]:
                    {models}
                    A name is described from its architecture, with its pretrained weights when
                    they are already in ./weights/ or the cache: info never downloads.
  pretrained=BOOL   false: the architecture alone, even when the weights are here [true]
  imgsz=N           input size for the GFLOPs figure [the model's]
  device=D          auto, cpu, cuda, cuda:N [cpu]
  nc=N              class count for a model name (random init) [80]
flags:
  --json            print as JSON
)";

const char* kConvertHelp = R"(libreyolo convert — import a LibreYOLO checkpoint

usage: libreyolo convert IN.pt [OUT.safetensors]

Reads a LibreYOLO .pt checkpoint natively (no Python; its pickle through a restricted reader that
executes nothing and accepts only tensors, dicts, lists, strings and numbers), writes the weights
and the checkpoint fields (model_family, size, task, nc, names, imgsz) as safetensors, then loads
the result to prove that it fits. Every command also takes a .pt file as the model directly.
)";

int run_info(const std::vector<std::string>& argv) {
    const Arguments args = parse_arguments(argv, {"model", "pretrained", "imgsz", "device", "nc"}, {"json"});
    const std::string name = args.get("model", default_model());
    const std::string device = args.get("device", "cpu");
    const PretrainedOptions weights = PretrainedOptions::from_environment();
    Model model = [&] {
        if (args.has("nc")) return Model::create(architecture_name(name), args.get_int("nc", 80), device);
        if (!is_model_name(name)) return load_model_argument(args, name, device);
        if (wants_pretrained(args))
            if (const std::optional<fs::path> local = find_pretrained_weights(name, weights))
                return Model::load(local->string(), device);
        return Model::create(architecture_name(name), 80, device);
    }();
    const ModelInfo info = model.info();
    const int imgsz = args.get_int("imgsz", info.imgsz);
    const double gflops = model.gflops(imgsz);
    const FamilyTraits& traits = family_traits(info.family);
    const std::optional<QuantInfo> quant = model.quant_info();
    if (args.flags.count("json")) {
        std::printf(
            "{\"family\": \"%s\", \"size\": \"%s\", \"task\": \"%s\", \"nc\": %d, \"parameters\": %lld, "
            "\"gflops\": %.3f, \"imgsz\": %d, \"device\": \"%s\", \"source\": \"%s\", \"quant\": %s}\n",
            info.family.c_str(), info.size.c_str(), info.task.c_str(), info.nc, static_cast<long long>(info.parameters),
            gflops, imgsz, info.device.c_str(), info.source.c_str(),
            quant ? ("\"" + quant->recipe + "\"").c_str() : "null");
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
    if (quant)
        std::printf("quant       %s, simulated, %d convolutions (%s)\n", quant->recipe.c_str(), quant->module_count,
                    quant->calibrated ? ("calibrated on " + std::to_string(quant->calib_samples) + " images, " +
                                         quant->calib_algorithm)
                                            .c_str()
                                      : "not calibrated: weight-only");
    else
        std::printf("quant       none (float)\n");
    if (!traits.weights_prefix.empty()) {
        const std::string published = ModelName{info.family, info.size, info.task}.canonical();
        const std::optional<fs::path> local = find_pretrained_weights(published, weights);
        std::printf(
            "weights     %s (LibreYOLO's pretrained %s: %s)\n", pretrained_file_name(published).c_str(),
            published.c_str(),
            local ? local->string().c_str()
                  : ("not downloaded; the first use fetches " + pretrained_url(published, weights.base_url)).c_str());
    }
    std::printf("cuda graph  %s\n",
                traits.supports_cuda_graph_inference(info.task) ? "supported" : "not supported yet");
    return 0;
}

int run_convert(const std::vector<std::string>& argv) {
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

    Model::load(in.string(), "cpu").save(out.string());
    const ModelInfo info = Model::load(out.string(), "cpu").info();
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

}  // namespace

extern const Command kInfoCommand{"info", "describe a model (family, size, classes, parameters, GFLOPs)", kInfoHelp,
                                  run_info};
extern const Command kConvertCommand{"convert", "turn a LibreYOLO .pt checkpoint into .safetensors", kConvertHelp,
                                     run_convert};
extern const Command kVersionCommand{"version", "print versions of libreyolo, LibTorch and CUDA",
                                     "libreyolo version — print versions of libreyolo, LibTorch and CUDA\n",
                                     run_version};

}  // namespace libreyolo::cli
