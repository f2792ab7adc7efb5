#include "kernels/hub/hub.h"

#include <atomic>
#include <map>
#include <mutex>

#include "core/environment.h"
#include "core/sha256.h"
#include "io/http_download.h"
#include "kernels/hub/manifest.h"
#include "kernels/hub/plugin_loader.h"
#include "kernels/policy.h"
#include "kernels/slot.h"
#include "libreyolo/log.h"

namespace libreyolo::kernels::hub {
namespace fs = std::filesystem;
namespace {

// What happened to each provider this process met, by provider; guarded by hub_mutex().
std::map<std::string, KernelPluginInfo>& plugins() {
    static std::map<std::string, KernelPluginInfo> known;
    return known;
}

std::recursive_mutex& hub_mutex() {
    static std::recursive_mutex m;
    return m;
}

// Finds (or fetches) the entry's file; "" and the path, or why there is none.
std::string locate(const PluginEntry& p, const HubSettings& s, fs::path& path) {
    if (!p.local_path.empty()) {
        path = p.local_path;
        return fs::exists(path) ? "" : "not found: " + path.string();
    }
    path = cached_file(s.cache, p.repo, p.revision, p.file);
    if (fs::exists(path)) return "";
    const std::string url = s.base_url + "/" + p.repo + "/resolve/" + p.revision + "/" + p.file;
    if (!s.download)
        return "not cached at " + path.string() + " (LIBREYOLO_HUB_DOWNLOAD=1 fetches it from " + url + ")";
    try {
        io::download_file(url, path);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

KernelPluginInfo load_entry(const PluginEntry& p, const HubSettings& s, const BuildTag& here, Origin origin) {
    KernelPluginInfo info;
    info.provider = p.provider;
    info.source = p.local_path.empty()        ? p.repo + "@" + p.revision
                  : origin == Origin::Builtin ? "in-tree"
                                              : p.local_path.string();
    info.build = p.build.torch + ", CUDA " + p.build.cuda + ", " + p.build.arch;
    if (const std::string mismatch = build_mismatch(p.build, here); !mismatch.empty()) {
        info.state = "skipped: " + mismatch;
        log_debug("kernels", "hub plugin " + p.provider + " " + info.state);
        return info;
    }
    fs::path path;
    if (const std::string missing = locate(p, s, path); !missing.empty()) {
        info.state = "not loaded: " + missing;
        // Not downloading without the user's opt-in is the expected case, not a failure.
        if (missing.starts_with("not cached"))
            log_info("kernels", "hub plugin " + p.provider + " " + info.state);
        else
            log_warning("kernels", "hub plugin " + p.provider + " " + info.state + "; using the other implementations");
        return info;
    }
    info.path = path.string();
    std::string refused;
    try {
        if (const std::string actual = sha256_hex_of_file(path); actual != p.sha256)
            refused = "refused: SHA-256 of " + path.string() + " is " + actual + ", the manifest pins " + p.sha256;
    } catch (const std::exception& e) {
        refused = std::string("refused: ") + e.what();
    }
    if (refused.empty())
        if (const std::string failed = load_plugin(path, p.provider, origin); !failed.empty())
            refused = "refused: " + path.string() + " " + failed;
    info.state = refused.empty() ? "loaded" : refused;
    if (!refused.empty())
        log_warning("kernels", "hub plugin " + p.provider + " " + refused + "; using the other implementations");
    return info;
}

}  // namespace

fs::path in_tree_manifest() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const fs::path manifest = exe.parent_path().parent_path() / "lib" / "libreyolo" / "kernels" / "manifest.json";
    return fs::exists(manifest, ec) ? manifest : fs::path();
}

fs::path cached_file(const fs::path& cache, const std::string& repo, const std::string& revision,
                     const std::string& file) {
    return cache / repo / revision / file;
}

HubSettings hub_settings_from_environment() {
    HubSettings s;
    if (const std::string manifest = environment("LIBREYOLO_HUB_MANIFEST"); !manifest.empty())
        s.manifests.emplace_back(manifest);
    s.cache = user_cache_dir("LIBREYOLO_HUB_CACHE", "kernels");
    s.download = environment("LIBREYOLO_HUB_DOWNLOAD") == "1";
    s.base_url = hub_base_url(s.base_url);
    return s;
}

std::vector<KernelPluginInfo> load_hub_plugins(const HubSettings& settings, Origin origin) {
    const std::lock_guard lock(hub_mutex());
    std::vector<KernelPluginInfo> out;
    const BuildTag here = this_build();
    for (const fs::path& manifest : settings.manifests) {
        std::vector<PluginEntry> entries;
        try {
            entries = read_manifest(manifest);
        } catch (const std::exception& e) {
            KernelPluginInfo bad;
            bad.source = manifest.string();
            bad.state = std::string("refused: ") + e.what();
            log_warning("kernels", bad.state);
            out.push_back(bad);
            continue;
        }
        for (const PluginEntry& p : entries) {
            auto known = plugins().find(p.provider);
            if (known != plugins().end() && known->second.state == "loaded") {
                out.push_back(known->second);  // a provider loads once per process
                continue;
            }
            plugins()[p.provider] = load_entry(p, settings, here, origin);
            out.push_back(plugins()[p.provider]);
        }
    }
    return out;
}

}  // namespace libreyolo::kernels::hub

namespace libreyolo::kernels {
namespace fs = std::filesystem;

void ensure_hub_plugins_loaded() {
    // Every slot call comes here: once both kinds of plugins are in, no lock is taken again.
    static std::atomic<bool> settled{false};
    if (settled.load(std::memory_order_acquire)) return;
    static bool in_tree_loaded = false, hub_loaded = false;
    const std::lock_guard lock(hub::hub_mutex());
    // Loading registers implementations, which can construct slots: not again from inside.
    static bool loading = false;
    const Policy policy = current_policy();
    if (loading || policy.mode == Policy::Mode::ReferenceOnly) return;
    loading = true;
    if (!in_tree_loaded) {
        hub::HubSettings local;
        if (const fs::path manifest = hub::in_tree_manifest(); !manifest.empty()) local.manifests.push_back(manifest);
        hub::load_hub_plugins(local, Origin::Builtin);
        in_tree_loaded = true;
    }
    if (!hub_loaded && policy.hub_enabled) {
        hub::load_hub_plugins(hub::hub_settings_from_environment(), Origin::Hub);
        hub_loaded = true;
    }
    loading = false;
    settled.store(in_tree_loaded && hub_loaded, std::memory_order_release);
}

void provider_failed(const std::string& provider, const std::string& reason) {
    for (SlotBase* slot : all_slots()) slot->disable_provider(provider, "its provider failed: " + reason);
    const std::lock_guard lock(hub::hub_mutex());
    if (auto known = hub::plugins().find(provider); known != hub::plugins().end())
        known->second.state = "disabled: " + reason;
}

}  // namespace libreyolo::kernels

namespace libreyolo {

std::vector<KernelPluginInfo> kernel_plugins() {
    kernels::ensure_hub_plugins_loaded();
    const std::lock_guard lock(kernels::hub::hub_mutex());
    std::vector<KernelPluginInfo> out;
    for (const auto& [provider, info] : kernels::hub::plugins()) out.push_back(info);
    return out;
}

}  // namespace libreyolo
