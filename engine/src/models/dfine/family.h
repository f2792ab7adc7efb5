#pragma once
// D-FINE (LibreYOLO's LibreDFINE n/s/m/l/x) as the registry knows it.
#include "registry/family_definition.h"

namespace libreyolo::models::dfine {

registry::FamilyDefinition family();

}  // namespace libreyolo::models::dfine
