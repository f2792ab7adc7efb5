#pragma once
// The kernel registry as users see it (spec 003): every slot, the implementation it uses, its
// candidates and why each was passed over. `libreyolo kernels` prints this; the studio's Kernels
// page shows it.
#include <string>
#include <vector>

namespace libreyolo {

struct KernelCandidate {
    std::string name;      // "portable", "cuda", ...
    std::string provider;  // "reference", "libreyolo" (in-tree), or a hub plugin's provider name
    bool available = true;
    // Why it is not the one in use ("" for the active one): the override in effect, its
    // predicate declined the last call, its predicate threw, it failed when run.
    std::string passed_over;
};

struct KernelSlotInfo {
    std::string slot;       // "nms"
    std::string signature;  // what the slot computes, in words
    std::string active;     // the implementation the last call used (or would use), or "unavailable"
    std::vector<KernelCandidate> candidates;  // most preferred first, the reference last
};

struct KernelPolicyInfo {
    std::string override_in_effect;  // "none", "reference (LIBREYOLO_KERNELS=off)", "provider X", ...
    bool hub_kernels = true;         // false with LIBREYOLO_HUB_KERNELS=0
};

std::vector<KernelSlotInfo> kernel_report();
KernelPolicyInfo kernel_policy();
// Reads LIBREYOLO_KERNELS, LIBREYOLO_QUANT_KERNELS (legacy, only when the first is unset) and
// LIBREYOLO_HUB_KERNELS again (read once at first use otherwise).
void reload_kernel_environment();

}  // namespace libreyolo
