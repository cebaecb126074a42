#pragma once

// BT::DelayNode: RUNNING for `delay_msec` milliseconds from its first tick, then ticks its
// child, whose status is its own, until the child finishes; the next run waits again. A timer
// thread asks the tree to tick again when the delay is over (emitWakeUpSignal).

#include <chrono>
#include <memory>

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

namespace detail {
class deadline_timer;
}

class DelayNode : public DecoratorNode {
public:
    /// A delay of `milliseconds`, without ports.
    DelayNode(const std::string& name, unsigned milliseconds);
    /// The delay from the `delay_msec` port, read at each tick.
    DelayNode(const std::string& name, const NodeConfig& config);
    /// Stops the timer; halts nothing (the child may be gone already).
    ~DelayNode() override;
    DelayNode(const DelayNode&) = delete;
    DelayNode& operator=(const DelayNode&) = delete;

    static PortsList providedPorts() {
        return {InputPort<unsigned>("delay_msec",
                                    "how long to wait, in milliseconds, before ticking the "
                                    "child")};
    }

    void halt() override;

private:
    NodeStatus tick() override;

    std::unique_ptr<detail::deadline_timer> timer_;
    std::chrono::steady_clock::time_point delay_end_;
    unsigned msec_ = 0;
    bool read_parameter_from_ports_ = false;
    bool delay_started_ = false;
};

}  // namespace BT
