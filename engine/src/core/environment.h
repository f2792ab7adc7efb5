#pragma once
// What the process environment says about the user's folders and the hub, read in one place so the
// kernel hub and the pretrained weights agree.
#include <filesystem>
#include <string>

namespace libreyolo {

// The variable's value, "" when unset.
std::string environment(const char* name);

// The user's cache folder for leaf ("weights", "kernels"): $<override_variable> when set, else
// $XDG_CACHE_HOME/libreyolo/<leaf>, else ~/.cache/libreyolo/<leaf> (/tmp/... without HOME).
std::filesystem::path user_cache_dir(const char* override_variable, const char* leaf);

// $LIBREYOLO_HUB_BASE_URL without a trailing slash, or fallback when unset.
std::string hub_base_url(const std::string& fallback);

}  // namespace libreyolo
