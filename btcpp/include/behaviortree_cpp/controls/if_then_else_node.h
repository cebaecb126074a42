#pragma once

// BT::IfThenElseNode: two or three children. It ticks the first (the condition) until it
// finishes, then the second on SUCCESS or the third on FAILURE (FAILURE with two children),
// until that one finishes: its status is the node's. The condition is not ticked again while
// the branch runs.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class IfThenElseNode : public ControlNode {
public:
    explicit IfThenElseNode(const std::string& name);
    ~IfThenElseNode() override = default;
    IfThenElseNode(const IfThenElseNode&) = delete;
    IfThenElseNode& operator=(const IfThenElseNode&) = delete;

    void halt() override;

private:
    NodeStatus tick() override;

    size_t child_idx_ = 0;  // the branch that runs, or 0 while the condition decides
};

}  // namespace BT
