#pragma once
// What an agent keeps of its blackboard when it moves to another version of its tree.

#include "canopy/run/blackboard.hpp"

namespace canopy::detail {

/// Copies into `to` the values of the keys both blackboards have (same name and type), with
/// their update stamps and unset states; a key that still holds its old tree's initial value
/// takes the new tree's, when that changed, so that a designer's new default reaches running
/// agents. Defined in snapshot.cpp.
void carry_shared_keys(const blackboard& from, blackboard to);

}  // namespace canopy::detail
