#pragma once
// Builds a family's network from a spec, and reads the spec back from weights.
#include <string>

#include "registry/family_definition.h"

namespace libreyolo::registry {

// The family's network with its fused-attention default. Throws UnknownModel for an unknown family
// or a task the family lacks.
nn::Detector build_network(const NetworkSpec& spec);

// Family, size, nc and builder parameters from checkpoint fields, falling back on (and checked
// against) the tensor shapes. Throws UnknownModel / FormatError naming source.
NetworkSpec infer_network_spec(const WeightMap& weights, const io::CheckpointMeta& meta, const std::string& source);

}  // namespace libreyolo::registry
