#pragma once
// The demos behind the trees in data/, as one table the CLI (`canopy run`) and the tests use:
// each demo's node types, and the world its leaves act on, one host per agent.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/fwd.hpp"
#include "canopy/run/host.hpp"

namespace canopy::demo {

/// A demo's world for a number of agents: one host per agent, which the demo's leaves reach
/// through context::host, moved on by whoever runs the agents before each of their ticks.
class world {
public:
    virtual ~world() = default;
    /// The host of agent i, to make the agent with.
    virtual host_ref host(std::size_t i) = 0;
    /// Moves agent i's world on by dt seconds before the agent's tick, writing to the agent's
    /// blackboard what the demo keeps there.
    virtual void before_tick(std::size_t i, agent& a, double dt) = 0;
    /// One line about agent i's world, e.g. "3 coins picked up; ...".
    virtual std::string describe(std::size_t i) const = 0;
    /// The size of one host in bytes.
    virtual std::size_t host_bytes() const noexcept = 0;
    /// Agent i's world as bytes, for `canopy run --save-state`: every demo's host is plain
    /// data, saved as it is.
    virtual std::string save(std::size_t i) const = 0;
    /// Gives agent i's world back from save()'s bytes; false, changing nothing, for bytes of
    /// another demo's world.
    virtual bool restore(std::size_t i, std::string_view saved) = 0;
};

/// One demo pack: its name, its node types, and how to make its world.
struct pack {
    std::string_view name;  ///< "pet", "hornet" or "idle", as the file in data/
    void (*register_nodes)(registry& reg);
    /// Makes the hosts of `agents` agents; agent i's is seeded with seed + i, as the agent is.
    std::unique_ptr<world> (*make_world)(std::size_t agents, std::uint64_t seed);
};

/// Every demo pack: pet (seed 000, type ids 100-105), hornet (seed 004, 110-114), idle (seed 003,
/// 130).
const std::vector<pack>& packs();

/// Registers the node types and blackboard keys of every demo.
void register_demo_nodes(registry& reg);

/// The pack whose node types `t` uses, or null when it uses none (built-in types only).
/// @warning throws canopy::error when it uses the types of two packs: an agent has one host.
const pack* pack_for(const tree& t);

}  // namespace canopy::demo
