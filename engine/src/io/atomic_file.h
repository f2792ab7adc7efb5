#pragma once
// Writes a file so that readers see either the old content or the complete new one:
// the bytes go to a temporary file beside the target, which is then renamed over it.
#include <filesystem>
#include <functional>
#include <ostream>

namespace libreyolo::io {

// Throws libreyolo::Error naming the path (and the OS reason) when writing or renaming fails.
void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

}  // namespace libreyolo::io
