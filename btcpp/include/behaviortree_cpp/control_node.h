#pragma once

#include <vector>

#include "behaviortree_cpp/tree_node.h"

namespace BT {

/// A node with children, which it ticks as it chooses: a program's own controls derive
/// from it, and the tree shows Canopy's built-in composites as ControlNodes.
class ControlNode : public TreeNode {
public:
    ControlNode(const std::string& name, const NodeConfig& config) : TreeNode(name, config) {}
    void addChild(TreeNode* child) { children_nodes_.push_back(child); }
    size_t childrenCount() const { return children_nodes_.size(); }
    const std::vector<TreeNode*>& children() const { return children_nodes_; }
    const TreeNode* child(size_t index) const { return children_nodes_.at(index); }
    /// Halts every child, then makes this node idle.
    void halt() override;
    void haltChild(size_t i);
    void haltChildren();
    void resetChildren();
    NodeType type() const override { return NodeType::CONTROL; }

protected:
    std::vector<TreeNode*> children_nodes_;
};

}  // namespace BT
