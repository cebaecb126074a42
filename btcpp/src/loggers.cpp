// The loggers: StatusChangeLogger hears the status changes TreeState tells; StdCoutLogger
// prints them, TreeObserver counts them.

#include <cstdio>
#include <functional>
#include <iostream>

#include "behaviortree_cpp/loggers/abstract_logger.h"
#include "behaviortree_cpp/loggers/bt_cout_logger.h"
#include "behaviortree_cpp/loggers/bt_observer.h"
#include "tree_state.hpp"

namespace BT {

StatusChangeLogger::StatusChangeLogger(TreeNode* root_node) {
    subscribeToTreeChanges(root_node);
}

StatusChangeLogger::~StatusChangeLogger() {
    unsubscribeFromTreeChanges();
}

void StatusChangeLogger::subscribeToTreeChanges(TreeNode* root_node) {
    if (root_node == nullptr) throw RuntimeError("StatusChangeLogger: the tree is empty");
    tree_ = root_node->tree_;
    if (tree_ == nullptr) throw RuntimeError("StatusChangeLogger: the node is in no tree");
    tree_->subscribe(this);
}

void StatusChangeLogger::unsubscribeFromTreeChanges() {
    if (tree_ != nullptr) tree_->unsubscribe(this);
    tree_ = nullptr;
}

void StatusChangeLogger::hear(const TreeNode& node, NodeStatus prev_status, NodeStatus status) {
    if (!enabled_ || (status == NodeStatus::IDLE && !show_idle_)) return;
    // BehaviorTree.CPP's clock (high_resolution_clock, the system clock in libstdc++): a
    // time since the epoch, which FileLogger2 counts from.
    const auto now = std::chrono::system_clock::now();
    if (!first_seen_) {
        first_ = now;
        first_seen_ = true;
    }
    const Duration stamp = type_ == TimestampType::absolute
                               ? std::chrono::duration_cast<Duration>(now.time_since_epoch())
                               : std::chrono::duration_cast<Duration>(now - first_);
    callback(stamp, node, prev_status, status);
}

StdCoutLogger::StdCoutLogger(const Tree& tree) : StatusChangeLogger(tree.rootNode()) {}

StdCoutLogger::~StdCoutLogger() {
    unsubscribeFromTreeChanges();
}

void StdCoutLogger::callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                             NodeStatus status) {
    constexpr const char* padding = "                         ";
    constexpr std::size_t width = 25;
    const double seconds = std::chrono::duration<double>(timestamp).count();
    std::printf("[%.3f]: %s%s %s -> %s", seconds, node.name().c_str(),
                &padding[std::min(width, node.name().size())], toStr(prev_status, true).c_str(),
                toStr(status, true).c_str());
    std::cout << std::endl;
}

void StdCoutLogger::flush() {
    std::cout << std::flush;
}

TreeObserver::TreeObserver(const Tree& tree) : StatusChangeLogger(tree.rootNode()) {
    std::function<void(const TreeNode&)> step = [&](const TreeNode& node) {
        if (const auto* control = dynamic_cast<const ControlNode*>(&node)) {
            for (const TreeNode* child : control->children()) step(*child);
        } else if (const auto* decorator = dynamic_cast<const DecoratorNode*>(&node)) {
            if (decorator->type() != NodeType::SUBTREE) step(*decorator->child());
        }
        path_to_uid_[node.fullPath()] = node.UID();
    };
    for (const auto& use : tree.subtrees) step(*use->nodes.front());
    for (const auto& [path, uid] : path_to_uid_) {
        statistics_[uid] = {};
        uid_to_path_[uid] = path;
    }
}

TreeObserver::~TreeObserver() {
    unsubscribeFromTreeChanges();
}

void TreeObserver::resetStatistics() {
    for (auto& [uid, stats] : statistics_) stats = {};
}

const TreeObserver::NodeStatistics& TreeObserver::getStatistics(const std::string& path) const {
    auto found = path_to_uid_.find(path);
    if (found == path_to_uid_.end())
        throw RuntimeError("TreeObserver::getStatistics: Invalid pattern");
    return getStatistics(found->second);
}

const TreeObserver::NodeStatistics& TreeObserver::getStatistics(uint16_t uid) const {
    auto found = statistics_.find(uid);
    if (found == statistics_.end()) throw RuntimeError("TreeObserver::getStatistics: Invalid UID");
    return found->second;
}

void TreeObserver::callback(Duration timestamp, const TreeNode& node, NodeStatus /*prev_status*/,
                            NodeStatus status) {
    NodeStatistics& stats = statistics_[node.UID()];
    stats.current_status = status;
    stats.last_timestamp = timestamp;
    if (status == NodeStatus::IDLE) return;
    ++stats.transitions_count;
    if (status == NodeStatus::SUCCESS) {
        stats.last_result = status;
        ++stats.success_count;
    } else if (status == NodeStatus::FAILURE) {
        stats.last_result = status;
        ++stats.failure_count;
    } else if (status == NodeStatus::SKIPPED) {
        ++stats.skip_count;
    }
}

}  // namespace BT
