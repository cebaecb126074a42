#pragma once

// BT::LoopNode<T>: a decorator that takes the values of a queue one by one, writes each to
// its `value` port and ticks its child once per value, as BehaviorTree.CPP's does. The queue
// (`queue`) is text ("1;2;3"), a SharedQueue<T> (which it empties) or a std::vector<T> on the
// blackboard; with no value left it returns `if_empty` (SUCCESS unless given), and a child's
// FAILURE ends it with FAILURE. A program registers it for its own T:
// factory.registerNodeType<BT::LoopNode<Pose2D>>("LoopPose").

#include <deque>
#include <memory>
#include <vector>

#include "behaviortree_cpp/decorator_node.h"

namespace BT {

template <typename T>
using SharedQueue = std::shared_ptr<std::deque<T>>;

/// A queue from text: its parts between ';', each read as T.
template <typename T>
SharedQueue<T> queueFromText(StringView text) {
    auto queue = std::make_shared<std::deque<T>>();
    for (StringView part : splitString(text, ';')) queue->push_back(convertFromString<T>(part));
    return queue;
}

template <>
inline SharedQueue<int> convertFromString<SharedQueue<int>>(StringView str) {
    return queueFromText<int>(str);
}
template <>
inline SharedQueue<bool> convertFromString<SharedQueue<bool>>(StringView str) {
    return queueFromText<bool>(str);
}
template <>
inline SharedQueue<double> convertFromString<SharedQueue<double>>(StringView str) {
    return queueFromText<double>(str);
}
template <>
inline SharedQueue<std::string> convertFromString<SharedQueue<std::string>>(StringView str) {
    return queueFromText<std::string>(str);
}

template <typename T = Any>
class LoopNode : public DecoratorNode {
public:
    LoopNode(const std::string& name, const NodeConfig& config) : DecoratorNode(name, config) {
        const StringView written = getRawPortValue("queue");
        if (!isBlackboardPointer(written)) literal_ = convertFromString<SharedQueue<T>>(written);
    }

    static PortsList providedPorts() {
        return {BidirectionalPort("queue"),
                InputPort<NodeStatus>("if_empty", NodeStatus::SUCCESS,
                                      "Status to return if queue is empty: SUCCESS, FAILURE, "
                                      "SKIPPED"),
                OutputPort<T>("value")};
    }

    NodeStatus tick() override {
        if (status() == NodeStatus::IDLE) {
            child_running_ = false;
            queue_.reset();
            // A literal queue is read afresh for each run.
            if (literal_) queue_ = std::make_shared<std::deque<T>>(*literal_);
        }
        bool took = false;
        if (!child_running_) {
            if (!literal_) take_queue();
            if (queue_ && !queue_->empty()) {
                T value = std::move(queue_->front());
                queue_->pop_front();
                setOutput("value", value);
                took = true;
            }
        }
        if (!took && !child_running_) return getInput<NodeStatus>("if_empty").value();
        if (status() == NodeStatus::IDLE) setStatus(NodeStatus::RUNNING);
        const NodeStatus child = child_node_->executeTick();
        child_running_ = child == NodeStatus::RUNNING;
        if (isStatusCompleted(child)) resetChild();
        return child == NodeStatus::FAILURE ? NodeStatus::FAILURE : NodeStatus::RUNNING;
    }

private:
    // The queue the `queue` key holds: a SharedQueue<T> itself, else (once per run) a copy
    // of a std::vector<T> or of text.
    void take_queue() {
        AnyPtrLocked held = getLockedPortContent("queue");
        if (!held || held->empty()) return;
        if (auto shared = held->tryCast<SharedQueue<T>>()) {
            queue_ = *shared;
        } else if (queue_) {
            return;
        } else if (auto list = held->tryCast<std::vector<T>>()) {
            queue_ = std::make_shared<std::deque<T>>(list->begin(), list->end());
        } else if (held->isString()) {
            queue_ = convertFromString<SharedQueue<T>>(held->template cast<std::string>());
        } else {
            throw RuntimeError(
                "LoopNode: port 'queue' must contain either SharedQueue<T>, std::vector<T>, "
                "or a string");
        }
    }

    bool child_running_ = false;
    SharedQueue<T> literal_;
    SharedQueue<T> queue_;
};

}  // namespace BT
