#pragma once
// The implementation a kernel slot's last call used, as `libreyolo kernels` reports it.
#include <string>

#include "libreyolo/kernels.h"

namespace libreyolo::testing {

inline std::string active_kernel(const std::string& slot) {
    for (const KernelSlotInfo& s : kernel_report())
        if (s.slot == slot) return s.active;
    return "";
}

}  // namespace libreyolo::testing
