#pragma once
// Random valid tree documents over a registry's node types, for the seed corpora: mutating a
// valid tree reaches the builder's deeper checks and the runtime, where mutating syntax
// errors would not.

#include <random>

#include "canopy/core/fwd.hpp"
#include "canopy/records/document.hpp"

namespace canopy::fuzz {

/// One to three trees named "T0", "T1", ...; the first is the main tree. Each has a random
/// shape (at most `max_nodes` nodes) over `reg`'s types with valid parameters, some bound to
/// blackboard keys the tree declares, and SubTree records that name later trees (never
/// earlier ones, so there is no cycle).
tree_document random_document(const registry& reg, std::mt19937_64& random, int max_nodes);

}  // namespace canopy::fuzz
