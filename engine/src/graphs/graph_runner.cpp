#include "graphs/graph_runner.h"

#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo::graphs {
namespace {

// Auto remembers this many uncaptured keys; multi-scale inputs would otherwise grow it forever.
constexpr std::size_t kSeenLimit = 64;

}  // namespace

GraphRunner::GraphRunner(int limit) : cache_(static_cast<std::size_t>(limit)) {}
GraphRunner::~GraphRunner() = default;
GraphRunner::GraphRunner(const GraphRunner& other) : cache_(other.cache_.limit()) {}
GraphRunner& GraphRunner::operator=(const GraphRunner& other) {
    if (this != &other) {
        release();
        cache_.set_limit(other.cache_.limit());
    }
    return *this;
}

// Only On gets here with a CPU input or an unsupported family: Auto runs those eagerly.
void GraphRunner::check_capturable(const torch::Tensor& input, const GraphTarget& target) const {
    if (!target.supported)
        throw NotSupported("CUDA graph mode On: family " + target.family + " (task " + target.task +
                           ") has not opted in to CUDA graph capture: its forward is not proven to replay "
                           "bit-identically. Graph mode Off or Auto runs it eagerly");
    if (!input.is_cuda())
        throw DeviceError("CUDA graph mode On: CUDA graphs need a CUDA device and the model is on " +
                          input.device().str() + ". Load it on a CUDA device, or use graph mode Off or Auto");
}

CapturedPlan& GraphRunner::capture_key(const GraphKey& key, const torch::Tensor& example, const ForwardPlan& plan) {
    if (!pool_) pool_ = at::cuda::graph_pool_handle();
    std::unique_ptr<CapturedPlan> captured;
    try {
        captured = std::make_unique<CapturedPlan>(example, plan, *pool_);
    } catch (...) {
        // The failed capture gave back its reference to the pool; with no graph left holding one,
        // the allocator has retired the pool and refuses captures into it: take a fresh one next.
        if (cache_.size() == 0) pool_.reset();
        throw;
    }
    CapturedPlan& ref = *captured;
    log_debug("cuda_graph", "captured " + key.shape() + " " + key.dtype_name() + " on " + key.device + " in " +
                                std::to_string(ref.capture_ms()) + " ms");
    for (const GraphKey& evicted : cache_.insert(key, std::move(captured)))
        log_debug("cuda_graph", "cache full: released the graph of " + evicted.shape());
    std::erase(seen_, key);
    return ref;
}

torch::Tensor GraphRunner::run(const torch::Tensor& input, GraphMode mode, const GraphTarget& target,
                               const ForwardPlan& plan, ReplayOutput output) {
    if (mode == GraphMode::Off) return run_eagerly(plan, input);
    if (mode == GraphMode::Auto && (!input.is_cuda() || !target.supported)) {
        if (input.is_cuda() && !warned_unsupported_) {
            log_warning("cuda_graph", "auto: family " + target.family + " (task " + target.task +
                                          ") has not opted in to CUDA graph capture; running eager");
            warned_unsupported_ = true;
        }
        return run_eagerly(plan, input);
    }
    check_capturable(input, target);
    const GraphKey key = key_of(input, target.task);
    if (CapturedPlan* hit = cache_.find(key)) return hit->replay(input, output);
    if (mode == GraphMode::Auto) {
        if (std::find(seen_.begin(), seen_.end(), key) == seen_.end()) {
            if (seen_.size() >= kSeenLimit) seen_.erase(seen_.begin());
            seen_.push_back(key);
            return run_eagerly(plan, input);
        }
    }
    return capture_key(key, input, plan).replay(input, output);
}

void GraphRunner::capture(const torch::Tensor& example, const GraphTarget& target, const ForwardPlan& plan) {
    check_capturable(example, target);
    capture_key(key_of(example, target.task), example, plan);
}

std::vector<GraphInfo> GraphRunner::info() const {
    std::vector<GraphInfo> rows;
    for (const auto& [key, graph] : cache_.entries())
        rows.push_back({key.shape(), key.dtype_name(), key.device, key.task, graph->replays(), graph->capture_ms(),
                        graph->pool_bytes(), graph->captured_stages(), graph->eager_stages(), graph->kernels()});
    return rows;
}

void GraphRunner::release() {
    cache_.clear();
    seen_.clear();
    ++releases_;
    // A fresh pool next time: the old one is returned to the allocator once its graphs are gone.
    pool_.reset();
}

void GraphRunner::set_limit(int limit) {
    if (limit < 1) throw InvalidArgument("graph cache limit: must be at least 1, got " + std::to_string(limit));
    cache_.set_limit(static_cast<std::size_t>(limit));
}

int GraphRunner::limit() const {
    return static_cast<int>(cache_.limit());
}

}  // namespace libreyolo::graphs
