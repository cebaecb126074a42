#pragma once

#include <iosfwd>

#include "canopy/run/observer.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

/// Prints a tick top-down, indented two spaces per depth: a node's line when it is visited,
/// before its children's, ending in its result. A node that ticked children gets its result
/// on a line of its own after theirs:
///
///     Selector "root" #1
///       Sequence "a coin?" #2
///         CoinNearby #5: idle -> failure
///       Sequence #2: idle -> failure
///       Wander #4: idle -> running
///     Selector #1: idle -> running
///
/// A halt is a line `  Sequence #2: halted`.
///
/// It names each node from the tree the agent runs at that event and keeps nothing per node,
/// so an agent that moves to another tree (a tree_handle's reload) prints the old tree's
/// halts, then the new tree's nodes.
class trace_printer : public observer {
public:
    explicit trace_printer(std::ostream& out) : out_(&out) {}
    void on_visit(const agent& a, tree::index node) override;
    void on_tick(const agent& a, tree::index node, status before, status result) override;
    void on_halt(const agent& a, tree::index node) override;

private:
    void end_open_line();

    std::ostream* out_;
    bool line_open_ = false;  // the last visit's line still waits for its result
    tree::index open_node_ = 0;
};

}  // namespace canopy
