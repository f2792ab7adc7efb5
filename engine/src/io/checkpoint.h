#pragma once
// LibreYOLO's checkpoint fields (schema 1.0) kept in safetensors metadata, and strict loading of
// a state dict into a module with every missing, unexpected or mis-shaped key named.
#include <torch/torch.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace libreyolo::io {

inline constexpr const char* kSchemaVersion = "1.0";

struct CheckpointMeta {
    std::string schema_version = kSchemaVersion;
    std::string libreyolo_version;
    std::string model_family;  // "yolo9"
    std::string size;          // "t"
    std::string task = "detect";
    int nc = 0;
    std::vector<std::string> names;  // index = class id
    int imgsz = 640;
};

std::map<std::string, std::string> to_metadata(const CheckpointMeta& meta);
// Reads the fields present; absent ones stay empty/zero. A present field that cannot be parsed
// throws FormatError naming source and field.
CheckpointMeta from_metadata(const std::map<std::string, std::string>& metadata, const std::string& source);
// "0".."nc-1" → "class_0".., the names LibreYOLO gives when a checkpoint has none.
std::vector<std::string> default_names(int nc);

// Parameters and buffers by dotted name, as torch.nn.Module.state_dict() lists them.
std::map<std::string, torch::Tensor> state_dict(const torch::nn::Module& module);

// Copies weights into module (casting dtype). Throws WeightsMismatch naming the first
// mismatching keys (with both shapes), then missing and unexpected keys, and source.
void load_state_dict(torch::nn::Module& module, const std::map<std::string, torch::Tensor>& weights,
                     const std::string& source);

}  // namespace libreyolo::io
