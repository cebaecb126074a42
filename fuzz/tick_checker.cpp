#include "tick_checker.hpp"

#include "canopy/run/agent.hpp"

namespace canopy::fuzz {

namespace {

// behavior3's Repeat and ForEach run as many iterations as finish at once within one tick, at
// most 65,536 a tick (ForEach and Filter too), shared with the loops nested in them (loop_budget,
// src/dialects/behavior3/nodes/family.hpp): each may visit its subtree that many times more. Delay
// and Listen run their child between ticks (src/dialects/behavior3/nodes/listeners.cpp), each of
// which may be as long as a tick: a Delay up to 16 times a tick, a Listen at the agent's own events
// of a tick (at most 3).
std::size_t max_visits(const tree& t) {
    constexpr std::size_t repeat_budget = 65536;
    std::size_t most = tick_checker::visits_per_node * t.size() + 16;
    std::size_t runs = 1;
    for (tree::index i = 0; i < t.size(); ++i) {
        const std::string_view type = t.type_name(i);
        if (type == "behavior3.Repeat" || type == "behavior3.ForEach" || type == "behavior3.Filter")
            most += repeat_budget * tick_checker::visits_per_node * (t.subtree_end(i) - i);
        runs += type == "behavior3.Delay" ? 16 : type == "behavior3.Listen" ? 3 : 0;
    }
    return most * runs;
}

}  // namespace

tick_checker::tick_checker(const tree& t)
    : tree_(t), entered_(t.size(), false), max_visits_(max_visits(t)) {}

void tick_checker::fail(tree::index node, const std::string& what) const {
    throw broken_promise("node " + std::to_string(node) + " (" +
                         std::string(tree_.type_name(node)) + " #" +
                         std::to_string(tree_.record_id(node)) + "): " + what);
}

void tick_checker::on_visit(const agent& /*a*/, tree::index node) {
    if (++total_visits_ > max_total_visits) throw enough_visits{};
    if (++visits_ > max_visits_)
        fail(node,
             "one tick visited more than " + std::to_string(visits_per_node) + " x the nodes");
}

void tick_checker::on_tick(const agent& a, tree::index node, status before, status result) {
    const bool was_running = before == status::running;
    if (was_running != entered_[node])
        fail(node, was_running ? "ticked as running but never entered"
                               : "entered again before its exit or halt");
    if (result == status::idle) fail(node, "its tick was reported as idle");
    // Parents read a child's byte as its record of the run: a skipped one must say so too.
    if (a.last_status(node) != result)
        fail(node, "returned " + std::string(to_string(result)) + ", but its status byte says " +
                       std::string(to_string(a.last_status(node))));
    entered_[node] = result == status::running;
}

void tick_checker::on_halt(const agent& a, tree::index node) {
    // An interrupted tick (a behavior3 file's) halts the nodes whose tick the error cut short.
    if (!entered_[node] && a.interruption().empty()) fail(node, "halted but not entered");
    entered_[node] = false;
}

void tick_checker::end_tick() const {
    for (tree::index i = 0; i < tree_.size(); ++i) {
        const tree::index parent = tree_.parent(i);
        if (entered_[i] && parent != tree::no_parent && !entered_[parent])
            fail(i, "still entered after its parent exited");
    }
}

void tick_checker::check_all_exited() const {
    for (tree::index i = 0; i < tree_.size(); ++i)
        if (entered_[i]) fail(i, "still entered after reset()");
}

}  // namespace canopy::fuzz
