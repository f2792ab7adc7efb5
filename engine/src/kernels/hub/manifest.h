#pragma once
// A kernel-plugin manifest (spec 003 "hub"): JSON that pins each plugin's provider name, where its
// file comes from (a hub repository at a revision, or a path next to the manifest for plugins
// built in-tree), its SHA-256 and the build it needs:
//
//   {"plugins": [{"provider": "libreyolo-cuda-nms", "repo": "libreyolo/kernels", "revision": "<commit>",
//                 "file": "libreyolo_cuda_nms.so", "sha256": "<64 hex>",
//                 "build": {"torch": "2.11.0", "cuda": "13.0", "arch": "sm_90"}}]}
//
// "path" (relative to the manifest) replaces repo/revision for a local plugin. cuda "none" and arch
// "cpu" mark a plugin that needs no GPU; arch may list several ("sm_80,sm_90").
#include <filesystem>
#include <string>
#include <vector>

namespace libreyolo::kernels::hub {

struct BuildTag {
    std::string torch, cuda, arch;
};

struct PluginEntry {
    std::string provider, repo, revision, file, sha256;
    std::filesystem::path local_path;  // set for "path" entries, absolute
    BuildTag build;
};

// Throws FileNotFound, or FormatError naming the manifest and the entry's field.
std::vector<PluginEntry> read_manifest(const std::filesystem::path& manifest);

// This process: LibTorch's version, its CUDA version ("none" without CUDA), the arch of CUDA device
// 0 ("sm_90"; "cpu" without a device).
BuildTag this_build();

// "" when a plugin built as `plugin` runs here, else why not.
std::string build_mismatch(const BuildTag& plugin, const BuildTag& here);

}  // namespace libreyolo::kernels::hub
