#pragma once

// BT::SequenceNode, BehaviorTree.CPP's Sequence as a class a program builds and ticks itself
// (a tree made by BehaviorTreeFactory runs Canopy's Sequence instead). It ticks its children
// in order and goes on from the running one at the next tick: a child's FAILURE ends it with
// FAILURE and starts it over next time, all children's SUCCESS is its SUCCESS.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class SequenceNode : public ControlNode {
public:
    /// @param make_async when a child succeeds at its first tick, return RUNNING (and ask
    /// the tree to tick again at once) before ticking the next one: the AsyncSequence.
    SequenceNode(const std::string& name, bool make_async = false,
                 const NodeConfig& config = NodeConfig());
    ~SequenceNode() override = default;
    SequenceNode(const SequenceNode&) = delete;
    SequenceNode& operator=(const SequenceNode&) = delete;

    void halt() override;

protected:
    NodeStatus tick() override;
    size_t current_child_idx_ = 0;

private:
    size_t skipped_count_ = 0;
    bool asynch_ = false;
};

}  // namespace BT
