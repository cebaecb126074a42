#pragma once
// The nodes substitution rules put in place of a tree's (load_options::substitutions): each
// keeps the parameters and arity of the type it replaces, so that the file is checked as
// written, and runs another behaviour without ticking the children it may have.

#include <string_view>

#include "canopy/load/substitution.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// A type named `name` that runs `replacement`'s nodes in place of `original`'s, made from the
/// original's parameters: the replacement reads those of its own that the original has.
node_type replacing_type(std::string name, const node_type& original, const node_type& replacement);

}  // namespace canopy::detail
