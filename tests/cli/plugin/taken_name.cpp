// A plugin whose type takes a built-in's name: registering it fails, and the CLI says so.
#include "canopy/run/plugin.hpp"

namespace {
void register_taken(canopy::registry& reg) {
    reg.add_leaf("Sequence");
}
}  // namespace

CANOPY_PLUGIN("taken", register_taken)
