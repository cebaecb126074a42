#pragma once

#include <new>
#include <type_traits>

#include "canopy/run/context.hpp"
#include "canopy/run/node.hpp"

namespace canopy {

/// Whether a snapshot keeps a State as its bytes (state_layout::saved_as_bytes): true for a
/// trivially copyable one. Specialize it as false for a state that holds a pointer or a
/// handle, which means nothing in another process, and override node::save_state and
/// restore_state to save what it points to, or leave them and the state is not saved.
template <typename State>
struct saved_as_bytes : std::is_trivially_copyable<State> {};

/// A node whose per-agent state is a State, constructed as State{} for each agent (override
/// construct_state for another first value). The node reaches it as state(ctx), typed by the
/// class itself, so the type is written once. A State that owns memory (a std::vector, say) is
/// destroyed with the agent and when it is reset; a trivially destructible one costs nothing
/// then. Either way it lives as long as the agent, not as long as one run of the node:
/// enter() is where a node starts a run afresh.
template <typename State>
class stateful_node : public node {
public:
    state_layout state() const override {
        return {sizeof(State), alignof(State), !std::is_trivially_destructible_v<State>,
                saved_as_bytes<State>::value};
    }
    void construct_state(void* storage) const override { ::new (storage) State{}; }
    void destroy_state(void* storage) const noexcept override {
        std::launder(reinterpret_cast<State*>(storage))->~State();
    }

protected:
    /// This node's state in the agent being ticked.
    State& state(const context& ctx) const noexcept {
        return *std::launder(reinterpret_cast<State*>(ctx.state_storage()));
    }
};

}  // namespace canopy
