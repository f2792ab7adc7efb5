#pragma once
// LibreYOLO's .pt checkpoints read without Python: the torch.save zip archive (LibTorch's
// PyTorchStreamReader) and its data.pkl through the restricted unpickler, so that loading one
// executes nothing. A LibreYOLO checkpoint is a dict whose 'model' is the state dict and whose
// other keys are its schema 1.0 fields; a bare state dict (tensors by name) loads too.
#include <filesystem>

#include "io/safetensors.h"

namespace libreyolo::io {

// The state dict's tensors (CPU, contiguous, owning their memory) and the checkpoint's fields as
// the metadata strings of to_metadata ("nc" "80", "names" a JSON object, …). Throws FormatError
// naming the file: not a torch.save archive, truncated, a record larger than the file, a storage
// smaller than its tensors, a refused pickle (io/restricted_pickle.h), no state dict in it.
TensorFile read_torch_checkpoint(const std::filesystem::path& path);
// The same with meta tensors (names, dtypes, shapes; no storage read).
TensorFile read_torch_checkpoint_layout(const std::filesystem::path& path);

// Whether path starts as a zip archive does (a torch.save file), whatever its name.
bool looks_like_torch_archive(const std::filesystem::path& path);

// A weights file of either kind: torch.save for .pt and .pth names or a zip's first bytes, else
// safetensors.
TensorFile read_weights_file(const std::filesystem::path& path);
TensorFile read_weights_layout(const std::filesystem::path& path);

}  // namespace libreyolo::io
