#include "libreyolo/pretrained.h"

#include <unistd.h>

#include "core/environment.h"
#include "core/text.h"
#include "io/http_download.h"
#include "io/torch_checkpoint.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"

namespace libreyolo {
namespace fs = std::filesystem;
namespace {

// LibreYOLO's task suffixes (task_to_suffix); detection has none.
std::string task_suffix(const std::string& task) {
    if (task == "detect") return "";
    if (task == "segment") return "-seg";
    if (task == "classify") return "-cls";
    return "-" + task;
}

std::string stem_of(const std::string& file) {
    return file.substr(0, file.size() - 3);  // without ".pt"
}

}  // namespace

std::string pretrained_file_name(const std::string& name) {
    std::string text = name;
    if (lower_case(fs::path(text).extension().string()) == ".pt") text = fs::path(text).stem().string();
    const ModelName parsed = parse_model_name(text);
    const FamilyTraits& traits = family_traits(parsed.family);
    if (traits.weights_prefix.empty())
        throw NotSupported(name + ": LibreYOLO publishes no " + traits.display_name +
                           " weights; pass a checkpoint file, or pretrained=false for the bare architecture");
    return traits.weights_prefix + parsed.size + task_suffix(parsed.task) + ".pt";
}

std::string pretrained_url(const std::string& name, const std::string& base_url) {
    const std::string file = pretrained_file_name(name), stem = stem_of(file);
    return base_url + "/LibreYOLO/" + stem + "/resolve/main/" + file;
}

bool is_pretrained_file_name(const std::string& name) {
    const fs::path path(name);
    if (path.has_parent_path() || lower_case(path.extension().string()) != ".pt") return false;
    try {
        return lower_case(pretrained_file_name(name)) == lower_case(name);
    } catch (const std::exception&) {
        return false;
    }
}

PretrainedOptions PretrainedOptions::from_environment() {
    PretrainedOptions o;
    o.cache = user_cache_dir("LIBREYOLO_WEIGHTS_CACHE", "weights");
    o.download = environment("LIBREYOLO_OFFLINE") != "1";
    o.base_url = hub_base_url(o.base_url);
    return o;
}

std::optional<fs::path> find_pretrained_weights(const std::string& name, const PretrainedOptions& o) {
    const std::string file = pretrained_file_name(name);
    std::error_code ec;
    for (const fs::path& candidate : {fs::path("weights") / file, o.cache / file})
        if (fs::is_regular_file(candidate, ec)) return candidate;
    return std::nullopt;
}

fs::path pretrained_weights(const std::string& name, const PretrainedOptions& o) {
    if (std::optional<fs::path> local = find_pretrained_weights(name, o)) return *local;
    const std::string file = pretrained_file_name(name);
    std::error_code ec;
    const std::string url = pretrained_url(name, o.base_url);
    const fs::path target = o.cache / file;
    if (!o.download)
        throw FileNotFound(name + ": " + file + " is neither in ./weights/ nor in " + o.cache.string() +
                           ", and downloads are off (LIBREYOLO_OFFLINE=1 or download=false); fetch " + url +
                           " and put it in ./weights/");
    log_info("weights", "downloading " + file + " from " + url + " into " + o.cache.string());
    // Per process: two processes fetching the same file (ranks, a studio and a CLI) never share a
    // half file; the last whole one renamed wins.
    const fs::path unchecked = target.string() + "." + std::to_string(::getpid()) + ".download";
    try {
        io::download_file(url, unchecked, o.progress);
        io::read_torch_checkpoint(unchecked);  // whole, every record's checksum read
    } catch (const std::exception& e) {
        fs::remove(unchecked, ec);
        const std::string why = e.what();
        const std::string hint = "; download it by hand and put it in ./weights/" + file;
        if (why.find("HTTP 404") != std::string::npos)
            throw Error(name + ": the hub has no " + file + " at " + url + " (HTTP 404)" + hint);
        throw Error(name + ": " + why + hint);
    }
    fs::rename(unchecked, target);
    return target;
}

}  // namespace libreyolo
