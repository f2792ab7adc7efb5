#pragma once
// What a libreyolo::Model holds. Internal: tests and engine code reach the network through it.
#include <torch/torch.h>

#include "io/checkpoint.h"
#include "libreyolo/model.h"
#include "models/network_factory.h"

namespace libreyolo {

struct Model::Impl {
    models::Detector net;
    models::NetworkSpec spec;
    io::CheckpointMeta meta;  // names, imgsz and the other checkpoint fields
    torch::Device device{torch::kCPU};
    std::string source;  // weights file or "random init"
    bool pretrained = false;
};

}  // namespace libreyolo
