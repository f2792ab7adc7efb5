#pragma once
// The safetensors format: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets}, "__metadata__": {str: str}}, then the raw data.
// Reading validates everything before a byte of tensor data is touched, so a truncated or
// hostile file is a FormatError naming the file and the entry, never a crash.
#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <string>

namespace libreyolo::io {

struct TensorFile {
    std::map<std::string, torch::Tensor> tensors;  // CPU, contiguous, owning their memory
    std::map<std::string, std::string> metadata;
};

TensorFile read_safetensors(const std::filesystem::path& path);
// Parses an in-memory file; name is used in error messages.
TensorFile parse_safetensors(const std::string& bytes, const std::string& name);
// The header alone (a few kB of any file): names, dtypes and shapes as meta tensors (no data) and
// the metadata, checked as read_safetensors checks them.
TensorFile read_safetensors_layout(const std::filesystem::path& path);

// Written atomically. Tensors are moved to the CPU and made contiguous first.
void write_safetensors(const std::filesystem::path& path, const std::map<std::string, torch::Tensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace libreyolo::io
