#pragma once
// `SubTree` records are part of the file formats, not of any registry: the loader replaces the
// tree a record names into its place, under a node of this type.

#include <string_view>

#include "canopy/run/registry.hpp"

namespace canopy::detail {

inline constexpr std::string_view subtree_type_name = "SubTree";

/// The type of an expanded `SubTree` record: a decorator whose one child is the root of the
/// tree it names, and whose result is that child's. Its parameters say which tree: `tree`
/// and `file` (the remappings are resolved into the keys of the nodes below it).
const node_type& subtree_type();

/// The type `SubTree` records have while each tree of a file is checked alone: a leaf whose
/// parameters the loader checks when it expands the record.
const node_type& subtree_placeholder_type();

}  // namespace canopy::detail
