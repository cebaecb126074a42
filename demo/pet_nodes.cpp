#include "pet_nodes.hpp"

#include <cmath>
#include <cstdio>

#include "canopy/run/agent.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::demo {
namespace {

constexpr double sight = 5.0;              // a coin this near is "nearby"
constexpr double owner_radius = 3.0;       // farther than this, the pet is away from its owner
constexpr double at_owner = 1.0;           // GoToOwner stops this near
constexpr double run_speed = 2.0;          // m/s, to a coin or back to the owner
constexpr double wander_speed = 1.5;       // m/s
constexpr double long_time_no_coin = 3.0;  // s
constexpr double long_away = 2.0;          // s
constexpr double coin_lies_for = 4.0;      // s
constexpr double coin_drop_range = 4.0;    // a coin drops this far from the pet at most, per axis

double distance(double x, double y) {
    return std::sqrt(x * x + y * y);
}

double owner_distance(const pet_world& w) {
    return distance(w.x, w.y);
}

double coin_distance(const pet_world& w) {
    return distance(w.coin_x - w.x, w.coin_y - w.y);
}

void schedule_next_coin(pet_world& w) {
    w.next_coin_in = w.random.uniform(1.0, 3.0);
}

// Moves the pet up to `step` metres towards (x, y); true once it is there.
bool step_towards(pet_world& w, double x, double y, double step) {
    const double dx = x - w.x;
    const double dy = y - w.y;
    const double d = distance(dx, dy);
    if (d <= step) {
        w.x = x;
        w.y = y;
        return true;
    }
    w.x += dx / d * step;
    w.y += dy / d * step;
    return false;
}

// The pet of the agent being ticked, or null when the agent was made without one.
pet_world* pet_of(const context& ctx) {
    return ctx.host_or_null<pet_world>();
}

status pick_up_coin(context& ctx) {
    pet_world* w = pet_of(ctx);
    if (w == nullptr || !w->coin) return status::failure;  // gone before the pet got there
    if (!step_towards(*w, w->coin_x, w->coin_y, run_speed * ctx.dt())) return status::running;
    w->coin = false;
    ++w->coins;
    w->since_coin = 0.0;
    schedule_next_coin(*w);
    return status::success;
}

status go_to_owner(context& ctx) {
    pet_world* w = pet_of(ctx);
    if (w == nullptr) return status::failure;
    step_towards(*w, 0.0, 0.0, run_speed * ctx.dt());
    if (owner_distance(*w) > at_owner) return status::running;
    w->away = 0.0;
    return status::success;
}

// One step in one of eight directions, keeping on the same way for a while: the turns are
// drawn from the agent's own generator.
status wander(context& ctx) {
    pet_world* w = pet_of(ctx);
    if (w == nullptr) return status::failure;
    static constexpr double diagonal = 0.70710678118654752;  // sqrt(1/2)
    static constexpr double directions[8][2] = {
        {1, 0},  {diagonal, diagonal},   {0, 1},  {-diagonal, diagonal},
        {-1, 0}, {-diagonal, -diagonal}, {0, -1}, {diagonal, -diagonal}};
    if (ctx.random() % 4 == 0) w->heading = static_cast<int>(ctx.random() % 8);
    const auto* d = directions[w->heading];
    const double step = wander_speed * ctx.dt();
    w->x += d[0] * step;
    w->y += d[1] * step;
    return status::success;
}

}  // namespace

pet_world::pet_world(std::uint64_t seed) : random(seed ^ 0x7065742d776f726cULL) {  // "pet-worl"
    schedule_next_coin(*this);
}

// Seed 000 reused two leaf types for all six leaves; each gets its own here, so that the
// printed tree and a designer's file say what each leaf does.
void register_pet_nodes(registry& reg) {
    reg.add_condition(
        "CoinNearby",
        [](context& ctx) {
            const pet_world* w = pet_of(ctx);
            return w != nullptr && w->coin && coin_distance(*w) <= sight;
        },
        100);
    reg.add_action("PickUpCoin", pick_up_coin, 101);
    reg.add_condition(
        "LongTimeNoCoin",
        [](context& ctx) {
            const pet_world* w = pet_of(ctx);
            return w != nullptr && w->since_coin >= long_time_no_coin;
        },
        102);
    reg.add_condition(
        "LongAwayFromOwner",
        [](context& ctx) {
            const pet_world* w = pet_of(ctx);
            return w != nullptr && w->away >= long_away;
        },
        103);
    reg.add_action("GoToOwner", go_to_owner, 104);
    reg.add_action("Wander", wander, 105);
}

void advance(pet_world& world, agent& /*a*/, double dt) {
    world.since_coin += dt;
    world.away = owner_distance(world) > owner_radius ? world.away + dt : 0.0;
    if (world.coin) {
        world.coin_left -= dt;
        if (world.coin_left <= 0.0) {
            world.coin = false;
            schedule_next_coin(world);
        }
    } else {
        world.next_coin_in -= dt;
        if (world.next_coin_in <= 0.0) {
            world.coin = true;
            world.coin_x = world.x + world.random.uniform(-coin_drop_range, coin_drop_range);
            world.coin_y = world.y + world.random.uniform(-coin_drop_range, coin_drop_range);
            world.coin_left = coin_lies_for;
        }
    }
}

std::string describe(const pet_world& world) {
    char text[160];
    std::snprintf(text, sizeof text, "%lld coin%s picked up; the pet is %.1f m from its owner",
                  static_cast<long long>(world.coins), world.coins == 1 ? "" : "s",
                  owner_distance(world));
    std::string line = text;
    if (world.coin) {
        std::snprintf(text, sizeof text, ", a coin %.1f m from the pet", coin_distance(world));
        line += text;
    }
    return line;
}

}  // namespace canopy::demo
