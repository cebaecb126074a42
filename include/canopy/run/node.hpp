#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "canopy/core/fwd.hpp"
#include "canopy/core/status.hpp"

namespace canopy {

/// How much per-agent state a node object needs.
struct state_layout {
    std::size_t size = 0;
    std::size_t align = 1;
    /// Whether the state owns something (a std::vector, a std::string): the agent then calls
    /// node::destroy_state before it frees the storage or constructs the state anew.
    bool owns = false;
    /// Whether a snapshot (agent::save) keeps the state as its bytes: a trivially copyable
    /// state that holds no pointer or handle, whose bytes mean the same in another process.
    /// A state that is not is saved by node::save_state, if the class overrides it.
    bool saved_as_bytes = false;
};

/// The behaviour of one tree node, made by its type's creator from the node's parameters.
///
/// A tree owns one per node and shares it, const, between every agent that runs the tree:
/// anything that changes while an agent runs lives in that agent's state block (see
/// stateful_node). The runtime calls, for each agent:
///   - enter() on the first tick after the node was idle,
///   - tick() on every tick, until it returns success or failure,
///   - exit() right after the tick that finished it, with that result,
///   - halt() instead, when a parent abandons it while it is running.
/// Every enter() is matched by exactly one exit() or halt(). In a BehaviorTree.CPP file's
/// tree, a node with children whose tick returned skipped (exit() told so) may also be
/// halted later, where its parent resets it, as 4.10 halts a node a skip left running
/// (context::left_running); observers hear no halt then.
///
/// registry::add<Node> finds which of enter, exit and halt Node overrides (publicly), and the
/// runtime calls only those: a class needs to say nothing for it.
class node {
public:
    /// The calls around tick() a class may override, as bits of node_type::hooks.
    enum class hook : std::uint8_t { enter = 1, exit = 2, halt = 4 };
    /// Every hook: what a node made by a hand-written node_creator gets.
    static constexpr std::uint8_t all_hooks = 7;

    node() = default;
    node(const node&) = delete;
    node& operator=(const node&) = delete;
    virtual ~node() = default;

    virtual void enter(context& ctx) const;
    virtual status tick(context& ctx) const = 0;
    virtual void exit(context& ctx, status result) const;
    virtual void halt(context& ctx) const;
    /// Hears an event the program posted to the agent (agent::post_event) between ticks,
    /// while this node is running; does nothing by default. A node that waits for an event
    /// notes it in its state here and acts on it at its next tick. A node whose type listens
    /// while idle (node_type::listens_while_idle) hears every event whatever its status, and
    /// the agent's own (agent_event); it may tick its children here (ctx.tick), a run of
    /// them outside the tree's tick, which it must leave halted.
    virtual void on_event(context& ctx, std::string_view event) const;

    /// The per-agent state this node needs; none by default.
    virtual state_layout state() const { return {}; }
    /// Constructs that state in fresh storage of state().size bytes, when an agent is made or
    /// reset. When an agent is made it may throw (bad_alloc, say): the agent is not made, and
    /// the states made before it are destroyed. A reset cannot fail: a throw there ends the
    /// program (std::terminate).
    virtual void construct_state(void* storage) const;
    /// Destroys that state, when the agent is freed or reset; called only when state().owns.
    virtual void destroy_state(void* storage) const noexcept;
    /// Appends to `out` what restore_state needs to give the state back, for a snapshot
    /// (agent::save, docs/snapshots.md); called only for a state not saved_as_bytes. Returns
    /// false, the default, when the state cannot be saved: saving an agent in which the node
    /// runs is then refused, and an idle one starts afresh when the snapshot is restored.
    virtual bool save_state(const void* storage, std::string& out) const;
    /// Gives back, in a state just constructed, what save_state wrote. Throws an exception
    /// derived from std::exception for bytes it cannot read: the restore is refused.
    virtual void restore_state(void* storage, std::string_view saved) const;

    /// Refuses, by throwing an exception derived from std::exception, a child count this node
    /// cannot work with (beyond what its type's arity says: IfThenElse takes two or three).
    /// The loader calls it once per node and reports the message at the node's record: a
    /// warning for unused_children, an error for anything else.
    virtual void check_children(std::size_t count) const;
};

/// What check_children() throws for more children than the node uses, when it works on with
/// the first ones and never ticks the rest (as behavior3-ts runs a Watchdog of four
/// children): the load goes on, with the message as a warning.
class unused_children : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What check_children() throws for a child count that BehaviorTree.CPP 4.10's node refuses
/// only when it ticks (IfThenElse, WhileDoElse): a BehaviorTree.CPP file's tree
/// (tree_layout::fails_as_btcpp) loads with the message as a warning and the node's tick
/// throws it; any other tree is refused at load.
class children_refused_at_tick : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What an agent tells the nodes that listen while idle (node_type::listens_while_idle), as
/// events of these names: the moments behavior3's tree events name, and the start of each
/// tick, after the clock has advanced, for nodes that keep time between ticks. Programs
/// cannot post names that start with `prefix`.
namespace agent_event {
/// What every name of the agent's own events starts with.
inline constexpr std::string_view prefix = "canopy:";
/// Whether `event` is one of the agent's own.
constexpr bool is_own(std::string_view event) noexcept {
    return event.substr(0, prefix.size()) == prefix;
}
/// A tick starts: the clock has advanced by its step; the root is ticked next.
inline constexpr std::string_view tick = "canopy:tick";
/// Before the root is ticked when it was not running: a run of the tree starts.
inline constexpr std::string_view run_starting = "canopy:run_starting";
/// After a tick whose root finished (success or failure).
inline constexpr std::string_view run_finished = "canopy:run_finished";
/// After run_finished, when the root succeeded.
inline constexpr std::string_view run_succeeded = "canopy:run_succeeded";
/// After run_finished, when the root failed.
inline constexpr std::string_view run_failed = "canopy:run_failed";
/// agent::reset() with the root running, before anything is halted.
inline constexpr std::string_view interrupted = "canopy:interrupted";
/// agent::reset(), first, before interrupted.
inline constexpr std::string_view cleared = "canopy:cleared";
}  // namespace agent_event

namespace detail {

/// The hooks Node overrides: `&Node::enter` has type `void (node::*)(context&) const` exactly
/// when no class between node and Node declares enter.
template <typename Node>
constexpr std::uint8_t overridden_hooks() noexcept {
    using enter_type = void (node::*)(context&) const;
    using exit_type = void (node::*)(context&, status) const;
    constexpr auto bit = [](bool overridden, node::hook h) {
        return overridden ? static_cast<unsigned>(h) : 0U;
    };
    return static_cast<std::uint8_t>(
        bit(!std::is_same_v<decltype(&Node::enter), enter_type>, node::hook::enter) |
        bit(!std::is_same_v<decltype(&Node::exit), exit_type>, node::hook::exit) |
        bit(!std::is_same_v<decltype(&Node::halt), enter_type>, node::hook::halt));
}

}  // namespace detail

}  // namespace canopy
