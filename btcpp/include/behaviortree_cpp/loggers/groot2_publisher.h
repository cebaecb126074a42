#pragma once

// BT::Groot2Publisher: lets Groot2 attach to a running tree, as BehaviorTree.CPP's does, on
// Canopy's Groot2 server (canopy::groot2_server, docs/monitoring.md): the tree, each node's
// status, the blackboard, recorded transitions and breakpoints, on `server_port` (requests)
// and the next port (notifications). In the target canopy::btcpp_groot2, which links ZeroMQ:
// a program that uses it links that target beside canopy::btcpp.

#include <memory>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"

namespace BT {

class Groot2Publisher : public StatusChangeLogger {
public:
    /// Starts serving `tree`, on the loopback interface.
    /// @warning throws RuntimeError when a port cannot be bound (in use, say).
    explicit Groot2Publisher(const Tree& tree, unsigned server_port = 1667);
    Groot2Publisher(const Groot2Publisher&) = delete;
    Groot2Publisher& operator=(const Groot2Publisher&) = delete;
    /// Stops serving; a tick held at a breakpoint goes on.
    ~Groot2Publisher() override;

    /// The server sees the tree's changes through the engine, not through this logger.
    void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                  NodeStatus status) override;
    void flush() override;

private:
    struct PImpl;
    std::unique_ptr<PImpl> _p;
};

}  // namespace BT
