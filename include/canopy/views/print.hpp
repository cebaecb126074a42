#pragma once

#include <iosfwd>
#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// Writes the tree's structure, one line per node in preorder, two spaces of indent per depth:
/// `Type "describe" #id`, the describe JSON-escaped (UTF-8 kept as is) and left out with its
/// quotes when empty. The output depends on nothing but the tree. `verbose` adds each node's
/// editor metadata (record_set::metadata) after it, ` _name="value"`, and the tree's on a
/// first line of its own, `(tree "Name") _name="value"`, when it has any.
void print(const tree& t, std::ostream& out, bool verbose = false);

/// The same text as a string.
std::string to_text(const tree& t, bool verbose = false);

}  // namespace canopy
