#pragma once

#include <new>
#include <type_traits>

#include "canopy/run/context.hpp"
#include "canopy/run/node.hpp"

namespace canopy {

/// A node whose per-agent state is a State, constructed as State{} for each agent (override
/// construct_state for another first value). The node reaches it as state(ctx), typed by the
/// class itself, so the type is written once. State must be trivially destructible: agents
/// free their blocks without running destructors.
template <typename State>
class stateful_node : public node {
    static_assert(std::is_trivially_destructible_v<State>,
                  "a node's per-agent State must be trivially destructible: keep handles, not "
                  "owners (an index, not a std::string or std::vector)");

public:
    state_layout state() const override { return {sizeof(State), alignof(State)}; }
    void construct_state(void* storage) const override { ::new (storage) State{}; }

protected:
    /// This node's state in the agent being ticked.
    State& state(const context& ctx) const noexcept {
        return *std::launder(reinterpret_cast<State*>(ctx.state_storage()));
    }
};

}  // namespace canopy
