#include "graphs/capture_lock.h"

namespace libreyolo::graphs {

std::mutex& capture_mutex() {
    static std::mutex m;
    return m;
}

}  // namespace libreyolo::graphs
