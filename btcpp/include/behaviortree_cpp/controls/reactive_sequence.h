#pragma once

// BT::ReactiveSequence: ticks its children from the first at every tick. A child's RUNNING
// halts every other child and is its RUNNING; a FAILURE ends it with FAILURE; all children's
// SUCCESS is its SUCCESS. Meant for conditions followed by one running action.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class ReactiveSequence : public ControlNode {
public:
    explicit ReactiveSequence(const std::string& name) : ControlNode(name, {}) {}

    /// Whether a second child returning RUNNING (while another one ran) throws a LogicError;
    /// off unless enabled, for every ReactiveSequence.
    static void EnableException(bool enable);

private:
    NodeStatus tick() override;
    void halt() override;

    int running_child_ = -1;
    static bool throw_if_multiple_running;
};

}  // namespace BT
