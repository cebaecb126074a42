#pragma once

#include "behaviortree_cpp/tree_node.h"

namespace BT {

/// A node without children: an action or a condition.
class LeafNode : public TreeNode {
public:
    LeafNode(const std::string& name, const NodeConfig& config) : TreeNode(name, config) {}
};

}  // namespace BT
