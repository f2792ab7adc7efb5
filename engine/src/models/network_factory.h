#pragma once
// Builds a family's network from a model name, and reads the architecture back from weights.
#include <map>
#include <string>

#include "io/checkpoint.h"
#include "libreyolo/families.h"
#include "models/detector.h"

namespace libreyolo::models {

struct NetworkSpec {
    ModelName name;
    int64_t nc = 80;
    int64_t class_hidden = 0;  // 0: the family's default width for nc
};

Detector build_network(const NetworkSpec& spec);

// Family, size, nc and class-tower width from checkpoint fields, falling back on (and checked
// against) the tensor shapes. Throws UnknownModel / FormatError naming source.
NetworkSpec infer_network_spec(const std::map<std::string, torch::Tensor>& weights, const io::CheckpointMeta& meta,
                               const std::string& source);

std::int64_t count_parameters(const torch::nn::Module& module);

}  // namespace libreyolo::models
