#pragma once
// A model's CUDA graphs: decides per call whether the forward runs eagerly, is captured or is
// replayed (GraphMode, the family's opt-in, the device), and keeps the captured graphs in a
// bounded LRU cache that shares one memory pool.
#include <torch/torch.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graphs/captured_plan.h"
#include "graphs/forward_plan.h"
#include "graphs/graph_key.h"
#include "graphs/lru_cache.h"
#include "libreyolo/cuda_graph.h"

namespace libreyolo::graphs {

// Who is asking: the family and task (for messages and keys) and whether that family declared
// support for the task in the registry.
struct GraphTarget {
    std::string family;
    std::string task;
    bool supported = false;
};

class GraphRunner {
public:
    static constexpr int kDefaultLimit = 8;
    explicit GraphRunner(int limit = kDefaultLimit);
    ~GraphRunner();
    // A copy of a model (the trainer's EMA) starts without graphs: they belong to the original's
    // parameters.
    GraphRunner(const GraphRunner& other);
    GraphRunner& operator=(const GraphRunner& other);

    // The plan's forward of input, eagerly or through graphs. Off: eager. On: capture a key the first time
    // it is seen. Auto: capture the second time. On a CPU input, On throws DeviceError and Auto
    // runs eagerly; for a family that has not opted in, On throws NotSupported naming it and Auto
    // runs eagerly (saying so once). output: what a replay returns (captured_plan.h).
    torch::Tensor run(const torch::Tensor& input, GraphMode mode, const GraphTarget& target, const ForwardPlan& plan,
                      ReplayOutput output = ReplayOutput::Copy);
    // Captures the key of example now (replacing a graph of that key). Same errors as On.
    void capture(const torch::Tensor& example, const GraphTarget& target, const ForwardPlan& plan);

    std::vector<GraphInfo> info() const;  // most recently used first
    // Frees every graph and forgets the Auto counts (weights, dtype or device changed).
    void release();
    // How many times release() ran: what tests read to see that a model change invalidated.
    std::int64_t releases() const { return releases_; }
    void set_limit(int limit);
    int limit() const;

private:
    void check_capturable(const torch::Tensor& input, const GraphTarget& target) const;
    CapturedPlan& capture_key(const GraphKey& key, const torch::Tensor& example, const ForwardPlan& plan);

    LruCache<GraphKey, CapturedPlan> cache_;
    std::vector<GraphKey> seen_;  // Auto: uncaptured keys seen once, oldest first
    std::optional<at::cuda::MempoolId_t> pool_;
    bool warned_unsupported_ = false;
    std::int64_t releases_ = 0;
};

}  // namespace libreyolo::graphs
