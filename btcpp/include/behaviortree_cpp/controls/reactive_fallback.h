#pragma once

// BT::ReactiveFallback: ticks its children from the first at every tick. A child's RUNNING
// halts every other child and is its RUNNING; a SUCCESS ends it with SUCCESS; all children's
// FAILURE is its FAILURE.

#include "behaviortree_cpp/control_node.h"

namespace BT {

class ReactiveFallback : public ControlNode {
public:
    explicit ReactiveFallback(const std::string& name) : ControlNode(name, {}) {}

    /// Whether a second child returning RUNNING (while another one ran) throws a LogicError;
    /// off unless enabled, for every ReactiveFallback.
    static void EnableException(bool enable);

private:
    NodeStatus tick() override;
    void halt() override;

    int running_child_ = -1;
    static bool throw_if_multiple_running;
};

}  // namespace BT
