#pragma once
// HTTP(S) download of a file with libcurl (hub plugins, pretrained weights): to a temporary file
// beside the target, renamed into place only when the whole body arrived, so a failed, cut or
// cancelled transfer leaves nothing behind.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace libreyolo::io {

// False when the engine was built without libcurl.
bool download_available();

// Told the bytes received and the total (0 while unknown) as the transfer goes; returning false
// cancels it.
using DownloadProgress = std::function<bool(std::int64_t received, std::int64_t total)>;

// Throws libreyolo::Error naming the URL: HTTP status ≥ 400 (Error's text says "HTTP <status>"),
// a transfer error (a body shorter than its Content-Length included), a cancel, or no libcurl.
void download_file(const std::string& url, const std::filesystem::path& target, const DownloadProgress& progress = {});

}  // namespace libreyolo::io
