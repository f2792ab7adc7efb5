#include "graphs/captured_plan.h"

#include <algorithm>

#include "libreyolo/log.h"

namespace libreyolo::graphs {

CapturedPlan::CapturedPlan(const torch::Tensor& example, ForwardPlan plan, at::cuda::MempoolId_t pool)
    : plan_(std::move(plan)) {
    c10::InferenceMode inference;
    TensorList values{example};
    for (std::size_t i = 0; i < plan_.size(); ++i) {
        const ForwardStage& stage = plan_[i];
        graphs_.push_back(stage.capturable ? std::make_unique<CapturedStage>(values, stage.run, pool) : nullptr);
        // The next stage is captured on what this one computes eagerly: a captured graph's
        // outputs hold nothing until it is replayed.
        if (i + 1 < plan_.size()) values = stage.run(values);
    }
}

torch::Tensor CapturedPlan::replay(const torch::Tensor& input, ReplayOutput output) {
    c10::InferenceMode inference;
    TensorList values{input};
    for (std::size_t i = 0; i < plan_.size(); ++i) {
        CapturedStage* graph = graphs_[i].get();
        if (graph && graph->accepts(values)) {
            values = graph->replay(values);
            continue;
        }
        if (graph && !warned_shape_change_) {
            log_warning("cuda_graph", "stage '" + plan_[i].name +
                                          "' received inputs of another shape than at capture; running it eagerly");
            warned_shape_change_ = true;
        }
        values = plan_[i].run(values);
    }
    ++replays_;
    // The static outputs belong to the graph and the next replay overwrites them.
    return output == ReplayOutput::Borrow ? values.at(0) : values.at(0).clone();
}

double CapturedPlan::capture_ms() const {
    double total = 0;
    for (const auto& g : graphs_)
        if (g) total += g->capture_ms();
    return total;
}

std::int64_t CapturedPlan::pool_bytes() const {
    std::int64_t total = 0;
    for (const auto& g : graphs_)
        if (g) total += g->pool_bytes();
    return total;
}

int CapturedPlan::kernels() const {
    int total = 0;
    for (const auto& g : graphs_)
        if (g) total += g->kernels();
    return total;
}

int CapturedPlan::captured_stages() const {
    return static_cast<int>(std::count_if(graphs_.begin(), graphs_.end(), [](const auto& g) { return g != nullptr; }));
}

int CapturedPlan::eager_stages() const {
    return static_cast<int>(graphs_.size()) - captured_stages();
}

}  // namespace libreyolo::graphs
