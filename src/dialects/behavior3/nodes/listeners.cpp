// behavior3-ts's Listen and Delay: decorators that succeed at once and run their child later,
// between the tree's ticks, when an event comes or a delay has passed (docs/behavior3.md,
// "Running a child between ticks"). Their types listen while idle, so the agent hands them
// every event and its own (agent_event) whatever their status; the run they start is halted
// if the child would go on running, as behavior3-ts pops the child's stack entries.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/event.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "core/bytes.hpp"
#include "dialects/behavior3/nodes/dynamic_io.hpp"
#include "dialects/behavior3/nodes/family.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// One run of a listener's child between ticks: ticked once, halted if it would run on.
// Then the running nodes hear its status (behavior3_ran_between_ticks).
void run_child_once(context& ctx) {
    const tree::index child = ctx.child();
    const status result = ctx.tick(child);
    if (result == status::running) ctx.halt(child);
    event_values ran;
    ran.arguments.emplace_back(static_cast<double>(result));
    ctx.deliver_event(behavior3_ran_between_ticks, ran);
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
//
// A posted event carries a target and arguments (event_values). Input 1, when wired, is the
// target listened to, read as the event comes: an array listens to each of its elements.
// Without it, or with null, Listen hears the events posted without a target, as behavior3-ts
// subscribes to its context. Before the child runs, output 1 gets the event's target and
// outputs 2 to 8 its arguments (null for one not posted); tree events have neither.
// The state: whether the node listens yet.
class listen final : public stateful_node<bool> {
public:
    static constexpr bool listens_while_idle = true;
    static constexpr int max_outputs = 8;

    static std::vector<param_spec> parameters() {
        std::vector<param_spec> specs = {param_spec::required("event", param_type::string),
                                         any_param("input1")};
        for (int k = 1; k <= max_outputs; ++k)
            specs.push_back(any_output("output" + std::to_string(k)));
        return specs;
    }
    explicit listen(const param_list& params)
        : event_(heard_name(params.get<std::string>("event"))), target_(params, "input1") {
        if (event_.empty()) throw param_error("'event' names no event");
        if (is_tree_event() && target_.given()) {
            throw param_error("'" + params.get<std::string>("event") +
                              "' is an event of the tree itself, which has no target: leave "
                              "input 1 out");
        }
        for (int k = 1; k <= max_outputs; ++k)
            outputs_[k - 1] = output_key(params, "output" + std::to_string(k));
    }
    // Its outputs are unset, as behavior3-ts's finished node writes undefined to each output
    // it did not fill; an event fills them.
    status tick(context& ctx) const override {
        state(ctx) = true;
        for (const std::uint32_t key : outputs_) unset_output(ctx.blackboard(), key);
        return status::success;
    }
    void on_event(context& ctx, std::string_view event) const override {
        if (!state(ctx) || event != event_) return;
        const event_values& values = ctx.event();
        blackboard board = ctx.blackboard();
        if (!is_tree_event()) {
            dynamic_value scratch;
            if (!listens_to(target_.get(board, scratch), values.target)) return;
        }
        for (int k = 0; k < max_outputs; ++k) {
            const dynamic_value& value = k == 0 ? values.target : argument(values, k - 1);
            if (!write_output(board, outputs_[k], value)) throw unfit_value(ctx, k, value);
        }
        run_child_once(ctx);
    }

private:
    // The tree events are heard by the names of the agent's own (heard_name).
    bool is_tree_event() const { return agent_event::is_own(event_); }
    static bool listens_to(const dynamic_value& listened, const dynamic_value& target) {
        const dynamic_value::array_type* targets = listened.array();
        if (targets == nullptr) return listened == target;
        return std::any_of(targets->begin(), targets->end(),
                           [&](const dynamic_value& t) { return t == target; });
    }
    static const dynamic_value& argument(const event_values& values, int k) {
        const auto at = static_cast<std::size_t>(k);
        return at < values.arguments.size() ? values.arguments[at] : dynamic_value::missing();
    }
    static error unfit_value(const context& ctx, int output, const dynamic_value& value) {
        const canopy::tree& t = ctx.tree();
        return {error_code::blackboard,
                "node " + std::to_string(t.record_id(ctx.node())) + " ('" +
                    std::string(t.type_name(ctx.node())) + "'): output " +
                    std::to_string(output + 1) + "'s variable cannot hold the event's " +
                    (output == 0 ? std::string("target") : "argument " + std::to_string(output)) +
                    ", " + value.to_json() + "; its child did not run"};
    }

    std::string event_;
    any_input target_;
    std::uint32_t outputs_[max_outputs] = {};
};

// Delay: each tick schedules one run of the child `delay` seconds later (on the agent's clock)
// and succeeds; the run happens at the start of the first tick at or past that time, before the
// root is ticked (behavior3-ts runs it from its context's timer update, which a host calls
// before ticking its trees). Up to `max_pending` runs wait at once per agent; a tick that would
// schedule one more fails instead, so that nothing is dropped unseen.
//
// `cacheVars` (read as the parameters cacheVars1, cacheVars2, ...: behavior3's reader wires
// each listed variable to one) keeps the variables' values at scheduling: the run sees them
// so, and afterwards each variable gets back the value it had before the run.
struct delay_state {
    static constexpr int max_pending = 16;
    std::int64_t due_ns[max_pending];  // in the order they come due
    int pending = 0;
    // The cached variables' values, one group per waiting run in the order of due_ns; empty
    // when the node caches none.
    std::vector<dynamic_value> cached;
};

class delay final : public stateful_node<delay_state> {
public:
    static constexpr bool listens_while_idle = true;
    static constexpr int max_cached = 8;

    static std::vector<param_spec> parameters() {
        std::vector<param_spec> specs = {param_spec::optional("delay", 0.0)};
        for (int k = 1; k <= max_cached; ++k)
            specs.push_back(any_param("cacheVars" + std::to_string(k)));
        return specs;
    }
    explicit delay(const param_list& params) : delay_(params, "delay") {
        if (!delay_.from_blackboard() && !(delay_.literal() >= 0)) {
            throw param_error("'delay' must be 0 or more, not " + std::to_string(delay_.literal()));
        }
        for (int k = 1; k <= max_cached; ++k) {
            const std::string name = "cacheVars" + std::to_string(k);
            const param* p = params.find_param(name);
            if (p == nullptr) continue;
            if (p->key == param::no_key) throw param_error("'" + name + "' must name a variable");
            cached_.push_back(p->key);
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
        if (!cached_.empty()) {
            const blackboard board = ctx.blackboard();
            const auto group = s.cached.begin() + static_cast<std::ptrdiff_t>(at * cached_.size());
            std::vector<dynamic_value> values;
            dynamic_value scratch;
            for (const std::uint32_t key : cached_)
                values.push_back(read_dynamic(board, key, scratch));
            s.cached.insert(group, values.begin(), values.end());
        }
        return status::success;
    }
    bool save_state(const void* storage, std::string& out) const override {
        const auto& s = *static_cast<const delay_state*>(storage);
        put(out, s.pending);
        for (int k = 0; k < s.pending; ++k) put(out, s.due_ns[k]);
        dynamic_value(s.cached).append_bytes(out);
        return true;
    }
    void restore_state(void* storage, std::string_view saved) const override {
        auto& s = *static_cast<delay_state*>(storage);
        byte_reader in(saved);
        const int pending = in.get<int>("a Delay's waiting runs");
        if (pending < 0 || pending > delay_state::max_pending)
            in.fail("a Delay's waiting runs", std::to_string(pending) + " of them");
        for (int k = 0; k < pending; ++k) s.due_ns[k] = in.get<std::int64_t>("a Delay's due time");
        const dynamic_value cached =
            dynamic_value::from_bytes(in.get_bytes(in.left(), "a Delay's cached values"));
        if (!cached.is_array() ||
            cached.array()->size() != cached_.size() * static_cast<std::size_t>(pending))
            in.fail("a Delay's cached values", "not one group per waiting run");
        s.pending = pending;
        s.cached = *cached.array();
    }
    void on_event(context& ctx, std::string_view event) const override {
        if (event != agent_event::tick) return;
        delay_state& s = state(ctx);
        while (s.pending > 0 && s.due_ns[0] <= ctx.time_ns()) {
            for (int k = 1; k < s.pending; ++k) s.due_ns[k - 1] = s.due_ns[k];
            --s.pending;
            if (cached_.empty()) {
                run_child_once(ctx);
                continue;
            }
            const auto group = s.cached.begin() + static_cast<std::ptrdiff_t>(cached_.size());
            std::vector<dynamic_value> kept(std::make_move_iterator(s.cached.begin()),
                                            std::make_move_iterator(group));
            s.cached.erase(s.cached.begin(), group);
            run_with(ctx, kept);
        }
    }

private:
    // Runs the child with the cached variables set to `values`, then puts back theirs.
    void run_with(context& ctx, std::vector<dynamic_value>& values) const {
        blackboard board = ctx.blackboard();
        dynamic_value scratch;
        for (std::size_t k = 0; k < cached_.size(); ++k) {
            dynamic_value before = read_dynamic(board, cached_[k], scratch);
            write_dynamic(board, cached_[k], values[k]);
            values[k] = std::move(before);
        }
        auto put_back = [&] {
            for (std::size_t k = 0; k < cached_.size(); ++k)
                write_dynamic(board, cached_[k], values[k]);
        };
        try {
            run_child_once(ctx);
        } catch (...) {
            put_back();
            throw;
        }
        put_back();
    }

    input<double> delay_;
    std::vector<std::uint32_t> cached_;
};

}  // namespace

void register_behavior3_listeners(registry& reg) {
    ensure_dynamic_type(reg);
    reg.add<listen>("behavior3.Listen", std::nullopt, arity::decorator);
    reg.add<delay>("behavior3.Delay", std::nullopt, arity::decorator);
}

}  // namespace canopy::detail
