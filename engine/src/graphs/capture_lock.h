#pragma once
// One CUDA graph capture at a time in the process. Captures use the thread-local capture mode, so
// other threads (the loader's pin-memory thread calling cudaHostAlloc) neither break a capture nor
// are poisoned by it; the lock keeps two of our own captures from interleaving on one device.
#include <mutex>

namespace libreyolo::graphs {

std::mutex& capture_mutex();

}  // namespace libreyolo::graphs
