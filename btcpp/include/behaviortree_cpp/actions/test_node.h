#pragma once

// BT::TestNode: a stand-in that returns a status, at once or after a delay (for tests, and
// what substitution rules put in a node's place).

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "behaviortree_cpp/action_node.h"

namespace BT {

/// What a TestNode does.
struct TestNodeConfig {
    /// What the node returns once it is done.
    NodeStatus return_status = NodeStatus::SUCCESS;
    /// A script run when it succeeds, and one run when it fails.
    std::string success_script;
    std::string failure_script;
    /// A script run after either.
    std::string post_script;
    /// How long it runs first; zero: it finishes in its first tick.
    std::chrono::milliseconds async_delay = std::chrono::milliseconds(0);
    /// Called instead of the scripts, given the node: what it returns is the result.
    std::function<NodeStatus()> complete_func;
    /// A script whose value is the status (`a > 2 ? SUCCESS : FAILURE`), before
    /// return_status.
    std::string return_status_script;
};

/// A TestNode registered with `registerNodeType<TestNode>(ID, config)` is run by Canopy's
/// engine, scripts included (docs/btcpp-api.md). Made by the program itself, outside a tree,
/// it returns complete_func's status or return_status, after async_delay; it has no
/// blackboard engine to run scripts with, so a config with scripts is refused.
class TestNode : public StatefulActionNode {
public:
    /// @warning throws RuntimeError for a config with scripts.
    TestNode(const std::string& name, const NodeConfig& config, TestNodeConfig test_config);
    TestNode(const std::string& name, const NodeConfig& config,
             std::shared_ptr<TestNodeConfig> test_config);

protected:
    NodeStatus onStart() override;
    NodeStatus onRunning() override;
    void onHalted() override {}

private:
    NodeStatus onCompleted();

    std::shared_ptr<TestNodeConfig> config_;
    std::chrono::steady_clock::time_point done_at_;
};

}  // namespace BT
