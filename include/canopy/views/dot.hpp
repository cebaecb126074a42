#pragma once

#include <string>

#include "canopy/core/fwd.hpp"

namespace canopy {

/// The tree as a Graphviz DOT graph, top to bottom (`dot -Tsvg` draws it): one graph node per
/// tree node, labelled with its type, its describe and its parameters (`name = value`, a key
/// as `{key}`), shaped by arity (composites boxes, decorators hexagons, leaves rounded boxes,
/// SubTree nodes folders), and each subtree's nodes in a dashed cluster named after its tree.
/// Graph nodes are named `n` and the preorder index. No recursion: any depth draws.
std::string to_dot(const tree& t);

}  // namespace canopy
