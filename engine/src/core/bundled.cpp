#include "libreyolo/bundled.h"

#include <filesystem>

namespace libreyolo {
namespace fs = std::filesystem;

std::string bundled_file(const std::string& relative) {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "libreyolo-studio" / relative;
        if (fs::exists(installed, ec)) return installed.string();
    }
    return (fs::path(LIBREYOLO_SOURCE_DIR) / relative).string();
}

}  // namespace libreyolo
