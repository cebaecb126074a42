#pragma once

// ConsumeQueue<T>: ticks its child once per item of a ProtectedQueue<T>, each item first
// written to `popped_item`, as BehaviorTree.CPP 4's does (deprecated there, as here, for
// LoopNode).

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "behaviortree_cpp/actions/pop_from_queue.hpp"
#include "behaviortree_cpp/decorator_node.h"

namespace BT {

/// Takes the queue's items one by one and ticks the child for each: while the child runs,
/// the node runs (and goes on with the next item once the child is done); a child that fails
/// fails the node. With the queue empty, or no queue, it returns the child's last result, or
/// success.
template <typename T>
class [[deprecated("You are encouraged to use the LoopNode instead")]] ConsumeQueue
    : public DecoratorNode {
public:
    ConsumeQueue(const std::string& name, const NodeConfig& config) : DecoratorNode(name, config) {}
    static PortsList providedPorts() {
        return {InputPort<std::shared_ptr<ProtectedQueue<T>>>("queue"),
                OutputPort<T>("popped_item")};
    }
    NodeStatus tick() override {
        NodeStatus result = NodeStatus::SUCCESS;
        if (child_running_) {
            const NodeStatus child = child_node_->executeTick();
            child_running_ = child == NodeStatus::RUNNING;
            if (child_running_) return NodeStatus::RUNNING;
            haltChild();
            result = child;
        }
        std::shared_ptr<ProtectedQueue<T>> queue;
        if (!getInput("queue", queue) || !queue) return result;
        std::unique_lock<std::mutex> hold(queue->mtx);
        while (!queue->items.empty()) {
            setStatus(NodeStatus::RUNNING);
            T item = std::move(queue->items.front());
            queue->items.pop_front();
            setOutput("popped_item", item);
            hold.unlock();
            const NodeStatus child = child_node_->executeTick();
            hold.lock();
            child_running_ = child == NodeStatus::RUNNING;
            if (child_running_) return NodeStatus::RUNNING;
            haltChild();
            if (child == NodeStatus::FAILURE) return NodeStatus::FAILURE;
            result = child;
        }
        return result;
    }
    void halt() override {
        child_running_ = false;
        DecoratorNode::halt();
    }

private:
    bool child_running_ = false;
};

}  // namespace BT
