#pragma once

#include <iosfwd>
#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// Writes the tree's structure, one line per node in preorder, two spaces of indent per depth:
/// `Type "describe" #id`, the describe JSON-escaped (UTF-8 kept as is) and left out with its
/// quotes when empty. The output depends on nothing but the tree.
void print(const tree& t, std::ostream& out);

/// The same text as a string.
std::string to_text(const tree& t);

}  // namespace canopy
