// behavior3-ts's Wait and WaitForEvent (docs/behavior3.md, "The behavior3 node family").
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "dialects/behavior3/nodes/family.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// Wait: on its first tick sets a deadline `time` seconds (plus a uniform random offset in
// [-random/2, random/2)) from now and returns running, even for a time of 0; then succeeds on
// the first tick at or past the deadline. The offset comes from the agent's own generator, so
// a seeded agent waits the same each run.
struct wait_state {
    std::int64_t deadline_ns = 0;
    bool started = false;
};

class wait final : public stateful_node<wait_state> {
public:
    void enter(context& ctx) const override { state(ctx).started = false; }

    status tick(context& ctx) const override {
        wait_state& s = state(ctx);
        if (s.started) return ctx.time_ns() >= s.deadline_ns ? status::success : status::running;
        double seconds = time_.get(ctx);
        if (const double spread = random_.get(ctx); spread != 0) {
            // The top 53 bits as a double in [0, 1).
            const double unit = static_cast<double>(ctx.random() >> 11) * 0x1.0p-53;
            seconds += (unit - 0.5) * spread;
        }
        s.started = true;
        // NaN: a time behavior3-ts joins to its clock as text (a string, array or object),
        // which never comes.
        s.deadline_ns = std::isnan(seconds) ? std::numeric_limits<std::int64_t>::max()
                                            : ctx.time_ns() + seconds_to_ns(seconds);
        return status::running;
    }

private:
    input<double> time_{"time", 0.0};
    input<double> random_{"random", 0.0};
};

// WaitForEvent: running until the program posts `event` to the agent (agent::post_event)
// while the node runs; then success at the next tick. An event posted before the node started
// waiting is not seen: behavior3-ts subscribes on the node's first tick.
class wait_for_event final : public stateful_node<bool> {
public:
    // Whether the event came in this run.
    void enter(context& ctx) const override { state(ctx) = false; }
    status tick(context& ctx) const override {
        return state(ctx) ? status::success : status::running;
    }
    void on_event(context& ctx, std::string_view event) const override {
        if (event == *event_) state(ctx) = true;
    }

private:
    setting<std::string> event_{"event"};
};

}  // namespace

void register_behavior3_actions(registry& reg) {
    reg.add<wait>("behavior3.Wait", std::nullopt, arity::leaf);
    reg.add<wait_for_event>("behavior3.WaitForEvent", std::nullopt, arity::leaf);
}

}  // namespace canopy::detail
