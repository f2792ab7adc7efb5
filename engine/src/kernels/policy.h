#pragma once
// What the environment allows the registry to pick (spec 003): LIBREYOLO_KERNELS=off|reference
// forces the references (and accelerated providers are not loaded); any other value restricts
// selection to that provider; LIBREYOLO_QUANT_KERNELS is its legacy name, read only when
// LIBREYOLO_KERNELS is unset; LIBREYOLO_HUB_KERNELS=0 disables hub plugins.
#include <string>

namespace libreyolo::kernels {

struct Policy {
    enum class Mode { Automatic, ReferenceOnly, OneProvider } mode = Mode::Automatic;
    std::string provider;  // OneProvider
    std::string source;    // the variable and value that set the mode, for messages
    bool hub_enabled = true;
    std::string hub_source = "LIBREYOLO_HUB_KERNELS=0";  // what turned hub plugins off, for messages

    // "" when the policy admits provider's implementations, else why not.
    std::string refuses(const std::string& provider_name, bool from_hub = false) const;
};

// kernels: "" automatic, "off" or "reference", or a provider's name; source names who set it.
Policy policy_from(const std::string& kernels, const std::string& source, bool hub_enabled);
Policy policy_from_environment();
// The process's policy: read once, again after reload_kernel_environment().
Policy current_policy();

constexpr const char* kReferenceProvider = "reference";
// The CUDA kernels compiled into the engine.
constexpr const char* kInTreeCudaProvider = "libreyolo-cuda";

}  // namespace libreyolo::kernels
