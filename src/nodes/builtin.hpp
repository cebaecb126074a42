#pragma once
// The built-in node library, registered in parts by register_builtin_nodes(). The semantics
// of every node are in docs/nodes.md, one row each.

#include "canopy/registry.hpp"

namespace canopy::detail {

/// Agent time is a sum of time steps, so 0.1 ten times is not quite 1.0: comparisons of
/// elapsed time allow this much, so that a Wait of 1 s at dt 0.1 ends on the tenth tick.
inline constexpr double time_tolerance = 1e-9;

void register_composites(registry& reg);
void register_decorators(registry& reg);
void register_leaves(registry& reg);

}  // namespace canopy::detail
