#pragma once

// BT::TimeoutNode: ticks its child, and fails if the child still runs `msec` milliseconds
// after the node started (0: no limit). A timer thread notes at that moment whether the child
// runs, and asks the tree to tick again at once (emitWakeUpSignal); the next tick halts the
// child and returns FAILURE. (BehaviorTree.CPP's timer thread halts the child itself; here
// the child is halted on the thread that ticks it, so node code never runs on two threads.)

#include <atomic>
#include <memory>

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

namespace detail {
class deadline_timer;
}

class TimeoutNode : public DecoratorNode {
public:
    /// A limit of `milliseconds`, without ports.
    TimeoutNode(const std::string& name, unsigned milliseconds);
    /// The limit from the `msec` port, read at each tick.
    TimeoutNode(const std::string& name, const NodeConfig& config);
    /// Stops the timer; halts nothing (the child may be gone already).
    ~TimeoutNode() override;
    TimeoutNode(const TimeoutNode&) = delete;
    TimeoutNode& operator=(const TimeoutNode&) = delete;

    static PortsList providedPorts() {
        return {InputPort<unsigned>("msec",
                                    "how long the child may run, in milliseconds, before it "
                                    "is halted and the node fails")};
    }

private:
    NodeStatus tick() override;
    void halt() override;

    std::unique_ptr<detail::deadline_timer> timer_;
    unsigned msec_ = 0;
    bool read_parameter_from_ports_ = false;
    bool timeout_started_ = false;
    std::atomic_bool child_timed_out_{false};  // set by the timer's thread
};

}  // namespace BT
