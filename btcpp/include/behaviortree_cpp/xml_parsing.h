#pragma once

// BehaviorTree.CPP's XML writers: the node models of a factory's types (what Groot2 needs to
// draw a program's nodes) and a running tree as XML.

#include <string>

#include "behaviortree_cpp/bt_factory.h"

namespace BT {

/// `<root BTCPP_format="4"><TreeNodesModel>` with a model of each node type the program
/// registered: `<Action ID="...">` (or Condition, Control, Decorator) and its ports, their
/// types, defaults and descriptions. `include_builtin` adds nothing: Groot2 has the built-ins'
/// models (docs/btcpp-api.md).
[[nodiscard]] std::string writeTreeNodesModelXML(const BehaviorTreeFactory& factory,
                                                 bool include_builtin = false);

/// The tree as BehaviorTree.CPP 4 XML, each subtree put in place; with `add_metadata`, every
/// node's `_uid` (as UID() gives it) and each subtree's `_fullpath`. The node models of the
/// program's types follow; `add_builtin_models` adds nothing (as above).
[[nodiscard]] std::string WriteTreeToXML(const Tree& tree, bool add_metadata,
                                         bool add_builtin_models);

}  // namespace BT
