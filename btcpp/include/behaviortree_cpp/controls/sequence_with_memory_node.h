#pragma once

// BT::SequenceWithMemory: a Sequence that remembers its place when a child fails, and goes
// on from the failed child at its next tick instead of starting over. Halting it keeps the
// place too, as BehaviorTree.CPP 4.10's does.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class SequenceWithMemory : public ControlNode {
public:
    explicit SequenceWithMemory(const std::string& name);
    ~SequenceWithMemory() override = default;
    SequenceWithMemory(const SequenceWithMemory&) = delete;
    SequenceWithMemory& operator=(const SequenceWithMemory&) = delete;

    void halt() override;

private:
    NodeStatus tick() override;

    size_t current_child_idx_ = 0;
    size_t skipped_count_ = 0;
};

}  // namespace BT
