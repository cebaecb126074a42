#pragma once
// A game's node types, as a game keeps them: one function that registers them, which the game
// calls on its own registry and its node plugin (plugin.cpp) hands the canopy CLI, so that the
// tools check and run the game's trees with the very types the game runs them with.
//
//   SeeIntruder  condition  distance (number, required), sight (number setting, 8 m)
//   Chase        action     speed (number, 2 m/s), distance (number, required), reach
//                           (number, 1 m), remaining (output number)
//   Alert        action     message (string, required), raised (output boolean)
//   Patrol       action     posts (integer setting, 3): running until it has stood at each
//
// They keep what they know on the blackboard, not in a host, so that they run anywhere.

#include "canopy/run/registry.hpp"

namespace canopy::demo {

/// Registers the guards' node types, with the words palettes show for them.
void register_guard_nodes(registry& reg);

}  // namespace canopy::demo
