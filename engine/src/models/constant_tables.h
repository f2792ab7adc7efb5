#pragma once
// Constant tables the models build from a feature map's size rather than learn.
#include <torch/torch.h>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace libreyolo::models {

// The dtype of the constant tables (position embedding, anchors) for a model computing in `compute`:
// LibreYOLO builds them in float32 whatever the model's precision, and so do we, except that a
// float64 model builds them in float64, so its results do not hang on the CPU's float32 sin, cos and
// log kernels (which differ in the last bit between AVX-512, AVX2 and plain builds).
torch::Dtype constant_table_dtype(torch::Dtype compute);

// (1, w·h, embed_dim): sin and cos of the column, then of the row, at embed_dim / 4 frequencies.
// Built on `like`'s device, in constant_table_dtype(like's dtype).
torch::Tensor sincos_position_embedding(int64_t w, int64_t h, int64_t embed_dim, double temperature,
                                        const torch::Tensor& like);

// Tables built from sizes alone, kept by the module that uses them so that its graphed forward
// launches none of their kernels: built on the first use of a key (sizes, dtype, device) and
// returned as they are afterwards, the values of a fresh build bit for bit. Built inside a CUDA-graph
// capture, whose kernels have not run yet, a table is used but not kept. At most 16 keys are kept
// (many input sizes keep the memory bounded). YOLOv9's head keeps its DFL anchors so; the DETR
// families' eager networks build their tables on each call, as LibreYOLO does, and only their fused
// copies keep them.
class ConstantTableCache {
public:
    using Build = std::function<std::vector<torch::Tensor>()>;
    // The key of tables built for `like`'s dtype and device at these sizes.
    static std::string key(const torch::Tensor& like, const std::vector<int64_t>& sizes);
    std::vector<torch::Tensor> get(const std::string& key, const Build& build);

private:
    std::mutex mutex_;
    std::map<std::string, std::vector<torch::Tensor>> tables_;
};

}  // namespace libreyolo::models
