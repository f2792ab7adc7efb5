#pragma once
// What a `source=` names: one image or video file, a folder of them, or a glob pattern.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace libreyolo::image {

enum class SourceKind { Image, Video };

struct SourceItem {
    std::filesystem::path path;
    SourceKind kind;
};

// Lower case, with the dot.
extern const std::set<std::string> kImageExtensions;
extern const std::set<std::string> kVideoExtensions;

bool is_image_file(const std::filesystem::path& path);
bool is_video_file(const std::filesystem::path& path);

// Files in a stable (sorted) order. Throws FileNotFound for a missing path or a pattern or folder
// without media, FormatError for a single file of an unsupported type.
std::vector<SourceItem> expand_source(const std::string& source);

}  // namespace libreyolo::image
