#pragma once

#include <iosfwd>

#include "canopy/status.hpp"
#include "canopy/tree.hpp"

namespace canopy {

class agent;

/// Sees every status change of every node of the agents it is attached to
/// (agent::set_observer). With none attached, ticking costs one untaken branch per node.
class observer {
public:
    virtual ~observer() = default;
    /// A node's tick returned `result`. `before` is running when the node was running, and
    /// idle when this tick entered it.
    virtual void on_tick(const agent& a, tree::index node, status before, status result) = 0;
    /// A running node was halted by a parent that left it, or by a reset.
    virtual void on_halt(const agent& a, tree::index node) = 0;
};

/// Prints each event as one line, indented two spaces per depth, in the order they happen
/// (a child's line before its parent's, since a parent finishes after its child):
/// `    Wait "a breath" #7: idle -> running`, `  Sequence #2: halted`.
class trace_printer : public observer {
public:
    explicit trace_printer(std::ostream& out) : out_(&out) {}
    void on_tick(const agent& a, tree::index node, status before, status result) override;
    void on_halt(const agent& a, tree::index node) override;

private:
    std::ostream* out_;
};

}  // namespace canopy
