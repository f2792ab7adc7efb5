#include "train/network_graph.h"

#include <cstdlib>

#include "core/shape_text.h"
#include "graphs/capture_graph.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo::training {
namespace {

std::string fault_from_environment() {
    const char* value = std::getenv("LIBREYOLO_TRAIN_GRAPH_FAULT");
    return value ? value : "";
}

}  // namespace

NetworkGraph::NetworkGraph(bool requested, const std::string& ruled_out, Announce announce)
    : enabled_(requested && ruled_out.empty()), announce_(std::move(announce)), fault_(fault_from_environment()) {
    if (requested && !ruled_out.empty())
        change(TrainingGraphStatus::State::RuledOut, "cuda_graph: " + ruled_out + "; training eager", "", ruled_out);
    else if (requested)
        status_.state = TrainingGraphStatus::State::Waiting;
}

void NetworkGraph::change(TrainingGraphStatus::State state, const std::string& line, std::string shape,
                          std::string reason) {
    status_.state = state;
    status_.shape = std::move(shape);
    status_.reason = std::move(reason);
    announce_(status_, line);
}

NetworkGraph::~NetworkGraph() = default;

std::vector<torch::Tensor> NetworkGraph::forward(const torch::Tensor& images, torch::nn::Module& network,
                                                 const graphs::TrainingForward& eager) {
    last_step_graphed_ = false;
    if (!enabled_) return eager(images);
    if (graph_) {
        if (graph_->accepts(images)) return replay(images, eager);
        if (!said_other_shape_) {
            announce_(status_, "cuda_graph: a batch of " + shape_text(images.sizes()) +
                                   " runs eager; the graph holds " + graph_->shape() + " (said once)");
            said_other_shape_ = true;
        }
        return eager(images);
    }
    if (++seen_[images.sizes().vec()] < kRepeatsBeforeCapture) return eager(images);
    try {
        if (fault_ == "capture") throw Error("cuda_graph: capture failed: injected by LIBREYOLO_TRAIN_GRAPH_FAULT");
        graph_ = std::make_unique<graphs::GraphedNetwork>(network, eager, images);
    } catch (const std::exception& e) {
        fall_back(e.what());
        return eager(images);
    }
    if (fault_.rfind("backward:", 0) == 0) {
        const std::int64_t failing = std::stoll(fault_.substr(9));
        graph_->set_before_backward_replay([failing](std::int64_t n) {
            if (n == failing)
                throw Error("cuda_graph: backward replay failed: injected by LIBREYOLO_TRAIN_GRAPH_FAULT");
        });
    }
    change(TrainingGraphStatus::State::Replaying,
           "cuda_graph: captured the network's forward and backward for " + graph_->shape() + " in " +
               std::to_string(static_cast<int>(graph_->capture_ms())) + " ms",
           graph_->shape());
    return replay(images, eager);
}

std::vector<torch::Tensor> NetworkGraph::replay(const torch::Tensor& images, const graphs::TrainingForward& eager) {
    try {
        if (fault_.rfind("replay:", 0) == 0 && graph_->replays() + 1 == std::stoll(fault_.substr(7)))
            throw Error("cuda_graph: replay failed: injected by LIBREYOLO_TRAIN_GRAPH_FAULT");
        std::vector<torch::Tensor> outputs = (*graph_)(images);
        last_step_graphed_ = true;
        return outputs;
    } catch (const std::exception& e) {
        fall_back(e.what());
        return eager(images);
    }
}

void NetworkGraph::fall_back(const std::string& what) {
    replays_before_fall_back_ = replays();
    graph_.reset();
    enabled_ = false;
    last_step_graphed_ = false;
    change(TrainingGraphStatus::State::FellBack, what + "; the rest of the run trains eager", "", what);
}

std::int64_t NetworkGraph::replays() const {
    return graph_ ? graph_->replays() : replays_before_fall_back_;
}

}  // namespace libreyolo::training
