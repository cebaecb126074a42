#pragma once

#include <functional>

#include "behaviortree_cpp/leaf_node.h"

namespace BT {

/// A leaf that checks something: success or failure, never running.
class ConditionNode : public LeafNode {
public:
    ConditionNode(const std::string& name, const NodeConfig& config) : LeafNode(name, config) {}
    void halt() final { resetStatus(); }
    NodeType type() const final { return NodeType::CONDITION; }
};

/// A condition made of a function (registerSimpleCondition).
class SimpleConditionNode : public ConditionNode {
public:
    using TickFunctor = std::function<NodeStatus(TreeNode&)>;
    SimpleConditionNode(const std::string& name, TickFunctor tick_functor, const NodeConfig& config)
        : ConditionNode(name, config), tick_functor_(std::move(tick_functor)) {}

protected:
    NodeStatus tick() override { return tick_functor_(*this); }

private:
    TickFunctor tick_functor_;
};

}  // namespace BT
