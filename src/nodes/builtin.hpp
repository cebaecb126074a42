#pragma once
// The built-in node library, registered in parts by register_builtin_nodes(). The semantics
// of every node are in docs/nodes.md, one row each.

#include "canopy/registry.hpp"

namespace canopy::detail {

void register_composites(registry& reg);
void register_decorators(registry& reg);
void register_leaves(registry& reg);

}  // namespace canopy::detail
