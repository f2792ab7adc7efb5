#pragma once
// A network's forward as the graphs see it: an ordered list of stages, each marked capturable or
// eager. Most families are one capturable stage (the whole forward). A family with a stage that
// a graph cannot record (data-dependent control flow, a host sync, an op that replays wrong)
// declares a split at a verified seam (spec "Divisione sulle giunzioni"): the capturable stages
// are replayed, the rest runs eagerly, and the stages run in order compute exactly the eager
// forward.
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace libreyolo::graphs {

using TensorList = std::vector<torch::Tensor>;
using StageFunction = std::function<TensorList(const TensorList&)>;

struct ForwardStage {
    std::string name;
    bool capturable = true;
    // Reads the previous stage's outputs (the network input for the first stage); the last
    // stage returns one tensor, the network's output.
    StageFunction run;
};

using ForwardPlan = std::vector<ForwardStage>;

// The whole of forward as one capturable stage.
ForwardPlan single_stage_plan(std::function<torch::Tensor(const torch::Tensor&)> forward);

// Every stage in order, eagerly: what the plan computes without graphs.
torch::Tensor run_eagerly(const ForwardPlan& plan, const torch::Tensor& input);

}  // namespace libreyolo::graphs
