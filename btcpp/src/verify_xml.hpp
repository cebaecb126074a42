#pragma once

// What BehaviorTree.CPP refuses in a document as the factory registers it, before any tree is
// made of it: Canopy's reader reports the rest when a tree is made.

#include <tinyxml2.h>

#include <functional>
#include <optional>
#include <string_view>

#include "behaviortree_cpp/basic_types.h"

namespace BT::detail {

/// The kind of the node type registered under a name, if one is.
using KindOf = std::function<std::optional<NodeType>(std::string_view name)>;

/// Throws RuntimeError, with the line, where BehaviorTree.CPP 4.10 refuses `document` at
/// registration: a root that is not <root>; more than one <TreeNodesModel>; a model or a node
/// tag without its ID; a SubTree model's port without a name or with one it does not allow; a tree
/// or type name it does not allow (findForbiddenChar, "Root"); a <BehaviorTree> without one child
/// or named as a node type; a <SubTree> with children; a node type not registered; a node with a
/// number of children its kind does not take.
void verify_document(const tinyxml2::XMLDocument& document, const KindOf& kind_of);

}  // namespace BT::detail
