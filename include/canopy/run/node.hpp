#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <type_traits>

#include "canopy/core/fwd.hpp"
#include "canopy/core/status.hpp"

namespace canopy {

/// How much per-agent state a node object needs.
struct state_layout {
    std::size_t size = 0;
    std::size_t align = 1;
};

/// The behaviour of one tree node, made by its type's creator from the node's parameters.
///
/// A tree owns one per node and shares it, const, between every agent that runs the tree:
/// anything that changes while an agent runs lives in that agent's state block (see state()
/// and stateful_node). The runtime calls, for each agent:
///   - enter() on the first tick after the node was idle,
///   - tick() on every tick, until it returns success or failure,
///   - exit() right after the tick that finished it, with that result,
///   - halt() instead, when a parent abandons it while it is running.
/// Every enter() is matched by exactly one exit() or halt().
class node {
public:
    /// The calls around tick() a class may override.
    enum class hook : std::uint8_t { enter = 1, exit = 2, halt = 4 };

    /// A node whose class may override all of enter, exit and halt.
    node() = default;
    node(const node&) = delete;
    node& operator=(const node&) = delete;
    virtual ~node() = default;

    virtual void enter(context& ctx) const;
    virtual status tick(context& ctx) const = 0;
    virtual void exit(context& ctx, status result) const;
    virtual void halt(context& ctx) const;

    /// The per-agent state this node needs; none by default.
    virtual state_layout state() const { return {}; }
    /// Constructs that state in fresh storage of state().size bytes, when an agent is made.
    virtual void construct_state(void* storage) const;

    /// Refuses, by throwing an exception derived from std::exception, a child count this node
    /// cannot work with (beyond what its type's arity says: IfThenElse takes two or three).
    /// The loader calls it once per node and reports the message at the node's record.
    virtual void check_children(std::size_t count) const;

    /// Whether the runtime calls this hook: true unless the class said it does not use it.
    bool uses(hook h) const noexcept { return (used_hooks_ & static_cast<std::uint8_t>(h)) != 0; }

protected:
    /// For a class that overrides only some of enter, exit and halt, or none: lists those it
    /// does, and the runtime skips the calls to the others (a virtual call saved per visit).
    explicit node(std::initializer_list<hook> used) noexcept : used_hooks_(0) {
        for (hook h : used)
            used_hooks_ = static_cast<std::uint8_t>(used_hooks_ | static_cast<std::uint8_t>(h));
    }

private:
    std::uint8_t used_hooks_ = 0x7;
};

/// A node whose per-agent state is a State, constructed as State{} for each agent. State
/// must be trivially destructible: agents free their blocks without running destructors.
template <typename State>
class stateful_node : public node {
    static_assert(std::is_trivially_destructible_v<State>,
                  "a node's per-agent State must be trivially destructible: keep handles, not "
                  "owners (an index, not a std::string or std::vector)");

public:
    stateful_node() = default;
    state_layout state() const override { return {sizeof(State), alignof(State)}; }
    void construct_state(void* storage) const override { ::new (storage) State{}; }

protected:
    explicit stateful_node(std::initializer_list<hook> used) noexcept : node(used) {}
};

}  // namespace canopy
