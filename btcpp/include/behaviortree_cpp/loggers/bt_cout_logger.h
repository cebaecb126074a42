#pragma once

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"

namespace BT {

/// Prints each status change: "[seconds]: name  PREVIOUS -> STATUS", in colour.
class StdCoutLogger : public StatusChangeLogger {
public:
    explicit StdCoutLogger(const Tree& tree);
    ~StdCoutLogger() override;
    void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                  NodeStatus status) override;
    void flush() override;
};

}  // namespace BT
