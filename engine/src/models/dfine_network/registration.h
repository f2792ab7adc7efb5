#pragma once
// What D-FINE's and DEIM's registry entries share (models/dfine/family.cpp, models/deim/family.cpp):
// sizes, recognising their weights (LibreYOLO's can_load and detect_size, the same for both: the two
// families' checkpoints have the same keys, so one without a model_family field is D-FINE, the
// first registered, as in LibreYOLO), building the network, and LibreYOLO's D-FINE preprocess and
// postprocess (Pillow's bilinear stretch to 640, no normalisation; the best 300 (query, class)
// scores, no NMS).
#include "models/dfine_network/dfine_network.h"
#include "registry/family_definition.h"

namespace libreyolo::models::dfine_network {

// family: "dfine" or "deim"; display_name and weights_prefix as LibreYOLO names them.
registry::FamilyDefinition family_definition(Variant variant, const std::string& family,
                                             const std::string& display_name, const std::string& weights_prefix);

// LibreYOLO's detect_size: the encoder's width and map count, then the first map's channels.
// "" when the weights are none of n, s, m, l, x.
std::string detect_size(const registry::WeightMap& weights);

}  // namespace libreyolo::models::dfine_network
