#pragma once

// BT::RunOnceNode: ticks its child until it finishes once; after that it is SKIPPED (or, with
// `then_skip` false, returns the status the child finished with) without ticking it.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class RunOnceNode : public DecoratorNode {
public:
    RunOnceNode(const std::string& name, const NodeConfig& config) : DecoratorNode(name, config) {
        setRegistrationID("RunOnce");
    }

    static PortsList providedPorts() {
        return {InputPort<bool>("then_skip", true,
                                "once the child finished: true to be SKIPPED, false to "
                                "return the status it finished with")};
    }

private:
    NodeStatus tick() override {
        if (finished_) {
            const Expected<bool> then_skip = getInput<bool>("then_skip");
            return (!then_skip || *then_skip) ? NodeStatus::SKIPPED : first_result_;
        }
        setStatus(NodeStatus::RUNNING);
        const NodeStatus result = child_node_->executeTick();
        if (isStatusCompleted(result)) {
            finished_ = true;
            first_result_ = result;
            resetChild();
        }
        return result;
    }

    bool finished_ = false;
    NodeStatus first_result_ = NodeStatus::IDLE;
};

}  // namespace BT
