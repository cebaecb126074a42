#pragma once

// BT::RetryNode (RetryUntilSuccessful): ticks its child again, within the same tick, each
// time it fails, up to `num_attempts` times in all (-1: without end); its child's SUCCESS is
// its SUCCESS, and the last failure its FAILURE. A running child makes it RUNNING, and the
// attempts go on at the next tick.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class RetryNode : public DecoratorNode {
public:
    /// Up to `NTries` attempts (-1: without end), without ports.
    RetryNode(const std::string& name, int NTries);
    /// The attempts from the `num_attempts` port, read at each tick.
    RetryNode(const std::string& name, const NodeConfig& config);
    ~RetryNode() override = default;
    RetryNode(const RetryNode&) = delete;
    RetryNode& operator=(const RetryNode&) = delete;

    static PortsList providedPorts() {
        return {InputPort<int>(NUM_ATTEMPTS,
                               "how many times to tick a failing child in all; -1 without end")};
    }

    void halt() override;

private:
    NodeStatus tick() override;

    static constexpr const char* NUM_ATTEMPTS = "num_attempts";

    int max_attempts_ = 0;
    int try_count_ = 0;
    bool read_parameter_from_ports_ = false;
};

/// BehaviorTree.CPP's old misspelt name (RetryUntilSuccesful).
class [[deprecated("use RetryNode (RetryUntilSuccessful)")]] RetryNodeTypo : public RetryNode{
    public : RetryNodeTypo(const std::string& name, int NTries) :
        RetryNode(name, NTries){} RetryNodeTypo(const std::string& name, const NodeConfig& config) :
            RetryNode(name, config){}
};

}  // namespace BT
