#pragma once

#include "behaviortree_cpp/action_node.h"

namespace BT {

/// The built-in AlwaysSuccess as a class, for a program that builds nodes in C++. In a tree
/// made by the factory, AlwaysSuccess is Canopy's own node (docs/btcpp-api.md).
class AlwaysSuccessNode : public SyncActionNode {
public:
    explicit AlwaysSuccessNode(const std::string& name) : SyncActionNode(name, {}) {
        setRegistrationID("AlwaysSuccess");
    }

private:
    NodeStatus tick() override { return NodeStatus::SUCCESS; }
};

}  // namespace BT
