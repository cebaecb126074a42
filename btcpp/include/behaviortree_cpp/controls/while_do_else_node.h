#pragma once

// BT::WhileDoElseNode: IfThenElse that ticks its condition (the first child) at every tick:
// on SUCCESS it halts the third child and ticks the second, on FAILURE it halts the second and
// ticks the third (or fails, with two children); the branch's status is the node's.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class WhileDoElseNode : public ControlNode {
public:
    explicit WhileDoElseNode(const std::string& name);
    ~WhileDoElseNode() override = default;
    WhileDoElseNode(const WhileDoElseNode&) = delete;
    WhileDoElseNode& operator=(const WhileDoElseNode&) = delete;

    void halt() override;

private:
    NodeStatus tick() override;
};

}  // namespace BT
