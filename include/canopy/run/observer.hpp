#pragma once

#include "canopy/core/status.hpp"
#include "canopy/run/node_error.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

class agent;

/// Sees every visit and status change of every node of the agents it is attached to
/// (agent::set_observer, agent::add_observer), as BehaviorTree.CPP's StatusChangeLogger does.
/// With none attached, ticking costs one untaken branch per node. An agent with several
/// observers tells them in the order they were added (observer_list).
class observer {
public:
    virtual ~observer() = default;
    /// A node is about to be ticked (and entered first if it was not running): the parent's
    /// visit comes before its children's.
    virtual void on_visit(const agent& /*a*/, tree::index /*node*/) {}
    /// A node's tick returned `result`: success, failure, running or skipped (a skipped node
    /// did nothing, and is not running afterwards; docs/nodes.md, "Skipped"). `before` is
    /// running when the node was running, and idle when this tick entered it.
    virtual void on_tick(const agent& a, tree::index node, status before, status result) = 0;
    /// A running node was halted by a parent that left it, or by a reset; or, in a tick that
    /// an error interrupted (agent::interruption), a node whose tick the error cut short.
    virtual void on_halt(const agent& a, tree::index node) = 0;
    /// A node threw and cut the tick short (node_error names it): told once, right where the
    /// tick stops, before the halts of the running nodes that the agent's error_policy
    /// brings (none with rethrow). Does nothing by default.
    virtual void on_error(const agent& /*a*/, const node_error& /*error*/) {}
};

}  // namespace canopy
