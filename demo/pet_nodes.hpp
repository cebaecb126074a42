#pragma once

#include "canopy/fwd.hpp"

namespace canopy::demo {

/// Registers the leaf types of the pet from seed 000 (data/pet.json): a pet that picks up
/// coins it sees, goes back to its owner when it has been away too long, and else wanders.
/// Type ids 100 to 105.
void register_pet_nodes(registry& reg);

}  // namespace canopy::demo
