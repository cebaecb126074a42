#pragma once

#include <cstdint>
#include <string>

#include "canopy/core/fwd.hpp"
#include "world_random.hpp"

namespace canopy::demo {

/// The world of one pet from seed 000 (its m_host): a field with the owner standing at the
/// origin, the pet somewhere on it, and now and then a coin dropping near the pet and lying
/// there for a while. Distances are in metres, times in seconds.
struct pet_world {
    explicit pet_world(std::uint64_t seed);

    double x = 0.0;  ///< where the pet is
    double y = 0.0;
    int heading = 0;    ///< which of eight ways the pet wanders, 0 east, counterclockwise
    bool coin = false;  ///< whether a coin lies on the field
    double coin_x = 0.0;
    double coin_y = 0.0;
    double coin_left = 0.0;     ///< how long the coin still lies there before someone else takes it
    double next_coin_in = 0.0;  ///< with no coin, how long until one drops
    double since_coin = 0.0;    ///< time since the pet last picked a coin up
    double away = 0.0;          ///< time the pet has been far from its owner
    std::int64_t coins = 0;     ///< coins picked up
    world_random random;
};

/// Registers the leaf types of the pet from seed 000 (data/pet.json), type ids 100 to 105: a
/// pet that picks up coins it sees, goes back to its owner when it has found no coin and been
/// away for a long time, and else wanders. The leaves act on the agent's host, a pet_world;
/// an agent made without one fails its conditions and actions.
void register_pet_nodes(registry& reg);

/// Moves the world on by dt before the agent's tick: time passes, coins drop and vanish.
void advance(pet_world& world, agent& a, double dt);

/// One line about the world: "3 coins picked up; the pet is 2.5 m from its owner".
std::string describe(const pet_world& world);

}  // namespace canopy::demo
