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
)";

int run_kernels(const std::vector<std::string>& argv) {
    parse_arguments(argv, {}, {});
    const KernelPolicyInfo policy = kernel_policy();
    std::printf("override: %s\nhub kernels: %s\n", policy.override_in_effect.c_str(),
                policy.hub_kernels ? "allowed" : "off");
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
