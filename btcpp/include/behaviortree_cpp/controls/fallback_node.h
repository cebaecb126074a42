#pragma once

// BT::FallbackNode, BehaviorTree.CPP's Fallback as a class a program builds and ticks itself:
// it tries its children in order until one does not fail, going on from the running one at
// the next tick. A SUCCESS is its SUCCESS; all children's FAILURE is its FAILURE.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class FallbackNode : public ControlNode {
public:
    /// @param make_asynch when a child fails at its first tick, return RUNNING (and ask the
    /// tree to tick again at once) before trying the next one: the AsyncFallback.
    explicit FallbackNode(const std::string& name, bool make_asynch = false);
    ~FallbackNode() override = default;
    FallbackNode(const FallbackNode&) = delete;
    FallbackNode& operator=(const FallbackNode&) = delete;

    void halt() override;

private:
    NodeStatus tick() override;

    size_t current_child_idx_ = 0;
    size_t skipped_count_ = 0;
    bool asynch_ = false;
};

}  // namespace BT
