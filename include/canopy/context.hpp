#pragma once

#include <cstdint>
#include <new>

#include "canopy/blackboard.hpp"
#include "canopy/param.hpp"
#include "canopy/status.hpp"
#include "canopy/tree.hpp"

namespace canopy {

class agent;

/// What a node sees while an agent ticks it: the agent's host, time step, blackboard and
/// state, its own parameters, and its children. Made once per agent tick, never by users.
class context {
public:
    /// The node being ticked.
    canopy::tree::index node() const noexcept { return node_; }
    const canopy::tree& tree() const noexcept;
    /// The node's parameters, checked at load.
    param_list params() const { return tree().params(node_); }

    /// The time step of this tick, in seconds (what agent::tick was given).
    double dt() const noexcept { return dt_; }
    /// The sum of all time steps the agent has ticked.
    double time() const noexcept;
    /// The host object the agent was made for (seed 000's m_host).
    void* host() const noexcept;
    /// The host as a Host. @warning the agent must have been given one, of that type.
    template <typename Host>
    Host& host() const noexcept {
        return *static_cast<Host*>(host());
    }
    canopy::blackboard blackboard() const noexcept;
    /// The next number from the agent's own generator (seeded when the agent was made).
    std::uint64_t random() const noexcept;

    /// This node's per-agent state (see stateful_node).
    template <typename State>
    State& state() const noexcept {
        return *std::launder(static_cast<State*>(state_pointer()));
    }

    // ---- for composites and decorators ----

    canopy::tree::child_range children() const { return tree().children(node_); }
    /// Ticks a child: enters it if it is idle, ticks it, exits it if it finishes.
    status tick(canopy::tree::index child);
    /// Halts a child and everything running below it; no-op if the child is idle.
    void halt(canopy::tree::index child);
    /// Halts every running child of this node.
    void halt_children();
    /// Whether the child is running (entered and not yet finished).
    bool is_running(canopy::tree::index child) const noexcept;
    /// The status the child's last tick returned (idle if not ticked since it was cleared).
    status last_status(canopy::tree::index child) const noexcept;
    /// Forgets a finished child's last status (it becomes idle); a running child is halted.
    void clear(canopy::tree::index child);
    /// The running child, or canopy::tree::no_parent if none is running.
    canopy::tree::index running_child() const noexcept;

private:
    friend class agent;
    context(agent& a, double dt) : agent_(&a), dt_(dt) {}
    void* state_pointer() const noexcept;

    agent* agent_;
    double dt_;
    canopy::tree::index node_ = 0;
};

}  // namespace canopy
