#pragma once

// BT::ParallelAllNode: ticks every child that has not finished yet, in order, at each tick,
// until all of them finished; it then fails if at least `max_failures` of them failed (a
// negative number counts from the number of children: -1 is all of them), else succeeds.

#include <set>

#include "behaviortree_cpp/control_node.h"

namespace BT {

class ParallelAllNode : public ControlNode {
public:
    ParallelAllNode(const std::string& name, const NodeConfig& config);
    ~ParallelAllNode() override = default;
    ParallelAllNode(const ParallelAllNode&) = delete;
    ParallelAllNode& operator=(const ParallelAllNode&) = delete;

    static PortsList providedPorts() {
        return {InputPort<int>("max_failures", 1,
                               "how many children must fail for the node to fail, once all "
                               "of them finished")};
    }

    void halt() override;

    size_t failureThreshold() const { return failure_threshold_; }
    void setFailureThreshold(int threshold);

private:
    NodeStatus tick() override;

    size_t failure_threshold_ = 1;
    std::set<size_t> completed_list_;  // the children that finished in this run
    size_t failure_count_ = 0;
};

}  // namespace BT
