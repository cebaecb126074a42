#pragma once

#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// The tree as a Graphviz DOT graph, top to bottom (`dot -Tsvg` draws it): one graph node per
/// tree node, labelled in its file's words, as `canopy print` speaks them: its type as written
/// (tree::written_type: BehaviorTree.CPP's `Sleep`, not Canopy's `Wait`), its describe, and
/// its parameters as written (`name = value`, the value as JSON, `msec = "1000"`; a key as
/// written, `{key}` or `{@key}`; a SubTree's remappings). Shaped by arity (composites boxes,
/// decorators hexagons, leaves rounded boxes, SubTree nodes folders), and each subtree's nodes
/// in a dashed cluster named after its tree. Graph nodes are named `n` and the preorder index.
/// No recursion: any depth draws.
std::string to_dot(const tree& t);

}  // namespace canopy
