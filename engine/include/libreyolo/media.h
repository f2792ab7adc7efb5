#pragma once
// Which files predict reads, for front ends that list files themselves (the studio's drops and
// Open dialogs): the same rules as `source=`.
#include <string>
#include <vector>

namespace libreyolo {

// By extension, case-insensitive: ".jpg", ".png", ... / ".mp4", ".avi", ...
bool is_image_file(const std::string& path);
bool is_video_file(const std::string& path);
// The extensions, lower case with the dot, sorted.
std::vector<std::string> image_extensions();
std::vector<std::string> video_extensions();

// The images and videos a source names (a file, a folder, a glob pattern), sorted, as predict
// reads them. Throws FileNotFound for a missing path or a folder or pattern without media,
// FormatError for a single file of another type.
std::vector<std::string> media_files(const std::string& source);

}  // namespace libreyolo
