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
    if (from_hub && !hub_enabled) return "hub plugins off (" + hub_source + ")";
    if (mode == Mode::OneProvider && provider_name != provider) return "only provider '" + provider + "' by " + source;
    return "";
}

Policy policy_from(const std::string& kernels, const std::string& source, bool hub_enabled) {
    Policy p;
    if (!kernels.empty()) {
        p.source = source;
        if (kernels == "off" || kernels == "reference") {
            p.mode = Policy::Mode::ReferenceOnly;
        } else {
            p.mode = Policy::Mode::OneProvider;
            p.provider = kernels;
        }
    }
    p.hub_enabled = hub_enabled && p.mode != Policy::Mode::ReferenceOnly;
    return p;
}

Policy policy_from_environment() {
    const char* kernels = std::getenv("LIBREYOLO_KERNELS");
    const char* legacy = std::getenv("LIBREYOLO_QUANT_KERNELS");
    const char* name = kernels ? "LIBREYOLO_KERNELS" : "LIBREYOLO_QUANT_KERNELS";
    const std::string value = kernels ? kernels : (legacy ? legacy : "");
    const char* hub = std::getenv("LIBREYOLO_HUB_KERNELS");
    return policy_from(value, std::string(name) + "=" + value, !(hub && std::string(hub) == "0"));
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

void set_kernel_policy(const std::string& kernels, bool hub_kernels) {
    kernels::Policy p = kernels::policy_from(kernels, "the application's setting '" + kernels + "'", hub_kernels);
    if (!hub_kernels) p.hub_source = "the application's setting";
    const std::lock_guard lock(kernels::policy_mutex());
    kernels::cached() = p;
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
