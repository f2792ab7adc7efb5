#pragma once
// What a libreyolo::Model holds. Internal: tests and engine code reach the network through it.
#include <torch/torch.h>

#include <optional>

#include "graphs/graph_runner.h"
#include "io/checkpoint.h"
#include "libreyolo/model.h"
#include "libreyolo/quantize.h"
#include "registry/network_spec.h"

namespace libreyolo {

struct Model::Impl {
    nn::Detector net;
    registry::NetworkSpec spec;
    io::CheckpointMeta meta;  // names, imgsz and the other checkpoint fields
    torch::Device device{torch::kCPU};
    torch::Dtype dtype = torch::kFloat32;  // of the weights, and so of the input
    graphs::GraphRunner graphs;
    std::string source;  // weights file or "random init"
    bool pretrained = false;
    std::optional<QuantInfo> quant;  // set while the network's convolutions are quantized

    // The network's forward for an input already on the device and in the dtype, through the
    // model's graphs as mode says.
    torch::Tensor forward(const torch::Tensor& input, GraphMode mode);
    graphs::ForwardPlan forward_plan();  // the network's stages, as the graphs capture them
    graphs::GraphTarget graph_target() const;
    int input_size(int imgsz) const;  // Model::input_size
};

}  // namespace libreyolo
