#pragma once

#include "canopy/core/fwd.hpp"

namespace canopy {

/// Registers Canopy's built-in node types (Sequence, Selector, Not, AlwaysSuccess,
/// AlwaysFailure, ...) and their aliases. Built-in types use numeric ids 1 to 99; that range
/// is reserved for them, so give your own types ids from 100 up. See docs/nodes.md. A program
/// that loads behavior3 files registers behavior3's node family as well
/// (canopy/dialects/behavior3_nodes.hpp).
void register_builtin_nodes(registry& reg);

}  // namespace canopy
