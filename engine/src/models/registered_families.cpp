// The one list of model families: each line links a family folder's registration
// (docs/architecture.md, "Adding a family"). The order is the order of help texts and of
// recognising checkpoints without a model_family field.
#include "models/deim/family.h"
#include "models/dfine/family.h"
#include "models/rtdetr/family.h"
#include "models/yolo9/family.h"
#include "models/yolox/family.h"
#include "registry/family_definition.h"

namespace libreyolo::registry {

const std::vector<FamilyDefinition>& family_definitions() {
    static const std::vector<FamilyDefinition> families = with_derived_traits({
        models::yolo9::family(),
        models::rtdetr::family(),
        models::yolox::family(),
        models::dfine::family(),
        models::deim::family(),
    });
    return families;
}

}  // namespace libreyolo::registry
