#pragma once
// Loading one kernel plugin (libreyolo/kernel_plugin.h): dlopen, the ABI check, and its
// registration under the manifest's provider name. The library stays loaded for the process.
#include <filesystem>
#include <string>

#include "kernels/slot.h"

namespace libreyolo::kernels::hub {

// "" when the plugin registered its implementations; else why it was refused, and nothing of it
// stays registered. origin: Builtin for the plugins built in-tree, Hub for the others.
std::string load_plugin(const std::filesystem::path& library, const std::string& provider, Origin origin);

}  // namespace libreyolo::kernels::hub
