#pragma once
// YOLOX (LibreYOLO's LibreYOLOX, n/t/s/m/l/x) as the registry knows it.
#include "registry/family_definition.h"

namespace libreyolo::models::yolox {

registry::FamilyDefinition family();

}  // namespace libreyolo::models::yolox
