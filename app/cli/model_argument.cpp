#include "model_argument.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>

#include "cli_common.h"
#include "libreyolo/families.h"

namespace libreyolo::cli {
namespace {

std::string megabytes(std::int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

// "LibreYOLO9t.pt  42% |########            | 3.1 MB / 7.4 MB" redrawn in place on stderr, at
// most ten times a second and once more at the end; a log file gets nothing (the engine's
// "downloading ..." line says what happens).
std::function<bool(std::int64_t, std::int64_t)> terminal_download_bar() {
    if (!progress_on_stderr()) return {};
    struct State {
        std::chrono::steady_clock::time_point last{};
        bool finished = false;
    };
    auto state = std::make_shared<State>();
    return [state](std::int64_t received, std::int64_t total) {
        const auto now = std::chrono::steady_clock::now();
        const bool done = total > 0 && received >= total;
        if (state->finished || (!done && now - state->last < std::chrono::milliseconds(100))) return true;
        state->last = now;
        constexpr int kWidth = 30;
        if (total > 0) {
            const double fraction = static_cast<double>(received) / static_cast<double>(total);
            const int filled = static_cast<int>(fraction * kWidth);
            std::fprintf(stderr, "\rdownload %3d%% |%s%s| %s / %s", static_cast<int>(fraction * 100),
                         std::string(static_cast<std::size_t>(filled), '#').c_str(),
                         std::string(static_cast<std::size_t>(kWidth - filled), ' ').c_str(),
                         megabytes(received).c_str(), megabytes(total).c_str());
        } else {
            std::fprintf(stderr, "\rdownload %s", megabytes(received).c_str());
        }
        if (done) {
            std::fprintf(stderr, "\n");
            state->finished = true;
        }
        std::fflush(stderr);
        return true;
    };
}

}  // namespace

bool is_model_name(const std::string& model) {
    std::error_code ec;
    return (looks_like_model_name(model) || is_pretrained_file_name(model)) && !std::filesystem::exists(model, ec);
}

std::string architecture_name(const std::string& name) {
    return is_pretrained_file_name(name) ? std::filesystem::path(name).stem().string() : name;
}

const std::vector<std::string>& model_argument_keys() {
    static const std::vector<std::string> keys = {"model", "pretrained", "download"};
    return keys;
}

PretrainedOptions pretrained_options(const Arguments& args) {
    PretrainedOptions o = PretrainedOptions::from_environment();
    o.download = o.download && args.get_bool("download", true);
    o.progress = terminal_download_bar();
    return o;
}

bool wants_pretrained(const Arguments& args) {
    return args.get_bool("pretrained", true);
}

Model load_model_argument(const Arguments& args, const std::string& fallback, const std::string& device) {
    const std::string model = args.get("model", fallback);
    Model loaded = [&] {
        if (wants_pretrained(args)) return Model::load(model, device, pretrained_options(args));
        if (is_model_name(model)) return Model::create(architecture_name(model), 80, device);
        const Model checkpoint = Model::load(model, device);
        const ModelInfo info = checkpoint.info();
        return Model::create(ModelName{info.family, info.size, info.task}.canonical(), info.nc, device);
    }();
    warn_if_random(loaded);
    return loaded;
}

}  // namespace libreyolo::cli
