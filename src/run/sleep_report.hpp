#pragma once
// What the nodes of one agent's tick said of their next ticks (context::unchanged_until), and
// whether the agent may therefore sleep, and until when: the rule a world applies after each
// tick of an awake agent (canopy::world, docs/games.md "Agents that sleep").

#include <cstddef>
#include <cstdint>
#include <limits>

#include "canopy/run/tree.hpp"

namespace canopy::detail {

class sleep_report {
public:
    /// What until() returns for an agent that must be ticked at the next frame.
    static constexpr std::int64_t awake = std::numeric_limits<std::int64_t>::min();

    /// Forgets every report, before a tick.
    void clear() noexcept {
        count_ = 0;
        overflowed_ = false;
    }
    /// Node `node` said its ticks change nothing before `until` (context::unchanged_until); a
    /// later report of the same node replaces it.
    void note(tree::index node, std::int64_t until) noexcept;
    /// Forgets the reports of nodes [first, end), halted in the tick: what a node said before
    /// its halt does not hold for its next run.
    void forget(tree::index first, tree::index end) noexcept;

    /// After the tick, with the tree running: the agent clock's time until which every tick
    /// would change nothing, or `awake`. It is the earliest time reported by the running
    /// nodes, provided that every running node reported one or waits on its running children
    /// (tree_layout::waits_on_children, with a child running), and that none checks a
    /// `_while` condition (BehaviorTree.CPP), which runs on each tick. Nodes that are not
    /// running are not ticked by the running ones that so vouch for their next tick.
    std::int64_t until(const tree_layout& layout, const std::uint8_t* codes) const noexcept;

private:
    struct entry {
        tree::index node;
        std::int64_t until;
    };
    // Reports come from the running path: a few nodes, more only under parallel nodes. Past
    // this many, the agent simply stays awake.
    static constexpr std::size_t capacity = 32;
    const entry* find(tree::index node) const noexcept;

    entry entries_[capacity];
    std::size_t count_ = 0;
    bool overflowed_ = false;
};

}  // namespace canopy::detail
