#pragma once
// The kernel registry as users see it (spec 003): every slot, the implementation it uses, its
// candidates and why each was passed over. `libreyolo kernels` prints this; the studio's Kernels
// page shows it.
#include <string>
#include <vector>

namespace libreyolo {

struct KernelCandidate {
    std::string name;      // "portable", "cuda", ...
    std::string provider;  // "reference", "libreyolo-cuda" (in the engine), or a plugin's provider name
    bool available = true;
    // Why it is not the one in use ("" for the active one): the override in effect, its
    // predicate declined the last call, its predicate threw, it failed when run.
    std::string passed_over;
};

struct KernelSlotInfo {
    std::string slot;                         // "nms"
    std::string signature;                    // what the slot computes, in words
    std::string active;                       // the implementation the last call used (or would use), or "unavailable"
    std::vector<KernelCandidate> candidates;  // most preferred first, the reference last
};

struct KernelPolicyInfo {
    std::string override_in_effect;  // "none", "reference (LIBREYOLO_KERNELS=off)", "provider X", ...
    bool hub_kernels = true;         // false with LIBREYOLO_HUB_KERNELS=0
};

// A kernel plugin a manifest listed (the in-tree plugins' manifest, LIBREYOLO_HUB_MANIFEST).
struct KernelPluginInfo {
    std::string provider;
    std::string source;  // "<repo>@<revision>" for a hub plugin, "in-tree", or the manifest that failed
    std::string build;   // the build it was made for: "2.11.0, CUDA 13.0, sm_90"
    std::string path;    // the file loaded or refused ("" before one was found)
    // "loaded", "skipped: <build mismatch>", "not loaded: <not cached / download failed>",
    // "refused: <SHA-256 mismatch, no entry point, ABI mismatch, ...>", "disabled: <failed when run>".
    std::string state;
};

std::vector<KernelSlotInfo> kernel_report();
// Loads the plugins first if that has not happened (and the policy allows hub plugins).
std::vector<KernelPluginInfo> kernel_plugins();
KernelPolicyInfo kernel_policy();
// Reads LIBREYOLO_KERNELS, LIBREYOLO_QUANT_KERNELS (legacy, only when the first is unset) and
// LIBREYOLO_HUB_KERNELS again (read once at first use otherwise).
void reload_kernel_environment();
// The policy an application chooses itself (the studio's settings), in place of the environment's
// for the rest of the process or until the next call: kernels "" lets the registry choose, "off"
// or "reference" forces the references, any other value admits only that provider; hub_kernels
// false keeps hub plugins from loading.
void set_kernel_policy(const std::string& kernels, bool hub_kernels);

}  // namespace libreyolo
