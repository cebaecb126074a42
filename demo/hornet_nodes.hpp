#pragma once

#include <cstdint>
#include <string>

#include "canopy/core/fwd.hpp"
#include "world_random.hpp"

namespace canopy::demo {

/// The arena of one fight with Hornet, the boss of seed 004: a hall 20 m wide, Hornet and the
/// player somewhere across it. The player runs at Hornet and strikes when close; what Hornet
/// does is the tree's choice, made from the blackboard (`health`, `distance`).
struct hornet_arena {
    explicit hornet_arena(std::uint64_t seed);

    static constexpr double width = 20.0;  ///< metres, wall to wall

    double hornet_at = 0.0;  ///< metres from the left wall
    double player_at = 0.0;
    double health = 100.0;  ///< Hornet's, from 100 down
    // What Hornet has done, for describe().
    std::int64_t evades = 0;
    std::int64_t dashes = 0;
    std::int64_t quick_moves = 0;
    std::int64_t strikes = 0;  ///< the strikes of aggressive attacks
    std::int64_t needles = 0;  ///< ranged attacks
    world_random random;

    double distance() const noexcept;
};

/// Registers Hornet's actions, type ids 110 to 114 (Evade, AssassinDash, QuickMove,
/// RangedAttack, AggressiveAttack), and the blackboard keys `health` and `distance` (numbers)
/// that data/hornet.json checks with CheckBlackboard. The actions act on the agent's host, a
/// hornet_arena; they fail once Hornet is defeated (health 0), or for an agent without one.
void register_hornet_nodes(registry& reg);

/// Moves the fight on by dt before the agent's tick: the player runs at Hornet or strikes
/// her; then writes her health and the player's distance to the agent's blackboard.
void advance(hornet_arena& arena, agent& a, double dt);

/// One line about the fight: "health 24, the player 6.5 m away; so far 2 evades, 3 dashes".
std::string describe(const hornet_arena& arena);

}  // namespace canopy::demo
