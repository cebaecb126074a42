#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "canopy/core/error.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

/// What an agent does when a node throws as it ticks (agent::set_error_policy): whether one
/// agent's error stops the program's loop or stays that agent's. In every policy the agent
/// keeps the error (agent::last_error, agent::interruption) and tells its observers
/// (observer::on_error) before anything else happens.
enum class error_policy : std::uint8_t {
    /// The exception leaves agent::tick, as BehaviorTree.CPP's does; the nodes it left
    /// entered stay so until reset() or halt(). The default of Canopy's and BehaviorTree.CPP's
    /// trees.
    rethrow,
    /// The tick ends there: every running node is halted, children before parents, the
    /// blackboard stays, and tick() returns failure, as if the root had failed; the next tick
    /// starts the tree afresh.
    fail,
    /// The same, but tick() returns idle: the run was cut short rather than finished. The
    /// default of a behavior3 file's tree, as behavior3-ts's tree interrupts itself.
    halt,
};

/// The stable spelling of a policy: "rethrow", "fail", "halt".
std::string_view to_string(error_policy policy) noexcept;

/// An error out of a node that cut an agent's tick short, as the agent caught it.
struct node_error {
    /// The node that threw: the innermost one running, whose tick, enter, exit or condition
    /// script it was.
    tree::index node = 0;
    /// agent::ticks() of the tick it cut short.
    std::uint64_t tick = 0;
    /// The code of a canopy::error; none for another exception derived from std::exception.
    std::optional<error_code> code;
    /// The exception's what().
    std::string message;
    /// The same for people, naming the node, its type and, when the tree was read from a
    /// file, its line and column: `node 7 ('Attack', line 12, column 5): out of ammo`.
    std::string text;
};

}  // namespace canopy
