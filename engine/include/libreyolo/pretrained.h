#pragma once
// LibreYOLO's published weights by name: a model name ("yolo9-t", "LibreYOLOXs") or LibreYOLO's
// file name ("LibreYOLO9t.pt") is found in ./weights/, then in the user's cache, and otherwise
// downloaded from the hub (<base>/LibreYOLO/<stem>/resolve/main/<stem>.pt, as LibreYOLO's
// get_download_url) into the cache. Environment:
//   LIBREYOLO_OFFLINE=1           never touch the network
//   LIBREYOLO_HUB_BASE_URL=URL    the hub (https://huggingface.co), shared with the kernel hub
//   LIBREYOLO_WEIGHTS_CACHE=DIR   the cache (default $XDG_CACHE_HOME/libreyolo/weights, ~/.cache/...)
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace libreyolo {

// The file LibreYOLO publishes name's weights as: "yolo9-t" → "LibreYOLO9t.pt". Throws
// UnknownModel for a name that is no model, NotSupported for a family LibreYOLO publishes none for.
std::string pretrained_file_name(const std::string& name);
// Where that file is downloaded from.
std::string pretrained_url(const std::string& name, const std::string& base_url);

struct PretrainedOptions {
    std::string base_url = "https://huggingface.co";
    std::filesystem::path cache;
    bool download = true;
    // Bytes received and the total (0 while unknown) during a download; false cancels it.
    std::function<bool(std::int64_t received, std::int64_t total)> progress;
    static PretrainedOptions from_environment();
};

// True when name is a file LibreYOLO publishes (LibreYOLO9t.pt, any case), not a path to another file.
bool is_pretrained_file_name(const std::string& name);

// The local file of name's pretrained weights, ./weights/<file> then <cache>/<file>; nullopt when
// neither exists. Never touches the network.
std::optional<std::filesystem::path> find_pretrained_weights(
    const std::string& name, const PretrainedOptions& options = PretrainedOptions::from_environment());

// The local file of name's pretrained weights: ./weights/<file>, then <cache>/<file>, else the
// download, checked to be a whole LibreYOLO checkpoint before it is renamed into the cache. Throws
// FileNotFound when downloads are off (saying where to put the file), Error when the download fails
// (the URL and why; nothing is left behind).
std::filesystem::path pretrained_weights(const std::string& name,
                                         const PretrainedOptions& options = PretrainedOptions::from_environment());

}  // namespace libreyolo
