// `libreyolo`: the command line. Usage errors exit 2, failures 1.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"

namespace {

void print_usage(std::ostream& out) {
    out << "libreyolo — YOLO-family detectors in C++ (LibreYOLO conventions)\n\n"
           "usage: libreyolo <command> [key=value ...] [--flag ...]\n\ncommands:\n";
    for (const auto& c : libreyolo::cli::commands()) {
        std::string name = c.name;
        name.resize(10, ' ');
        out << "  " << name << c.summary << "\n";
    }
    out << "  help      this text\n\n"
           "`libreyolo <command> --help` describes each command's keys.\nexamples:\n"
           "  libreyolo predict source=resources/samples/shapes.png save=true\n"
           "  libreyolo predict model=yolo9-t source=photo.jpg   (LibreYOLO's weights, downloaded once)\n"
           "  libreyolo synth out=datasets/shapes n=500 imgsz=640 seed=0\n"
           "  libreyolo train data=datasets/shapes/data.yaml epochs=50\n"
           "  libreyolo val model=runs/train/exp/weights/best.safetensors data=datasets/shapes/data.yaml\n"
           "  libreyolo info model=yolo9-t\n"
           "  libreyolo convert LibreYOLO9t.pt LibreYOLO9t.safetensors\n"
           "  libreyolo quantize model=best.safetensors calib=datasets/shapes/data.yaml\n"
           "  libreyolo export model=best.safetensors format=onnx\n";
}

bool wants_help(const std::vector<std::string>& argv) {
    for (const auto& a : argv)
        if (a == "--help" || a == "-h" || a == "help") return true;
    return false;
}

// A command's help with the registry's model names in place of {models} and {trainable models}.
std::string with_model_names(std::string help) {
    for (const auto& [token, trainable_only] :
         {std::pair{std::string("{models}"), false}, std::pair{std::string("{trainable models}"), true}})
        for (auto at = help.find(token); at != std::string::npos; at = help.find(token))
            help.replace(at, token.size(), libreyolo::model_names_summary(trainable_only));
    return help;
}

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
        print_usage(std::cerr);
        return 2;
    }
    const std::string command = argv[1] == std::string("--version") ? "version" : argv[1];
    const std::vector<std::string> rest(argv + 2, argv + argc);
    if (command == "help" || command == "--help" || command == "-h") {
        print_usage(std::cout);
        return 0;
    }
    std::vector<std::string> names{"help"};
    for (const auto& c : libreyolo::cli::commands()) {
        names.push_back(c.name);
        if (command != c.name) continue;
        if (wants_help(rest)) {
            std::cout << with_model_names(c.make_help ? c.make_help() : std::string(c.help));
            return 0;
        }
        try {
            return c.run(rest);
        } catch (const libreyolo::InvalidArgument& e) {
            std::cerr << "error: " << e.what() << "\n(see `libreyolo " << command << " --help`)\n";
            return 2;
        } catch (const std::exception& e) {
            std::cerr << "error: " << e.what() << "\n";
            return 1;
        }
    }
    const std::string close = libreyolo::closest_match(command, names);
    std::cerr << "error: unknown command '" << command << "'";
    if (!close.empty()) std::cerr << " (did you mean '" << close << "'?)";
    std::cerr << "\n\n";
    print_usage(std::cerr);
    return 2;
}
