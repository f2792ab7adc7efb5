#pragma once
// Which of cuDNN's fused engines won the timing for a shape, remembered across processes: timing a
// shape's candidates compiles each of them (seconds per network), so it happens once per machine,
// GPU, cuDNN version and shape; later processes build only the remembered engine. One line per
// shape, `<key>\t<engine name>`, in <cache>/cudnn/fused-engines.tsv (LIBREYOLO_CUDNN_CACHE names
// another folder). A line that does not parse is ignored; a file that cannot be written costs
// the next process the timing again, nothing else.
#include <filesystem>
#include <optional>
#include <string>

namespace libreyolo::kernels {

std::filesystem::path fused_engine_choices_file();

// The engine remembered for key, if any.
std::optional<std::string> remembered_fused_engine(const std::string& key);

// Remembers engine for key and rewrites the file atomically.
void remember_fused_engine(const std::string& key, const std::string& engine);

}  // namespace libreyolo::kernels
