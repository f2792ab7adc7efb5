// `libreyolo`: the command line. Usage errors exit 2, failures 1.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"

namespace {

const char* kUsage = R"(libreyolo — YOLO-family detectors in C++ (LibreYOLO conventions)

usage: libreyolo <command> [key=value ...] [--flag ...]

commands:
  predict   detect objects in images, folders, globs or videos
  train     train a model on a dataset (LibreYOLO's YOLOv9 recipe)
  val       score a model on a dataset split (COCO mAP50, mAP50-95)
  info      describe a model (family, size, classes, parameters, GFLOPs)
  convert   turn a LibreYOLO .pt checkpoint into .safetensors
  synth     render the synthetic shapes dataset (YOLO format + data.yaml)
  check     report what is wrong in a dataset (corrupt images, bad label rows)
  version   print versions of libreyolo, LibTorch and CUDA
  help      this text

`libreyolo <command> --help` describes each command's keys.
examples:
  libreyolo predict model=yolo9-t source=resources/samples/shapes.png save=true
  libreyolo info model=yolo9-t
  libreyolo convert LibreYOLO9t.pt LibreYOLO9t.safetensors
  libreyolo synth out=datasets/shapes n=500 imgsz=640 seed=0
)";

void install_log_sink() {
    libreyolo::set_log_callback([](libreyolo::LogLevel level, const std::string& source, const std::string& message) {
        if (level >= libreyolo::LogLevel::Warning)
            std::fprintf(stderr, "%s: %s: %s\n", libreyolo::to_string(level), source.c_str(), message.c_str());
        else
            std::fprintf(stderr, "%s\n", message.c_str());
    });
}

}  // namespace

int main(int argc, char** argv) {
    install_log_sink();
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string command = argv[1];
    const std::vector<std::string> rest(argv + 2, argv + argc);
    if (command == "help" || command == "--help" || command == "-h") {
        std::cout << kUsage;
        return 0;
    }
    try {
        if (command == "predict") return libreyolo::cli::run_predict(rest);
        if (command == "info") return libreyolo::cli::run_info(rest);
        if (command == "convert") return libreyolo::cli::run_convert(rest);
        if (command == "version" || command == "--version") return libreyolo::cli::run_version(rest);
        if (command == "synth") return libreyolo::cli::run_synth(rest);
        if (command == "check") return libreyolo::cli::run_check(rest);
        if (command == "val") return libreyolo::cli::run_val(rest);
        if (command == "train") return libreyolo::cli::run_train(rest);
    } catch (const libreyolo::InvalidArgument& e) {
        std::cerr << "error: " << e.what() << "\n(see `libreyolo " << command << " --help`)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
    const std::string close = libreyolo::closest_match(
        command, {"predict", "info", "convert", "version", "synth", "check", "help", "train", "val"});
    std::cerr << "error: unknown command '" << command << "'";
    if (!close.empty()) std::cerr << " (did you mean '" << close << "'?)";
    std::cerr << "\n\n" << kUsage;
    return 2;
}
