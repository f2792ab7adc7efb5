#include "models/deim/family.h"

#include "models/dfine_network/registration.h"

namespace libreyolo::models::deim {

registry::FamilyDefinition family() {
    registry::FamilyDefinition f =
        dfine_network::family_definition(dfine_network::Variant::DEIM, "deim", "DEIM", "LibreDEIM");
    f.aliases = {"libredeim"};
    return f;
}

}  // namespace libreyolo::models::deim
