#pragma once
// behavior3's built-in nodes about values and expressions (docs/behavior3.md, "Nodes"): Check,
// Calculate, Let, Assert, the array and object nodes and ForEach, named `behavior3.<Name>` as
// the behavior3 reader names them.

#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// Registers behavior3.Check, behavior3.Calculate, behavior3.Let, behavior3.Assert,
/// behavior3.Now, behavior3.Math, behavior3.IsNull and behavior3.NotNull.
void register_behavior3_value_nodes(registry& reg);

/// Registers behavior3.Math (math_node.cpp); register_behavior3_value_nodes calls it.
void register_behavior3_math_node(registry& reg);

/// Registers the `json` blackboard type (canopy::dynamic_value) and the nodes over arrays and
/// objects: behavior3.Push, Index, GetField, SetField, Includes, Concat and RandomIndex
/// (array_nodes.cpp).
void register_behavior3_array_nodes(registry& reg);
/// Registers behavior3.ForEach (loop_nodes.cpp).
void register_behavior3_loop_nodes(registry& reg);

}  // namespace canopy::detail
