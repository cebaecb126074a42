// The guards' node plugin: the game's node types for the canopy CLI
// (`canopy validate --plugin libcanopy_guards.so guard.json`). The whole plugin is this line
// and the registration function the game calls itself.
#include "canopy/run/plugin.hpp"

#include "guard_nodes.hpp"

CANOPY_PLUGIN("guards", canopy::demo::register_guard_nodes)
