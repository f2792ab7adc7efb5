#include "libreyolo/version.h"

#include <torch/headeronly/version.h>

namespace libreyolo {

std::string version() {
    return LIBREYOLO_VERSION_STRING;
}

std::string torch_version() {
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
           std::to_string(TORCH_VERSION_PATCH);
}

std::string cuda_version() {
#ifdef LIBREYOLO_TORCH_CUDA_VERSION
    return LIBREYOLO_TORCH_CUDA_VERSION;
#else
    return "none";
#endif
}

}  // namespace libreyolo
