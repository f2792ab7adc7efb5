#include "core/environment.h"

#include <cstdlib>

namespace libreyolo {

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::filesystem::path user_cache_dir(const char* override_variable, const char* leaf) {
    if (const std::string cache = environment(override_variable); !cache.empty()) return cache;
    if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty())
        return std::filesystem::path(xdg) / "libreyolo" / leaf;
    const std::string home = environment("HOME");
    return std::filesystem::path(home.empty() ? "/tmp" : home) / ".cache" / "libreyolo" / leaf;
}

std::string hub_base_url(const std::string& fallback) {
    const std::string base = environment("LIBREYOLO_HUB_BASE_URL");
    if (base.empty()) return fallback;
    return base.back() == '/' ? base.substr(0, base.size() - 1) : base;
}

}  // namespace libreyolo
