#pragma once
// CUDA graph capture of the network's forward pass for prediction (spec "Supporto in
// inferenza"): a graph records the forward's kernels once for an input key (batch × C × H × W,
// dtype, device, task) and replays them with one launch. Only the forward is captured; letterbox,
// NMS and scaling back always run eagerly.
#include <cstdint>
#include <string>

namespace libreyolo {

enum class GraphMode {
    Off,   // eager (the default)
    On,    // capture the first time an input key is seen
    Auto,  // capture when a key is seen the second time: one-off shapes never pay for a capture
};

// "false"/"off", "true"/"on", "auto" (the CLI's cuda_graph= values). Throws InvalidArgument.
GraphMode parse_graph_mode(const std::string& text);
const char* to_string(GraphMode mode);

// One captured graph, as graph_info() reports it.
struct GraphInfo {
    std::string key;     // "8x3x640x640"
    std::string dtype;   // "float32", "float16"
    std::string device;  // "cuda:0"
    std::string task;    // "detect"
    std::int64_t replays = 0;
    double capture_ms = 0;  // warm-up + capture + instantiation
    // Device memory the caching allocator reserved during warm-up and capture: the graph's
    // private pool (shared by the model's graphs) and the warm-up's buffers.
    std::int64_t pool_bytes = 0;
    // A family split at a seam is captured as several graphs with eager stages between them;
    // a whole forward is one graph and no eager stage.
    int graphs = 1;
    int eager_stages = 0;
    // Kernels one replay launches, summed over the graphs (the eager stages not counted).
    int kernels = 0;
    // Captured from the fused inference copy (fuse=true) rather than the network as loaded.
    bool fused = false;
};

}  // namespace libreyolo
