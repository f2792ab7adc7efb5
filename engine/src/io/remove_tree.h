#pragma once
// Removes a folder and everything in it; never throws (returns whether it all went).
//
// Not std::filesystem::remove_all: libtorch.so exports its own build of it, which the dynamic linker
// may bind in place of libstdc++'s, and that one dereferences a null pointer on this toolchain.
#include <filesystem>

namespace libreyolo::io {

bool remove_tree(const std::filesystem::path& dir) noexcept;

}  // namespace libreyolo::io
