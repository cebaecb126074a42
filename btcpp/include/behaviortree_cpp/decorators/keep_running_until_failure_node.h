#pragma once

// BT::KeepRunningUntilFailureNode: RUNNING while its child succeeds or runs (a child that
// succeeded starts over at the next tick); its child's FAILURE is its FAILURE.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class KeepRunningUntilFailureNode : public DecoratorNode {
public:
    explicit KeepRunningUntilFailureNode(const std::string& name) : DecoratorNode(name, {}) {
        setRegistrationID("KeepRunningUntilFailure");
    }

private:
    NodeStatus tick() override {
        setStatus(NodeStatus::RUNNING);
        const NodeStatus result = child_node_->executeTick();
        if (!isStatusCompleted(result)) return NodeStatus::RUNNING;  // a SKIPPED child too
        resetChild();
        return result == NodeStatus::FAILURE ? NodeStatus::FAILURE : NodeStatus::RUNNING;
    }
};

}  // namespace BT
