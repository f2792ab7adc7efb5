#include "models/dfine/family.h"

#include "models/dfine_network/registration.h"

namespace libreyolo::models::dfine {

registry::FamilyDefinition family() {
    registry::FamilyDefinition f =
        dfine_network::family_definition(dfine_network::Variant::DFINE, "dfine", "D-FINE", "LibreDFINE");
    f.aliases = {"libredfine"};
    return f;
}

}  // namespace libreyolo::models::dfine
