#pragma once

// BT::ForceFailureNode: FAILURE once its child finishes, however it finished; RUNNING and
// SKIPPED pass through.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class ForceFailureNode : public DecoratorNode {
public:
    explicit ForceFailureNode(const std::string& name) : DecoratorNode(name, {}) {
        setRegistrationID("ForceFailure");
    }

private:
    NodeStatus tick() override {
        setStatus(NodeStatus::RUNNING);
        const NodeStatus result = child_node_->executeTick();
        if (!isStatusCompleted(result)) return result;
        resetChild();
        return NodeStatus::FAILURE;
    }
};

}  // namespace BT
