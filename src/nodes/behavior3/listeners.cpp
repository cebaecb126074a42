// behavior3-ts's Listen and Delay: decorators that succeed at once and run their child later,
// between the tree's ticks, when an event comes or a delay has passed (docs/behavior3.md,
// "Running a child between ticks"). Their types listen while idle, so the agent hands them
// every event and its own (agent_event) whatever their status; the run they start is halted
// if the child would go on running, as behavior3-ts pops the child's stack entries.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "nodes/behavior3/family.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// One run of a listener's child between ticks: ticked once, halted if it would run on.
void run_child_once(context& ctx) {
    const tree::index child = ctx.child();
    if (ctx.tick(child) == status::running) ctx.halt(child);
}

// The names behavior3's runtimes give their tree events, in each version (1.3.0's first),
// and the agent's event each one is.
struct tree_event_name {
    std::string_view behavior3;
    std::string_view canopy;
};
constexpr tree_event_name tree_event_names[] = {
    {"treeInterrupted", agent_event::interrupted},
    {"treeBeforeTicked", agent_event::run_starting},
    {"treeAfterTicked", agent_event::run_finished},
    {"treeTickedSuccess", agent_event::run_succeeded},
    {"treeTickedFailure", agent_event::run_failed},
    {"treeCleaned", agent_event::cleared},
    {"beforeRunTree", agent_event::run_starting},
    {"afterRunTree", agent_event::run_finished},
    {"afterRunTreeSuccess", agent_event::run_succeeded},
    {"afterRunTreeFailure", agent_event::run_failed},
    {"interrupted", agent_event::interrupted},
    {"beforeRun", agent_event::run_starting},
    {"afterRun", agent_event::run_finished},
    {"afterRunSuccess", agent_event::run_succeeded},
    {"afterRunFailure", agent_event::run_failed},
};

std::string heard_name(const std::string& event) {
    for (const tree_event_name& name : tree_event_names) {
        if (name.behavior3 == event) return std::string(name.canopy);
    }
    return event;
}

// Listen: its first tick starts listening for `event` and succeeds; from then on, until the
// agent is reset, each time the event comes the child runs once, at once. `event` is either one
// of behavior3's tree events (the tree starts or finishes a run, is interrupted or cleared)
// or an event the program posts (agent::post_event). The child is not ticked with the tree.
// The state: whether the node listens yet.
class listen final : public stateful_node<bool> {
public:
    static constexpr bool listens_while_idle = true;

    static std::vector<param_spec> parameters() {
        return {param_spec::required("event", param_type::string)};
    }
    explicit listen(const param_list& params)
        : event_(heard_name(params.get<std::string>("event"))) {
        if (event_.empty()) throw param_error("'event' names no event");
    }
    status tick(context& ctx) const override {
        state(ctx) = true;
        return status::success;
    }
    void on_event(context& ctx, std::string_view event) const override {
        if (state(ctx) && event == event_) run_child_once(ctx);
    }

private:
    std::string event_;
};

// Delay: each tick schedules one run of the child `delay` seconds later (on the agent's clock)
// and succeeds; the run happens at the start of the first tick at or past that time, before the
// root is ticked (behavior3-ts runs it from its context's timer update, which a host calls
// before ticking its trees). Up to `max_pending` runs wait at once per agent; a tick that would
// schedule one more fails instead, so that nothing is dropped unseen.
struct delay_state {
    static constexpr int max_pending = 16;
    std::int64_t due_ns[max_pending];  // in the order they come due
    int pending = 0;
};

class delay final : public stateful_node<delay_state> {
public:
    static constexpr bool listens_while_idle = true;

    static std::vector<param_spec> parameters() { return {param_spec::optional("delay", 0.0)}; }
    explicit delay(const param_list& params) : delay_(params, "delay") {
        if (!delay_.from_blackboard() && !(delay_.literal() >= 0)) {
            throw param_error("'delay' must be 0 or more, not " + std::to_string(delay_.literal()));
        }
    }

    status tick(context& ctx) const override {
        delay_state& s = state(ctx);
        if (s.pending == delay_state::max_pending) return status::failure;
        const double seconds = delay_.get(ctx);
        const std::int64_t due = ctx.time_ns() + seconds_to_ns(seconds > 0 ? seconds : 0);
        // After every run due no later, as behavior3-ts's timer list keeps them.
        int at = s.pending;
        while (at > 0 && s.due_ns[at - 1] > due) {
            s.due_ns[at] = s.due_ns[at - 1];
            --at;
        }
        s.due_ns[at] = due;
        ++s.pending;
        return status::success;
    }
    void on_event(context& ctx, std::string_view event) const override {
        if (event != agent_event::tick) return;
        delay_state& s = state(ctx);
        while (s.pending > 0 && s.due_ns[0] <= ctx.time_ns()) {
            for (int k = 1; k < s.pending; ++k) s.due_ns[k - 1] = s.due_ns[k];
            --s.pending;
            run_child_once(ctx);
        }
    }

private:
    input<double> delay_;
};

}  // namespace

void register_behavior3_listeners(registry& reg) {
    reg.add<listen>("behavior3.Listen", std::nullopt, arity::decorator);
    reg.add<delay>("behavior3.Delay", std::nullopt, arity::decorator);
}

}  // namespace canopy::detail
