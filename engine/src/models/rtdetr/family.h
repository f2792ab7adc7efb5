#pragma once
// RT-DETR with PResNet backbones (LibreYOLO's LibreRTDETR r18/r34/r50) as the registry knows it.
#include "registry/family_definition.h"

namespace libreyolo::models::rtdetr {

registry::FamilyDefinition family();

}  // namespace libreyolo::models::rtdetr
