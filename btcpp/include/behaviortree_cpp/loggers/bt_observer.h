#pragma once

#include <map>
#include <string>
#include <unordered_map>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"

namespace BT {

/// Counts, per node, its status changes, successes and failures (for tests).
class TreeObserver : public StatusChangeLogger {
public:
    explicit TreeObserver(const Tree& tree);
    ~TreeObserver() override;
    void flush() override {}
    void resetStatistics();

    struct NodeStatistics {
        NodeStatus last_result = NodeStatus::IDLE;
        NodeStatus current_status = NodeStatus::IDLE;
        unsigned transitions_count = 0;
        unsigned success_count = 0;
        unsigned failure_count = 0;
        unsigned skip_count = 0;
        Duration last_timestamp = {};
    };

    /// The statistics of the node of that fullPath() (or that name, when it is unique).
    /// @warning throws RuntimeError for no such node.
    const NodeStatistics& getStatistics(const std::string& path) const;
    const NodeStatistics& getStatistics(uint16_t uid) const;
    const std::unordered_map<uint16_t, NodeStatistics>& statistics() const { return statistics_; }
    const std::unordered_map<std::string, uint16_t>& pathToUID() const { return path_to_uid_; }
    const std::map<uint16_t, std::string>& uidToPath() const { return uid_to_path_; }

    void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                  NodeStatus status) override;

private:
    std::unordered_map<uint16_t, NodeStatistics> statistics_;
    std::unordered_map<std::string, uint16_t> path_to_uid_;
    std::map<uint16_t, std::string> uid_to_path_;
};

}  // namespace BT
