#pragma once
// HTTP(S) download of a hub file with libcurl: to a temporary file beside the target, renamed into
// place only when the whole body arrived, so a failed or cut transfer leaves nothing behind.
#include <filesystem>
#include <string>

namespace libreyolo::kernels::hub {

// False when the engine was built without libcurl.
bool download_available();

// Throws libreyolo::Error naming the URL: HTTP status ≥ 400, a transfer error (a body shorter than
// its Content-Length included), or no libcurl.
void download_file(const std::string& url, const std::filesystem::path& target);

}  // namespace libreyolo::kernels::hub
