#pragma once
// What a captured graph is valid for: a graph records addresses and shapes, so any change of
// batch, size, dtype, device or task needs a graph of its own.
#include <torch/torch.h>

#include <string>

namespace libreyolo::graphs {

struct GraphKey {
    int64_t batch = 0, channels = 0, height = 0, width = 0;
    torch::Dtype dtype = torch::kFloat32;
    std::string device;  // "cuda:0"
    std::string task;

    bool operator==(const GraphKey&) const = default;
    std::string shape() const;       // "8x3x640x640"
    std::string dtype_name() const;  // "float32"
};

// "float32", "float16", "bfloat16", else torch's own name.
std::string dtype_name(torch::Dtype dtype);

// The key of an input batch (B, C, H, W) for a task.
GraphKey key_of(const torch::Tensor& input, const std::string& task);

}  // namespace libreyolo::graphs
