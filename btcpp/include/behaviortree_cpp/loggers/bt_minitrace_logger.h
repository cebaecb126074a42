#pragma once

// BT::MinitraceLogger: the tree's status changes as a Chrome trace (the Trace Event format
// chrome://tracing and Perfetto read): a node that runs is a span from its start to its end,
// one that finishes in the tick it starts an instant; the node type is the category.

#include <chrono>
#include <memory>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"

namespace BT {

class MinitraceLogger : public StatusChangeLogger {
public:
    /// @warning throws RuntimeError when the file cannot be written.
    MinitraceLogger(const Tree& tree, const char* filename_json);
    MinitraceLogger(const MinitraceLogger&) = delete;
    MinitraceLogger& operator=(const MinitraceLogger&) = delete;
    /// Ends the trace and closes the file.
    ~MinitraceLogger() override;

    void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                  NodeStatus status) override;
    /// Writes the events so far to the file (the trace reads without its end).
    void flush() override;

private:
    struct PImpl;
    std::unique_ptr<PImpl> _p;
};

}  // namespace BT
