#pragma once
// --cuda-graph in the trainer (spec "Supporto in addestramento", "Due risposte diverse"): when the
// network's forward and backward are replayed from a graph, and what happens when they cannot be.
// A configuration that cannot use graphs says so in one line and trains eager; a capture or a
// replay that fails mid-run switches the rest of the run to eager and says so once. The run never
// fails because of the flag.
#include <torch/torch.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graphs/graphed_network.h"
#include "libreyolo/train.h"

namespace libreyolo::training {

class NetworkGraph {
public:
    static constexpr int kRepeatsBeforeCapture = kTrainingGraphRepeatsBeforeCapture;
    // Told of every change of state, and of a shape that runs eager beside the graph: the status
    // and the line the engine logs about it.
    using Announce = std::function<void(const TrainingGraphStatus&, const std::string& line)>;

    // ruled_out: why this run cannot use graphs ("" when it can). Only meaningful if requested.
    NetworkGraph(bool requested, const std::string& ruled_out, Announce announce);
    ~NetworkGraph();

    // The network's outputs for images: eager until a shape has been seen kRepeatsBeforeCapture
    // times, then captured and replayed for that shape; other shapes stay eager.
    std::vector<torch::Tensor> forward(const torch::Tensor& images, torch::nn::Module& network,
                                       const graphs::TrainingForward& eager);
    // Whether the last forward() went through the graph (its backward will replay too).
    bool last_step_graphed() const { return last_step_graphed_; }
    // A failure outside forward() (the backward replay): drop the graph for the rest of the run.
    void fall_back(const std::string& what);

    std::int64_t replays() const;
    const TrainingGraphStatus& status() const { return status_; }

private:
    void change(TrainingGraphStatus::State state, const std::string& line, std::string shape = "",
                std::string reason = "");
    std::vector<torch::Tensor> replay(const torch::Tensor& images, const graphs::TrainingForward& eager);

    bool enabled_;
    Announce announce_;
    std::unique_ptr<graphs::GraphedNetwork> graph_;
    std::map<std::vector<std::int64_t>, int> seen_;
    TrainingGraphStatus status_;
    std::int64_t replays_before_fall_back_ = 0;
    bool said_other_shape_ = false;
    bool last_step_graphed_ = false;
    // Test hook, LIBREYOLO_TRAIN_GRAPH_FAULT: "capture" fails the capture, "replay:N" the N-th
    // forward replay, "backward:N" the N-th backward replay.
    std::string fault_;
};

}  // namespace libreyolo::training
