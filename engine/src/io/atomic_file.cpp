#include "io/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>

#include "libreyolo/errors.h"

namespace libreyolo::io {

void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
    namespace fs = std::filesystem;
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw Error(path.string() + ": cannot create folder " + dir.string() + ": " + ec.message());

    // A hidden name beside the target: same file system, so the rename is atomic.
    std::string temp_name = path.filename().string();
    temp_name.insert(0, 1, '.');
    temp_name.append(".tmp").append(std::to_string(std::random_device{}()));
    const fs::path temp = dir / temp_name;
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw Error(path.string() + ": cannot write: " + std::strerror(errno));
        try {
            write(out);
            out.flush();
        } catch (...) {
            out.close();
            fs::remove(temp, ec);
            throw;
        }
        if (!out) {
            fs::remove(temp, ec);
            throw Error(path.string() + ": write failed (disk full?)");
        }
    }
    fs::rename(temp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw Error(path.string() + ": cannot replace file: " + ec.message());
    }
}

}  // namespace libreyolo::io
