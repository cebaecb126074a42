#include "hornet_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "canopy/run/agent.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/stateful_node.hpp"

namespace canopy::demo {
namespace {

constexpr double player_speed = 5.0;           // m/s
constexpr double player_reach = 2.0;           // the player strikes Hornet this near
constexpr double player_hit_chance = 0.6;      // per tick in reach
constexpr double player_retreat_chance = 0.1;  // per tick: he jumps back instead
constexpr double player_retreat = 3.0;         // m
constexpr double evade_leap = 6.0;             // m
constexpr double dash_beyond = 2.5;            // m past the player
constexpr double quick_move_step = 2.5;        // m
constexpr double strike_step = 1.5;            // m closer with each strike of an aggressive attack

double clamp_to_hall(double at) {
    return std::clamp(at, 0.0, hornet_arena::width);
}

// +1 when the player is to Hornet's right, else -1.
double towards_player(const hornet_arena& arena) {
    return arena.player_at >= arena.hornet_at ? 1.0 : -1.0;
}

// Moves Hornet up to `step` metres towards the player, stopping `short_of` metres before him.
void close_in(hornet_arena& arena, double step, double short_of) {
    const double gap = std::max(0.0, arena.distance() - short_of);
    arena.hornet_at += towards_player(arena) * std::min(step, gap);
}

// The arena of the agent being ticked while Hornet can still act in it: null once she is
// defeated, or when the agent was made without an arena.
hornet_arena* fighting(const context& ctx) {
    auto* arena = ctx.host_or_null<hornet_arena>();
    return arena != nullptr && arena->health > 0 ? arena : nullptr;
}

// Leaps away from the player; against a wall, over his head to the other side.
status evade(context& ctx) {
    hornet_arena* arena = fighting(ctx);
    if (arena == nullptr) return status::failure;
    const double away = -towards_player(*arena);
    double landing = clamp_to_hall(arena->hornet_at + away * evade_leap);
    if (std::abs(landing - arena->player_at) < evade_leap / 2) {
        landing = clamp_to_hall(arena->player_at - away * evade_leap);
    }
    arena->hornet_at = landing;
    ++arena->evades;
    return status::success;
}

// Dashes through the player and lands past him.
status assassin_dash(context& ctx) {
    hornet_arena* arena = fighting(ctx);
    if (arena == nullptr) return status::failure;
    arena->hornet_at = clamp_to_hall(arena->player_at + towards_player(*arena) * dash_beyond);
    ++arena->dashes;
    return status::success;
}

status quick_move(context& ctx) {
    hornet_arena* arena = fighting(ctx);
    if (arena == nullptr) return status::failure;
    close_in(*arena, quick_move_step, 1.0);
    ++arena->quick_moves;
    return status::success;
}

status ranged_attack(context& ctx) {
    hornet_arena* arena = fighting(ctx);
    if (arena == nullptr) return status::failure;
    ++arena->needles;
    return status::success;
}

// A flurry of `strikes` strikes, one per tick, each a step closer to the player: running
// until the last. The strikes left are the node's per-agent state (seed 003's enter and
// execute, with the count kept out of the shared node).
class aggressive_attack final : public stateful_node<std::int64_t> {
public:
    aggressive_attack() {
        if (*strikes_ < 1) throw canopy::param_error("'strikes' must be at least 1");
    }
    void enter(context& ctx) const override { state(ctx) = *strikes_; }
    status tick(context& ctx) const override {
        hornet_arena* arena = fighting(ctx);
        if (arena == nullptr) return status::failure;
        close_in(*arena, strike_step, 0.5);
        ++arena->strikes;
        return --state(ctx) > 0 ? status::running : status::success;
    }

private:
    setting<int> strikes_{"strikes", 3};
};

}  // namespace

hornet_arena::hornet_arena(std::uint64_t seed)
    : random(seed ^ 0x686f726e65742121ULL) {  // "hornet!!"
    hornet_at = random.uniform(15.0, 18.0);
    player_at = random.uniform(1.0, 4.0);
}

double hornet_arena::distance() const noexcept {
    return std::abs(player_at - hornet_at);
}

void register_hornet_nodes(registry& reg) {
    reg.add_key("health", param_type::number);
    reg.add_key("distance", param_type::number);
    reg.add_action("Evade", evade, 110);
    reg.add_action("AssassinDash", assassin_dash, 111);
    reg.add_action("QuickMove", quick_move, 112);
    reg.add_action("RangedAttack", ranged_attack, 113);
    reg.add<aggressive_attack>("AggressiveAttack", 114);
}

void advance(hornet_arena& arena, agent& a, double dt) {
    // The player: now and then he jumps back; else he runs at Hornet and strikes when near.
    const double to_hornet = arena.hornet_at >= arena.player_at ? 1.0 : -1.0;
    if (arena.random.chance(player_retreat_chance)) {
        arena.player_at =
            std::clamp(arena.player_at - to_hornet * player_retreat, 0.0, hornet_arena::width);
    } else {
        arena.player_at +=
            to_hornet * std::min(player_speed * dt, std::max(0.0, arena.distance() - 1.0));
        if (arena.distance() <= player_reach && arena.random.chance(player_hit_chance)) {
            arena.health = std::max(0.0, arena.health - arena.random.uniform(10.0, 20.0));
        }
    }
    blackboard board = a.blackboard();
    const std::uint32_t health = board.find("health");
    const std::uint32_t distance = board.find("distance");
    if (health != blackboard::npos) board.set(health, arena.health);
    if (distance != blackboard::npos) board.set(distance, arena.distance());
}

std::string describe(const hornet_arena& arena) {
    char text[80];
    if (arena.health > 0) {
        std::snprintf(text, sizeof text, "health %.0f, the player %.1f m away", arena.health,
                      arena.distance());
    } else {
        std::snprintf(text, sizeof text, "defeated, the player %.1f m away", arena.distance());
    }
    std::string line = text;
    const char* separator = "; so far ";
    auto count = [&](std::int64_t n, const char* one, const char* many) {
        if (n == 0) return;
        line += separator + std::to_string(n) + ' ' + (n == 1 ? one : many);
        separator = ", ";
    };
    count(arena.evades, "evade", "evades");
    count(arena.dashes, "dash", "dashes");
    count(arena.quick_moves, "quick move", "quick moves");
    count(arena.strikes, "strike", "strikes");
    count(arena.needles, "needle", "needles");
    return line;
}

}  // namespace canopy::demo
