#pragma once

#include <functional>

#include "behaviortree_cpp/tree_node.h"

namespace BT {

/// A node with one child: a program's own decorators derive from it, and the tree shows
/// Canopy's built-in decorators (and SubTree) as DecoratorNodes.
class DecoratorNode : public TreeNode {
public:
    DecoratorNode(const std::string& name, const NodeConfig& config) : TreeNode(name, config) {}
    void setChild(TreeNode* child);
    const TreeNode* child() const { return child_node_; }
    TreeNode* child() { return child_node_; }
    /// Halts the child, then makes this node idle.
    void halt() override;
    void haltChild();
    void resetChild();
    NodeType type() const override { return NodeType::DECORATOR; }
    NodeStatus executeTick() override;

protected:
    TreeNode* child_node_ = nullptr;
};

/// A decorator made of a function (registerSimpleDecorator): given the child's status.
class SimpleDecoratorNode : public DecoratorNode {
public:
    using TickFunctor = std::function<NodeStatus(NodeStatus, TreeNode&)>;
    SimpleDecoratorNode(const std::string& name, TickFunctor tick_functor, const NodeConfig& config)
        : DecoratorNode(name, config), tick_functor_(std::move(tick_functor)) {}

protected:
    NodeStatus tick() override { return tick_functor_(child()->executeTick(), *this); }

private:
    TickFunctor tick_functor_;
};

}  // namespace BT
