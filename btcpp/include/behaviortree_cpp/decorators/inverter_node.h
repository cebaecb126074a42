#pragma once

// BT::InverterNode: its child's SUCCESS is its FAILURE and the other way round; RUNNING and
// SKIPPED pass through.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class InverterNode : public DecoratorNode {
public:
    explicit InverterNode(const std::string& name);
    ~InverterNode() override = default;
    InverterNode(const InverterNode&) = delete;
    InverterNode& operator=(const InverterNode&) = delete;

private:
    NodeStatus tick() override;
};

}  // namespace BT
