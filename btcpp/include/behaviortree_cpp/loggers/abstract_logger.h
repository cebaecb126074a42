#pragma once

// BT::StatusChangeLogger: told every change of a node's status, as BehaviorTree.CPP 4.10's
// nodes report them (docs/btcpp-api.md, "Loggers"): IDLE -> RUNNING -> SUCCESS, and back
// to IDLE when a parent is done with the node or halts it.

#include <chrono>
#include <memory>

#include "behaviortree_cpp/basic_types.h"
#include "behaviortree_cpp/tree_node.h"

namespace BT {

class Tree;

enum class TimestampType { absolute, relative };

class StatusChangeLogger {
public:
    /// Hears the tree `root_node` belongs to.
    explicit StatusChangeLogger(TreeNode* root_node);
    virtual ~StatusChangeLogger();
    StatusChangeLogger(const StatusChangeLogger&) = delete;
    StatusChangeLogger& operator=(const StatusChangeLogger&) = delete;

    virtual void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                          NodeStatus status) = 0;
    virtual void flush() = 0;

    void setEnabled(bool enabled) { enabled_ = enabled; }
    void setTimestampType(TimestampType type) { type_ = type; }
    bool enabled() const { return enabled_; }
    bool showsTransitionToIdle() const { return show_idle_; }
    void enableTransitionToIdle(bool enable) { show_idle_ = enable; }

protected:
    StatusChangeLogger() = default;
    void subscribeToTreeChanges(TreeNode* root_node);
    /// A derived class calls it first in its destructor, so that no callback reaches a
    /// half-destroyed object.
    void unsubscribeFromTreeChanges();
    /// The tree subscribed to, or null.
    detail::TreeState* treeState() const { return tree_; }

private:
    friend class detail::TreeState;
    void hear(const TreeNode& node, NodeStatus prev_status, NodeStatus status);

    bool enabled_ = true;
    bool show_idle_ = true;
    TimestampType type_ = TimestampType::absolute;
    std::chrono::system_clock::time_point first_{};
    bool first_seen_ = false;
    detail::TreeState* tree_ = nullptr;
};

}  // namespace BT
