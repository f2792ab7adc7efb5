#pragma once
// A forward plan captured for one input key: its capturable stages as graphs, its eager stages
// as they are. Replaying runs the stages in order; a graph whose inputs come out of an eager stage
// with another shape than at capture runs that stage eagerly instead (said once).
#include <memory>
#include <vector>

#include "graphs/captured_stage.h"
#include "graphs/forward_plan.h"

namespace libreyolo::graphs {

// What a replay returns: a copy the caller owns, or the graph's own output tensor, which the key's
// next replay overwrites (for a caller that has read it by then).
enum class ReplayOutput { Copy, Borrow };

class CapturedPlan {
public:
    // Runs the plan once on example, capturing each capturable stage on the inputs the stages
    // before it produce. Throws libreyolo::Error when a capture fails.
    CapturedPlan(const torch::Tensor& example, ForwardPlan plan, at::cuda::MempoolId_t pool);
    CapturedPlan(const CapturedPlan&) = delete;
    CapturedPlan& operator=(const CapturedPlan&) = delete;

    // The plan's output for input (same key as example).
    torch::Tensor replay(const torch::Tensor& input, ReplayOutput output = ReplayOutput::Copy);

    std::int64_t replays() const { return replays_; }
    double capture_ms() const;
    std::int64_t pool_bytes() const;
    int captured_stages() const;
    int eager_stages() const;
    int kernels() const;

private:
    ForwardPlan plan_;
    std::vector<std::unique_ptr<CapturedStage>> graphs_;  // per stage; null for an eager one
    std::int64_t replays_ = 0;
    bool warned_shape_change_ = false;
};

}  // namespace libreyolo::graphs
