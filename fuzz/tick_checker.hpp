#pragma once
// An observer that checks the runtime's promises while an agent ticks: every enter is matched
// by exactly one exit or halt, a running node's parent is running, a node's status byte says
// what its tick returned (skipped included), and one tick visits a bounded number of nodes.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "canopy/run/observer.hpp"

namespace canopy::fuzz {

/// What a broken promise throws, from inside the tick, so that a tick that would never end
/// stops at the bound instead.
class broken_promise : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

/// What the checker throws, from inside a tick, once an input has made enough visits to have
/// been exercised: a tree may legitimately loop within its ticks (behavior3's Repeat runs up
/// to 65,536 iterations a tick), and the harness must stay fast whatever it is given.
struct enough_visits {};

class tick_checker final : public observer {
public:
    /// Visits one tick may make per node: the built-in nodes visit each node at most once a
    /// tick; the factor leaves room for a composite that legitimately revisits.
    static constexpr std::size_t visits_per_node = 4;

    explicit tick_checker(const tree& t);

    void on_visit(const agent& a, tree::index node) override;
    void on_tick(const agent& a, tree::index node, status before, status result) override;
    void on_halt(const agent& a, tree::index node) override;

    /// Call before each tick.
    void begin_tick() noexcept { visits_ = 0; }
    /// Call after each tick: every entered node's parent is entered too.
    void end_tick() const;
    /// Call after agent::reset(): nothing is left entered.
    void check_all_exited() const;

private:
    [[noreturn]] void fail(tree::index node, const std::string& what) const;

    const tree& tree_;
    std::vector<bool> entered_;
    std::size_t visits_ = 0;
    std::size_t max_visits_;
    std::size_t total_visits_ = 0;  // over every tick, against max_total_visits
    static constexpr std::size_t max_total_visits = 1000000;
};

}  // namespace canopy::fuzz
