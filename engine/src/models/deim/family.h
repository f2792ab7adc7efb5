#pragma once
// DEIM (LibreYOLO's LibreDEIM n/s/m/l/x) as the registry knows it: D-FINE's network with SiLU in
// the decoder.
#include "registry/family_definition.h"

namespace libreyolo::models::deim {

registry::FamilyDefinition family();

}  // namespace libreyolo::models::deim
