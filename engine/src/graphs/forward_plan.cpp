#include "graphs/forward_plan.h"

#include "libreyolo/errors.h"

namespace libreyolo::graphs {

ForwardPlan single_stage_plan(std::function<torch::Tensor(const torch::Tensor&)> forward) {
    return {{"forward", true,
             [forward = std::move(forward)](const TensorList& in) -> TensorList { return {forward(in.at(0))}; }}};
}

torch::Tensor run_eagerly(const ForwardPlan& plan, const torch::Tensor& input) {
    TensorList values{input};
    for (const ForwardStage& stage : plan) values = stage.run(values);
    if (values.size() != 1)
        throw Error("forward plan: the last stage returned " + std::to_string(values.size()) +
                    " tensors instead of the network's one output");
    return values.front();
}

}  // namespace libreyolo::graphs
