#pragma once

// BT::RepeatNode: ticks its child again, within the same tick, each time it succeeds, until
// it succeeded `num_cycles` times (-1: without end): then SUCCESS. Its child's FAILURE is its
// FAILURE. A running child makes it RUNNING, and the cycles go on at the next tick.

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

class RepeatNode : public DecoratorNode {
public:
    /// `NTries` cycles (-1: without end), without ports.
    RepeatNode(const std::string& name, int NTries);
    /// The cycles from the `num_cycles` port, read at each tick.
    RepeatNode(const std::string& name, const NodeConfig& config);
    ~RepeatNode() override = default;
    RepeatNode(const RepeatNode&) = delete;
    RepeatNode& operator=(const RepeatNode&) = delete;

    static PortsList providedPorts() {
        return {
            InputPort<int>(NUM_CYCLES, "how many times the child must succeed; -1 without end")};
    }

private:
    NodeStatus tick() override;
    void halt() override;

    static constexpr const char* NUM_CYCLES = "num_cycles";

    int num_cycles_ = 0;
    int repeat_count_ = 0;
    bool read_parameter_from_ports_ = false;
};

}  // namespace BT
