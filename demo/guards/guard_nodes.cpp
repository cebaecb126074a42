#include "guard_nodes.hpp"

#include <algorithm>

#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"

namespace canopy::demo {
namespace {

// Runs at the intruder: closes `distance` by `speed` a second, writes what is left to
// `remaining`, and succeeds once within `reach`.
class chase final : public node {
public:
    status tick(context& ctx) const override {
        const double left = std::max(0.0, distance_.get(ctx) - speed_.get(ctx) * ctx.dt());
        remaining_.set(ctx, left);
        return left <= reach_.get(ctx) ? status::success : status::running;
    }

private:
    input<double> speed_{"speed", 2.0};
    input<double> distance_{"distance"};
    input<double> reach_{"reach", 1.0};
    output<double> remaining_{"remaining"};
};

// Stands at one post a tick: running until it has stood at `posts` of them, then success.
class patrol final : public stateful_node<std::int64_t> {
public:
    void enter(context& ctx) const override { state(ctx) = 0; }
    status tick(context& ctx) const override {
        return ++state(ctx) >= posts_.value() ? status::success : status::running;
    }

private:
    setting<std::int64_t> posts_{"posts", 3};
};

}  // namespace

void register_guard_nodes(registry& reg) {
    reg.add_condition(
        "SeeIntruder",
        [](context& ctx, double distance, double sight) {
            (void)ctx;
            return distance <= sight;
        },
        input<double>("distance"), setting<double>("sight", 8.0));
    reg.describe("SeeIntruder", "Whether the intruder is within sight",
                 {{"distance", "how far the intruder is, in metres"},
                  {"sight", "how far the guard sees, in metres"}});

    reg.add<chase>("Chase");
    reg.describe("Chase", "Runs at the intruder until within reach",
                 {{"speed", "metres per second"},
                  {"distance", "how far the intruder is, in metres"},
                  {"reach", "how near is near enough, in metres"},
                  {"remaining", "how far the intruder is after this tick's run"}});

    reg.add_action(
        "Alert",
        [](context& ctx, std::string_view message, const output<bool>& raised) {
            (void)message;
            raised.set(ctx, true);
            return status::success;
        },
        input<std::string_view>("message"), output<bool>("raised"));
    reg.describe("Alert", "Raises the alarm for the other guards",
                 {{"message", "what the guard shouts"}, {"raised", "set when the alarm is up"}});

    reg.add<patrol>("Patrol");
    reg.describe("Patrol", "Walks the round of posts, one a tick", {{"posts", "how many posts"}});
}

}  // namespace canopy::demo
