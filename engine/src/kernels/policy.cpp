#include "kernels/policy.h"

#include <cstdlib>
#include <mutex>

#include "libreyolo/kernels.h"

namespace libreyolo::kernels {
namespace {

std::mutex& policy_mutex() {
    static std::mutex m;
    return m;
}

Policy& cached() {
    static Policy policy = policy_from_environment();
    return policy;
}

}  // namespace

std::string Policy::refuses(const std::string& provider_name, bool from_hub) const {
    if (provider_name == kReferenceProvider) return "";
    if (mode == Mode::ReferenceOnly) return "references forced by " + source;
    if (from_hub && !hub_enabled) return "hub plugins off (LIBREYOLO_HUB_KERNELS=0)";
    if (mode == Mode::OneProvider && provider_name != provider) return "only provider '" + provider + "' by " + source;
    return "";
}

Policy policy_from_environment() {
    Policy p;
    const char* kernels = std::getenv("LIBREYOLO_KERNELS");
    const char* legacy = std::getenv("LIBREYOLO_QUANT_KERNELS");
    const char* name = kernels ? "LIBREYOLO_KERNELS" : "LIBREYOLO_QUANT_KERNELS";
    const char* value = kernels ? kernels : legacy;
    if (value && *value) {
        const std::string v = value;
        p.source = std::string(name) + "=" + v;
        if (v == "off" || v == "reference") {
            p.mode = Policy::Mode::ReferenceOnly;
        } else {
            p.mode = Policy::Mode::OneProvider;
            p.provider = v;
        }
    }
    const char* hub = std::getenv("LIBREYOLO_HUB_KERNELS");
    p.hub_enabled = !(hub && std::string(hub) == "0") && p.mode != Policy::Mode::ReferenceOnly;
    return p;
}

Policy current_policy() {
    const std::lock_guard lock(policy_mutex());
    return cached();
}

}  // namespace libreyolo::kernels

namespace libreyolo {

void reload_kernel_environment() {
    const std::lock_guard lock(kernels::policy_mutex());
    kernels::cached() = kernels::policy_from_environment();
}

KernelPolicyInfo kernel_policy() {
    const kernels::Policy p = kernels::current_policy();
    KernelPolicyInfo info;
    info.hub_kernels = p.hub_enabled;
    switch (p.mode) {
        case kernels::Policy::Mode::Automatic:
            info.override_in_effect = "none";
            break;
        case kernels::Policy::Mode::ReferenceOnly:
            info.override_in_effect = "references only (" + p.source + ")";
            break;
        case kernels::Policy::Mode::OneProvider:
            info.override_in_effect = "provider '" + p.provider + "' only (" + p.source + ")";
            break;
    }
    return info;
}

}  // namespace libreyolo
