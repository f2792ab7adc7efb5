// `libreyolo kernels`: every kernel slot, the implementation it uses, the candidates and why each
// was passed over, and the override in effect (spec 003).
#include <cstdio>

#include "args.h"
#include "cli_common.h"
#include "libreyolo/kernels.h"

namespace libreyolo::cli {
namespace {

constexpr const char* kKernelsHelp = R"(libreyolo kernels — list the kernel slots and the implementation each uses

For every slot: what it computes, the active implementation, and each candidate with its provider
and why it was passed over. Environment: LIBREYOLO_KERNELS=off|reference forces the references;
any other value restricts the choice to that provider; LIBREYOLO_QUANT_KERNELS is its legacy name
(read only when LIBREYOLO_KERNELS is unset); LIBREYOLO_HUB_KERNELS=0 disables hub plugins.

Plugins: the ones built with LibreYOLO Studio (lib/libreyolo/kernels/manifest.json) and those of
LIBREYOLO_HUB_MANIFEST=FILE, each pinned by provider, revision, SHA-256 and build tag. A missing
file is fetched from LIBREYOLO_HUB_BASE_URL (default https://huggingface.co) only with
LIBREYOLO_HUB_DOWNLOAD=1, into LIBREYOLO_HUB_CACHE (default ~/.cache/libreyolo/kernels).
)";

int run_kernels(const std::vector<std::string>& argv) {
    parse_arguments(argv, {}, {});
    const KernelPolicyInfo policy = kernel_policy();
    std::printf("override: %s\nhub kernels: %s\n", policy.override_in_effect.c_str(),
                policy.hub_kernels ? "allowed" : "off");
    const std::vector<KernelPluginInfo> plugins = kernel_plugins();
    std::printf("plugins:%s\n", plugins.empty() ? " none listed" : "");
    for (const KernelPluginInfo& p : plugins)
        std::printf("  %s (%s; %s): %s%s\n", p.provider.c_str(), p.source.c_str(), p.build.c_str(), p.state.c_str(),
                    p.path.empty() ? "" : ("\n    " + p.path).c_str());
    for (const KernelSlotInfo& slot : kernel_report()) {
        std::printf("\n%s — %s\n  active: %s\n", slot.slot.c_str(), slot.signature.c_str(), slot.active.c_str());
        for (const KernelCandidate& c : slot.candidates)
            std::printf("  %-12s %-12s %s\n", c.name.c_str(), c.provider.c_str(),
                        c.passed_over.empty() ? "in use" : ("passed over: " + c.passed_over).c_str());
    }
    return 0;
}

}  // namespace

extern const Command kKernelsCommand{"kernels", "list kernel slots, their implementations and the override in effect",
                                     kKernelsHelp, run_kernels};

}  // namespace libreyolo::cli
