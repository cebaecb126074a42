// BT::TestNode made by the program itself, outside a tree: its status after its delay.

#include "behaviortree_cpp/actions/test_node.h"

#include <utility>

namespace BT {

TestNode::TestNode(const std::string& name, const NodeConfig& config, TestNodeConfig test_config)
    : TestNode(name, config, std::make_shared<TestNodeConfig>(std::move(test_config))) {}

TestNode::TestNode(const std::string& name, const NodeConfig& config,
                   std::shared_ptr<TestNodeConfig> test_config)
    : StatefulActionNode(name, config), config_(std::move(test_config)) {
    setRegistrationID("TestNode");
    if (!config_->success_script.empty() || !config_->failure_script.empty() ||
        !config_->post_script.empty() || !config_->return_status_script.empty()) {
        throw RuntimeError("TestNode [", name,
                           "]: scripts run only in a tree: register it with "
                           "registerNodeType<TestNode>(ID, config)");
    }
    if (config_->return_status == NodeStatus::IDLE)
        throw RuntimeError("TestNode return_status resolved to invalid status (integer value: 0)");
}

NodeStatus TestNode::onStart() {
    if (config_->async_delay <= std::chrono::milliseconds(0)) return onCompleted();
    done_at_ = std::chrono::steady_clock::now() + config_->async_delay;
    return NodeStatus::RUNNING;
}

NodeStatus TestNode::onRunning() {
    if (std::chrono::steady_clock::now() < done_at_) return NodeStatus::RUNNING;
    return onCompleted();
}

NodeStatus TestNode::onCompleted() {
    return config_->complete_func ? config_->complete_func() : config_->return_status;
}

}  // namespace BT
