#pragma once
// Files that ship with LibreYOLO Studio (the demo model, the sample image, the weights converter),
// named by their path in the source tree ("resources/models/yolo9t-shapes.safetensors"). An
// installed binary finds them in <prefix>/share/libreyolo-studio/, next to its bin/; a binary in a
// build tree finds them in the source tree it was built from.
#include <string>

namespace libreyolo {

// The installed copy when there is one, else the source tree's path (which may not exist: callers
// check, and their messages name it).
std::string bundled_file(const std::string& relative);

}  // namespace libreyolo
