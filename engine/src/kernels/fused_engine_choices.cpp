#include "kernels/fused_engine_choices.h"

#include <fstream>
#include <map>
#include <mutex>

#include "core/environment.h"
#include "io/atomic_file.h"
#include "libreyolo/log.h"

namespace libreyolo::kernels {
namespace {

// A cache of a few hundred lines; anything far larger is not ours.
constexpr std::uintmax_t kMaxFileBytes = 4u << 20;

struct Choices {
    std::mutex mutex;
    std::map<std::string, std::string> by_key;
    bool loaded = false;
    bool warned = false;
};

Choices& choices() {
    static Choices c;
    return c;
}

void load(Choices& c) {
    if (c.loaded) return;
    c.loaded = true;
    const std::filesystem::path file = fused_engine_choices_file();
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec || size > kMaxFileBytes) return;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t tab = line.rfind('\t');
        if (tab == std::string::npos || tab == 0 || tab + 1 == line.size()) continue;
        c.by_key[line.substr(0, tab)] = line.substr(tab + 1);
    }
}

}  // namespace

std::filesystem::path fused_engine_choices_file() {
    return user_cache_dir("LIBREYOLO_CUDNN_CACHE", "cudnn") / "fused-engines.tsv";
}

std::optional<std::string> remembered_fused_engine(const std::string& key) {
    Choices& c = choices();
    const std::lock_guard lock(c.mutex);
    load(c);
    if (const auto found = c.by_key.find(key); found != c.by_key.end()) return found->second;
    return std::nullopt;
}

void remember_fused_engine(const std::string& key, const std::string& engine) {
    if (key.find_first_of("\t\n") != std::string::npos || engine.find_first_of("\t\n") != std::string::npos) return;
    Choices& c = choices();
    const std::lock_guard lock(c.mutex);
    load(c);
    c.by_key[key] = engine;
    const std::filesystem::path file = fused_engine_choices_file();
    try {
        std::filesystem::create_directories(file.parent_path());
        io::write_file_atomically(file, [&](std::ostream& out) {
            for (const auto& [k, v] : c.by_key) out << k << '\t' << v << '\n';
        });
    } catch (const std::exception& e) {
        if (!c.warned)
            log_warning("kernels", "cannot remember cuDNN's fused engine choices in " + file.string() + ": " +
                                       e.what() + "; the next process times them again");
        c.warned = true;
    }
}

}  // namespace libreyolo::kernels
