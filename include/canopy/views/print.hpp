#pragma once

#include <iosfwd>
#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// Writes the tree's structure, one line per node in preorder, two spaces of indent per depth,
/// in the file's own words: `Type "describe" #id name=value...`, the type and the parameters
/// as the file wrote them (tree::written_type, tree::written_params: BehaviorTree.CPP's
/// `Sleep #3 msec="100"`, not Canopy's `Wait seconds=0.1`), values as JSON (an XML
/// attribute's is a string), the describe JSON-escaped (UTF-8 kept as is) and left out with
/// its quotes when empty. The output depends on nothing but the tree. `verbose` adds the
/// registered type that runs a node, in parentheses after the written one where they differ
/// (`Fallback (Selector) #1`), each node's editor metadata (record_set::metadata) after it,
/// ` _name="value"`, and the tree's on a first line of its own, `(tree "Name") _name="value"`,
/// when it has any.
void print(const tree& t, std::ostream& out, bool verbose = false);

/// The same text as a string.
std::string to_text(const tree& t, bool verbose = false);

/// The structure in Canopy's words, whatever the file's: `Type "describe" #id`, the type the
/// registered one that runs the node, then its pre- and post-conditions as
/// ` _name="script"` in condition_params order, and no other parameter. Two files that say the
/// same tree in different formats give the same text: what a round trip keeps.
std::string to_canopy_text(const tree& t);

}  // namespace canopy
