#include "pet_nodes.hpp"

#include "canopy/registry.hpp"

namespace canopy::demo {

// Seed 000 reused two leaf types for all six leaves; each gets its own here, so that the
// printed tree and a designer's file say what each leaf does.
void register_pet_nodes(registry& reg) {
    reg.add_leaf("CoinNearby", 100);
    reg.add_leaf("PickUpCoin", 101);
    reg.add_leaf("LongTimeNoCoin", 102);
    reg.add_leaf("LongAwayFromOwner", 103);
    reg.add_leaf("GoToOwner", 104);
    reg.add_leaf("Wander", 105);
}

}  // namespace canopy::demo
