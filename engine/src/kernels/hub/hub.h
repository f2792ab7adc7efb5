#pragma once
// Hub kernel plugins (spec 003): the manifests to read, where their files are cached, whether
// missing files may be downloaded, and loading each plugin whose build fits this process after its
// SHA-256 has been verified. Environment:
//   LIBREYOLO_HUB_KERNELS=0      no hub manifest is read, nothing fetched or loaded from it
//   LIBREYOLO_HUB_MANIFEST=FILE  a manifest of hub plugins (kernels/hub/manifest.h)
//   LIBREYOLO_HUB_DOWNLOAD=1     the user's opt-in to fetch missing files
//   LIBREYOLO_HUB_BASE_URL=URL   where <repo>/resolve/<revision>/<file> lives (https://huggingface.co)
//   LIBREYOLO_HUB_CACHE=DIR      the cache (default $XDG_CACHE_HOME/libreyolo/kernels, ~/.cache/...)
// The plugins built in-tree come with their own manifest (lib/libreyolo/kernels/manifest.json
// beside the binary's bin/); they load whatever LIBREYOLO_HUB_KERNELS says, and not with
// LIBREYOLO_KERNELS=off, which loads no accelerated provider at all.
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/slot.h"
#include "libreyolo/kernels.h"

namespace libreyolo::kernels::hub {

struct HubSettings {
    std::vector<std::filesystem::path> manifests;  // hub manifests (LIBREYOLO_HUB_MANIFEST)
    std::filesystem::path cache;
    bool download = false;
    std::string base_url = "https://huggingface.co";
};

HubSettings hub_settings_from_environment();
// The in-tree plugins' manifest beside this binary ("" when there is none).
std::filesystem::path in_tree_manifest();

// Loads what the manifests list (each plugin at most once per process, by provider) and returns
// what happened to each entry. Never throws: a bad manifest is reported as an entry of its own.
// origin: how the policy treats what they register (Hub: off with LIBREYOLO_HUB_KERNELS=0).
std::vector<KernelPluginInfo> load_hub_plugins(const HubSettings& settings, Origin origin = Origin::Hub);

// The cache path of a hub entry: <cache>/<repo>/<revision>/<file>.
std::filesystem::path cached_file(const std::filesystem::path& cache, const std::string& repo,
                                  const std::string& revision, const std::string& file);

}  // namespace libreyolo::kernels::hub
