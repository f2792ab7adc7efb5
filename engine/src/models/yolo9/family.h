#pragma once
// YOLOv9 (LibreYOLO's LibreYOLO9, t/s/m/c) as the registry knows it.
#include "registry/family_definition.h"

namespace libreyolo::models::yolo9 {

registry::FamilyDefinition family();

}  // namespace libreyolo::models::yolo9
