#pragma once

// BT::ForceSuccessNode: SUCCESS once its child finishes, however it finished; RUNNING and
// SKIPPED pass through.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class ForceSuccessNode : public DecoratorNode {
public:
    explicit ForceSuccessNode(const std::string& name) : DecoratorNode(name, {}) {
        setRegistrationID("ForceSuccess");
    }

private:
    NodeStatus tick() override {
        setStatus(NodeStatus::RUNNING);
        const NodeStatus result = child_node_->executeTick();
        if (!isStatusCompleted(result)) return result;
        resetChild();
        return NodeStatus::SUCCESS;
    }
};

}  // namespace BT
