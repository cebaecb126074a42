#pragma once

// BehaviorTree.CPP 4's first queue nodes (LoopNode, in decorators/loop_node.h, does their job
// now): a queue shared through a key as a std::shared_ptr<ProtectedQueue<T>>; PopFromQueue<T>
// takes its first item, QueueSize<T> counts them. A program registers the ones it uses:
// `factory.registerNodeType<BT::PopFromQueue<int>>("PopFromQueue");`.

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "behaviortree_cpp/action_node.h"

namespace BT {

/// Items a program and the tree's nodes share, with the lock that guards them.
template <typename T>
struct ProtectedQueue {
    std::list<T> items;
    std::mutex mtx;
};

/// Moves the queue's first item to `popped_item` and succeeds; fails when the queue is empty
/// or the port gives none.
template <typename T>
class PopFromQueue : public SyncActionNode {
public:
    PopFromQueue(const std::string& name, const NodeConfig& config)
        : SyncActionNode(name, config) {}
    static PortsList providedPorts() {
        return {InputPort<std::shared_ptr<ProtectedQueue<T>>>("queue"),
                OutputPort<T>("popped_item")};
    }
    NodeStatus tick() override {
        std::shared_ptr<ProtectedQueue<T>> queue;
        if (!getInput("queue", queue) || !queue) return NodeStatus::FAILURE;
        std::unique_lock<std::mutex> hold(queue->mtx);
        if (queue->items.empty()) return NodeStatus::FAILURE;
        T first = std::move(queue->items.front());
        queue->items.pop_front();
        hold.unlock();
        setOutput("popped_item", first);
        return NodeStatus::SUCCESS;
    }
};

/// Writes how many items the queue holds to `size` and succeeds; fails when it holds none or
/// the port gives no queue.
template <typename T>
class QueueSize : public SyncActionNode {
public:
    QueueSize(const std::string& name, const NodeConfig& config) : SyncActionNode(name, config) {}
    static PortsList providedPorts() {
        return {InputPort<std::shared_ptr<ProtectedQueue<T>>>("queue"), OutputPort<int>("size")};
    }
    NodeStatus tick() override {
        std::shared_ptr<ProtectedQueue<T>> queue;
        if (!getInput("queue", queue) || !queue) return NodeStatus::FAILURE;
        std::size_t count = 0;
        {
            const std::lock_guard<std::mutex> hold(queue->mtx);
            count = queue->items.size();
        }
        if (count == 0) return NodeStatus::FAILURE;
        setOutput("size", static_cast<int>(count));
        return NodeStatus::SUCCESS;
    }
};

}  // namespace BT
