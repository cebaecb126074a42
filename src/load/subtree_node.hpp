#pragma once
// `SubTree` records are part of the file formats, not of any registry: the loader puts the tree
// a record names in its place, under a node of this type, and supplies the type to the builder
// (build_options::overlay).

#include <string_view>

#include "canopy/run/registry.hpp"

namespace canopy::detail {

inline constexpr std::string_view subtree_type_name = "SubTree";

/// The type of a `SubTree` record with its tree in place: a decorator whose one child is the
/// root of the tree it names, and whose result is that child's. Its parameters say which tree:
/// `tree` and `file` (the remappings are resolved into the keys of the nodes below it).
node_type subtree_type();

/// The type of a `SubTree` record while each tree is checked alone: a leaf without
/// parameters, given records whose `SubTree` records keep none (the expander checks them).
node_type subtree_placeholder_type();

}  // namespace canopy::detail
