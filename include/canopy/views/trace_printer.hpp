#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "canopy/run/observer.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

/// Prints a tick top-down, indented two spaces per depth, after a line naming the tick
/// (agent::ticks) and the agent's clock (agent::time): a node's line when it is visited,
/// before its children's, ending in its result. A node that ticked children gets its result
/// on a line of its own after theirs:
///
///     -- tick 3 (0.3 s)
///     Selector "root" #1
///       Sequence "a coin?" #2
///         CoinNearby #5: idle -> failure
///       Sequence #2: idle -> failure
///       Wander #4: idle -> running
///     Selector #1: idle -> running
///
/// A halt is a line `  Sequence #2: halted`; a node's error that cut the tick short
/// (observer::on_error) a line `    Attack #7: error: out of ammo`. The tick's line comes
/// before the first visit of each tick; halts and errors outside a tick (a reset, an event
/// posted between ticks) print under the last tick's.
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
    void on_error(const agent& a, const node_error& error) override;

private:
    void end_open_line();

    std::ostream* out_;
    bool line_open_ = false;  // the last visit's line still waits for its result
    tree::index open_node_ = 0;
    // The tick whose line was printed last, and its agent's: a visit of another prints one.
    const agent* tick_agent_ = nullptr;
    std::uint64_t tick_ = 0;
};

/// What an agent is doing, on one line (agent::running_path): its running nodes from the root
/// down, each as `Type "describe" #id`, joined by ` > `; where several children of a node run
/// (a parallel node), their branches in brackets, separated by ` | `:
///
///     Selector "root" #1 > Sequence "attack" #3 > Attack #5
///     Parallel #1 > [Patrol #2 | Sequence #3 > Scan #4]
///
/// Empty when the tree is not running.
std::string running_path_text(const agent& a);

}  // namespace canopy
