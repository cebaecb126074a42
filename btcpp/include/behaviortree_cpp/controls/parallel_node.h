#pragma once

// BT::ParallelNode: ticks every child that has not finished yet, in order, at each tick (all
// on the ticking thread), until `success_count` children succeeded (SUCCESS) or
// `failure_count` failed, or too many failed to still reach the success count (FAILURE); it
// then halts the children still running. A negative count counts from the number of
// children, as Python's indexes do: -1 is all of them.

#include <set>

#include "behaviortree_cpp/control_node.h"

namespace BT {

class ParallelNode : public ControlNode {
public:
    /// Thresholds from the setters (success: all children, failure: 1 unless set).
    explicit ParallelNode(const std::string& name);
    /// Thresholds from the ports, read at each tick.
    ParallelNode(const std::string& name, const NodeConfig& config);
    ~ParallelNode() override = default;
    ParallelNode(const ParallelNode&) = delete;
    ParallelNode& operator=(const ParallelNode&) = delete;

    static PortsList providedPorts() {
        return {InputPort<int>(THRESHOLD_SUCCESS, -1,
                               "how many children must succeed for the node to succeed"),
                InputPort<int>(THRESHOLD_FAILURE, 1,
                               "how many children must fail for the node to fail")};
    }

    void halt() override;

    /// The thresholds as counts of children (negative ones resolved).
    size_t successThreshold() const;
    size_t failureThreshold() const;
    void setSuccessThreshold(int threshold);
    void setFailureThreshold(int threshold);

private:
    NodeStatus tick() override;
    void clear();

    static constexpr const char* THRESHOLD_SUCCESS = "success_count";
    static constexpr const char* THRESHOLD_FAILURE = "failure_count";

    int success_threshold_ = -1;
    int failure_threshold_ = 1;
    std::set<size_t> completed_list_;  // the children that finished in this run
    size_t success_count_ = 0;
    size_t failure_count_ = 0;
    bool read_parameter_from_ports_ = false;
};

}  // namespace BT
