#include "io/remove_tree.h"

#include <ftw.h>

#include <cstdio>

namespace libreyolo::io {
namespace {

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
    return std::remove(path) == 0 ? 0 : -1;
}

}  // namespace

bool remove_tree(const std::filesystem::path& dir) noexcept {
    // Depth first (children before their folder), links not followed.
    return ::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

}  // namespace libreyolo::io
