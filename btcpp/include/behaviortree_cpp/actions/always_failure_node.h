#pragma once

#include "behaviortree_cpp/action_node.h"

namespace BT {

/// The built-in AlwaysFailure as a class, for a program that builds nodes in C++. In a tree
/// made by the factory, AlwaysFailure is Canopy's own node (docs/btcpp-api.md).
class AlwaysFailureNode : public SyncActionNode {
public:
    explicit AlwaysFailureNode(const std::string& name) : SyncActionNode(name, {}) {
        setRegistrationID("AlwaysFailure");
    }

private:
    NodeStatus tick() override { return NodeStatus::FAILURE; }
};

}  // namespace BT
