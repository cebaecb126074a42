// The decorators: Not, ForceSuccess/ForceFailure, the repeaters and Retry, RunOnce, Timeout,
// Delay, Cooldown, Precondition, RateController, Limiter, MaxTime and BehaviorTree.CPP 3's
// BlackboardCheckInt/Double/String. docs/nodes.md gives each one's semantics and how it
// differs from BehaviorTree.CPP and behavior3.
//
// A skipped child did nothing and is not running. Most decorators pass "skipped" on to their
// parent, as BehaviorTree.CPP 4's do, and a skip neither counts as an iteration nor starts a
// timer (docs/nodes.md, "Skipped").
//
// Every tick here does bounded work: a loop runs at most two iterations of its child per tick,
// and time is compared in the agent clock's whole nanoseconds, so "has `seconds` passed" has
// one exact answer whatever the time step.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/stateful_node.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// "0.25" rather than "0.250000".
std::string shown(double value) {
    std::string text = std::to_string(value);
    text.erase(text.find_last_not_of('0') + 1);
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

// A literal number of seconds must be 0 or more; one from the blackboard is read at each tick,
// where seconds_to_ns() makes a negative or NaN value 0.
void check_seconds(const input<double>& seconds) {
    if (!seconds.from_blackboard() && !(seconds.literal() >= 0)) {
        throw param_error("'seconds' must be 0 or more, not " + shown(seconds.literal()));
    }
}

// Not: a child's error stays an error (behavior3-ts's Invert).
class invert final : public node {
public:
    static constexpr bool waits_on_children = true;
    static constexpr bool sees_errors = true;
    status tick(context& ctx) const override {
        switch (const status result = ctx.tick(ctx.child())) {
            case status::success: return status::failure;
            case status::failure: return status::success;
            default: return result;  // running, skipped or error
        }
    }
};

// ForceSuccess and ForceFailure: the child's result once it finishes, replaced; running and
// skipped are passed on.
template <status forced>
class force final : public node {
public:
    static constexpr bool waits_on_children = true;
    status tick(context& ctx) const override {
        const status result = ctx.tick(ctx.child());
        return result == status::running || result == status::skipped ? result : forced;
    }
};

// Repeat (again = success, `count`) and Retry (again = failure, `attempts`), tick for tick as
// BehaviorTree.CPP 4 runs them in a tree its factory built:
//   - the other result ends the node with it; running returns running;
//   - after an iteration that ended with `again`, with more to go: if the child had been
//     running since an earlier tick, the next iteration starts in this same tick; if it was
//     entered in this tick, the node returns running and the next iteration starts next tick;
//   - the last iteration's result is returned at once.
// So a tick runs at most two iterations. The count is read at each iteration, so "{key}"
// works; 0, or anything below -1, returns `again` at once without ticking the child; -1 goes
// on for ever. A skipped child skips the node and keeps the count: the next activation goes
// on from it (BehaviorTree.CPP: "Don't reset the counter").
struct repeat_state {
    std::uint32_t done = 0;
    bool skipped = false;  // the last activation ended with a skipped child
};

template <status again>
class repeat final : public stateful_node<repeat_state> {
    static constexpr const char* param_name = again == status::success ? "count" : "attempts";

public:
    static constexpr bool waits_on_children = true;
    repeat() {
        if (!count_.from_blackboard() && count_.literal() < -1) {
            throw param_error(std::string("'") + param_name +
                              "' must be -1 (for ever) or 0 or more, not " +
                              std::to_string(count_.literal()));
        }
    }

    // Entering after a finish or a halt starts the count afresh; after a skip it goes on.
    // A halt after a skip (a BehaviorTree.CPP file's parent resetting the node a skip left
    // running, detail::left_running_code) starts it afresh too, as 4.10's halt does.
    void enter(context& ctx) const override {
        auto& s = state(ctx);
        if (!s.skipped) s.done = 0;
        s.skipped = false;
    }
    void halt(context& ctx) const override { state(ctx).skipped = false; }

    status tick(context& ctx) const override {
        // 32 bits keep an agent's block small; past 2^32 - 1 iterations (over four billion
        // ticks) the count stays there, as good as for ever.
        auto& done = state(ctx).done;
        const tree::index child = ctx.child();
        for (;;) {
            const std::int64_t count = count_.get(ctx);
            if (count != -1 && done >= count) return again;
            const bool was_running = ctx.is_running(child);
            const status result = ctx.tick(child);
            state(ctx).skipped = result == status::skipped;
            if (result == status::skipped) ctx.reset(child);  // as 4.10 resets it then
            if (result != again) return result;  // running, skipped, or the other result
            // Counted under -1 too, as BehaviorTree.CPP does: a count set later stops it.
            if (done != std::numeric_limits<std::uint32_t>::max()) ++done;
            if (count != -1 && done >= count) return again;
            if (!was_running) return status::running;  // one whole iteration this tick
        }
    }

private:
    input<std::int64_t> count_{param_name};
};

// RepeatUntilSuccess and RepeatUntilFailure (KeepRunningUntilFailure): tick the child once per
// tick, returning running, until it returns `until`, which the node then returns. A skipped
// child: RepeatUntilFailure keeps running, as BehaviorTree.CPP's KeepRunningUntilFailure
// does; RepeatUntilSuccess is skipped, as BehaviorTree.CPP's RetryUntilSuccessful is.
template <status until>
class repeat_until final : public node {
public:
    static constexpr bool waits_on_children = true;
    status tick(context& ctx) const override {
        const status result = ctx.tick(ctx.child());
        if (result == until) return until;
        if (result == status::skipped && until == status::success) return status::skipped;
        return status::running;
    }
};

// Ticks the child until it first finishes (success or failure), returning its result; from
// then on, without ticking the child again until the agent is reset, returns skipped
// (then_skip true, the default, as BehaviorTree.CPP's) or that first result (then_skip
// false). then_skip is read at each tick. A child halted while running, or skipped, has not
// finished: it is ticked again on the next activation.
class run_once final : public stateful_node<status> {
public:
    static constexpr bool waits_on_children = true;
    status tick(context& ctx) const override {
        auto& first_result = state(ctx);
        if (first_result != status::idle) {
            return then_skip_.get(ctx) ? status::skipped : first_result;
        }
        const status result = ctx.tick(ctx.child());
        if (result == status::success || result == status::failure) first_result = result;
        return result;
    }

private:
    input<bool> then_skip_{"then_skip", true};
};

// Fails, halting the child without ticking it, on the first tick at which at least `seconds`
// of agent time have passed since the node was entered; until then ticks the child. No time
// (0, or less from a key) is no timeout, as BehaviorTree.CPP's msec="0".
class timeout final : public stateful_node<std::int64_t> {
public:
    static constexpr bool waits_on_children = true;
    timeout() { check_seconds(seconds_); }
    void enter(context& ctx) const override {
        if (!ctx.left_running()) state(ctx) = ctx.time_ns();  // else 4.10's timer goes on
    }
    status tick(context& ctx) const override {
        const std::int64_t elapsed = ctx.time_ns() - state(ctx);
        const std::int64_t limit = seconds_to_ns(seconds_.get(ctx));
        if (limit > 0 && elapsed >= limit) {
            ctx.halt(ctx.child());
            return status::failure;
        }
        // A world's agent sleeps through a running child no later than the tick that fails.
        if (limit > 0) ctx.unchanged_until(state(ctx) + limit);
        return ctx.tick(ctx.child());
    }

private:
    input<double> seconds_{"seconds"};
};

// Returns running on the tick it is entered; from the first tick at which at least `seconds`
// have passed since then, ticks the child and returns its result. Each activation waits anew.
class delay final : public stateful_node<std::int64_t> {
    static constexpr std::int64_t not_started = std::numeric_limits<std::int64_t>::min();

public:
    static constexpr bool waits_on_children = true;
    delay() { check_seconds(seconds_); }
    void enter(context& ctx) const override {
        if (!ctx.left_running()) state(ctx) = not_started;  // else 4.10's timer goes on
    }
    status tick(context& ctx) const override {
        auto& started = state(ctx);
        const tree::index child = ctx.child();
        // A child already started is not abandoned if `seconds` grew on the blackboard.
        if (ctx.is_running(child)) return ctx.tick(child);
        if (started == not_started) {
            started = ctx.time_ns();
            return status::running;
        }
        const std::int64_t end = started + seconds_to_ns(seconds_.get(ctx));
        if (ctx.time_ns() < end) return ctx.running_until(end);
        return ctx.tick(child);
    }

private:
    input<double> seconds_{"seconds"};
};

// Fails without ticking the child while it is not running and less than `seconds` have passed
// since the child was last entered. Counting from the entry, not the finish, keeps the promise
// "at most once every `seconds`" also when a reactive parent halts the child. A skipped child
// was not run: it does not start the cooldown.
class cooldown final : public stateful_node<std::int64_t> {
public:
    static constexpr bool waits_on_children = true;
    cooldown() { check_seconds(seconds_); }
    void construct_state(void* storage) const override {
        ::new (storage) std::int64_t(std::numeric_limits<std::int64_t>::min());
    }
    status tick(context& ctx) const override {
        auto& ready_at = state(ctx);
        const std::int64_t before = ready_at;
        const tree::index child = ctx.child();
        if (!ctx.is_running(child)) {
            if (ctx.time_ns() < ready_at) return status::failure;
            ready_at = ctx.time_ns() + seconds_to_ns(seconds_.get(ctx));
        }
        const status result = ctx.tick(child);
        if (result == status::skipped) ready_at = before;
        return result;
    }

private:
    input<double> seconds_{"seconds"};
};

// BehaviorTree.CPP's NodeStatus names, upper or lower case; IDLE is no result.
status parse_else(const std::string& text) {
    for (status s : {status::success, status::failure, status::running, status::skipped}) {
        const std::string_view name = to_string(s);
        const bool same = text.size() == name.size() &&
                          std::equal(name.begin(), name.end(), text.begin(),
                                     [](char a, char b) { return a == b || a == b - 'A' + 'a'; });
        if (same) return s;
    }
    throw param_error("'else' must be SUCCESS, FAILURE, SKIPPED or RUNNING, not '" + text + "'");
}

// BehaviorTree.CPP's Precondition: when the child is not running, tests the script `if`; false
// returns `else` without ticking the child, true ticks it. While the child runs, `if` is not
// tested again; after a halt it is (BehaviorTree.CPP keeps its "child running" flag across a
// halt). A script that fails as it runs throws out of the tick, as BehaviorTree.CPP's does.
class precondition final : public node {
public:
    static constexpr bool waits_on_children = true;
    static constexpr bool stays_idle_when_skipped = true;  // as 4.10's PreconditionNode
    static std::vector<param_spec> parameters() {
        return {param_spec::required("if", param_type::script),
                param_spec::optional("else", std::string("FAILURE"))};
    }
    explicit precondition(const param_list& params)
        : condition_(params.script("if")),
          otherwise_(parse_else(params.get<std::string>("else"))) {}

    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        if (!ctx.is_running(child)) {
            if (!condition_.test(ctx.blackboard())) return otherwise_;
        }
        return ctx.tick(child);
    }

private:
    const script& condition_;
    status otherwise_;
};

// Nav2's RateController: ticks the child on the first tick after the agent was made or reset,
// the node was halted or its child failed; after that, while the child is not running, only
// once 1/hz seconds have passed since the child last succeeded, returning running until then.
// The timer outlives the node's own success, so a parent that ticks it again (a loop, a
// pipeline) is throttled: Canopy enters a node again after every finish, so it cannot tell
// "ticked again" from "a new activation" as Nav2 does by the node's status. A skipped child
// was not run: the node is skipped and its timer left as it was.
struct rate_state {
    std::int64_t started = 0;  // when the child last succeeded, or the activation began
    bool timing = false;       // false: the next tick ticks the child at once
};

class rate_controller final : public stateful_node<rate_state> {
public:
    static constexpr bool waits_on_children = true;
    rate_controller() {
        if (!hz_.from_blackboard() && !(hz_.literal() >= 0)) {
            throw param_error("'hz' must be 0 (once per activation) or more, not " +
                              shown(hz_.literal()));
        }
    }
    void halt(context& ctx) const override { state(ctx).timing = false; }
    status tick(context& ctx) const override {
        auto& s = state(ctx);
        const tree::index child = ctx.child();
        if (s.timing && !ctx.is_running(child)) {
            const std::int64_t next = s.started + period_ns(hz_.get(ctx));
            if (ctx.time_ns() < next) return ctx.running_until(next);
        }
        const rate_state before = s;
        if (!s.timing) s.started = ctx.time_ns();
        s.timing = true;
        const status result = ctx.tick(child);
        if (result == status::skipped) s = before;
        if (result == status::success) s.started = ctx.time_ns();
        if (result == status::failure) s.timing = false;
        return result;
    }

private:
    // 0 Hz waits for ever (a century); a negative or NaN rate, from the blackboard, not at all.
    static std::int64_t period_ns(double hz) {
        if (hz == 0) return seconds_to_ns(std::numeric_limits<double>::infinity());
        return hz > 0 ? seconds_to_ns(1.0 / hz) : 0;
    }
    input<double> hz_{"hz", 10.0};
};

// behavior3's Limiter as its name promises: ticks the child until it has finished `max_loop`
// times since the agent was made or reset (halts and skips do not count, and do not reset),
// then fails without ticking it.
class limiter final : public stateful_node<std::int64_t> {
public:
    static constexpr bool waits_on_children = true;
    limiter() {
        if (!max_loop_.from_blackboard() && max_loop_.literal() < 1) {
            throw param_error("'max_loop' must be 1 or more, not " +
                              std::to_string(max_loop_.literal()));
        }
    }
    status tick(context& ctx) const override {
        auto& finished = state(ctx);
        const tree::index child = ctx.child();
        if (!ctx.is_running(child) && finished >= max_loop_.get(ctx)) return status::failure;
        const status result = ctx.tick(child);
        if (result == status::success || result == status::failure) ++finished;
        return result;
    }

private:
    input<std::int64_t> max_loop_{"max_loop"};
};

// behavior3's MaxTime in seconds: ticks the child; if after that more than `seconds` have
// passed since the node was entered, fails, halting the child if it still runs. A skipped
// child skips the node.
class max_time final : public stateful_node<std::int64_t> {
public:
    static constexpr bool waits_on_children = true;
    max_time() { check_seconds(seconds_); }
    void enter(context& ctx) const override { state(ctx) = ctx.time_ns(); }
    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        const status result = ctx.tick(child);
        if (result == status::skipped) return result;
        const std::int64_t limit = seconds_to_ns(seconds_.get(ctx));
        if (ctx.time_ns() - state(ctx) > limit) {
            ctx.halt(child);
            return status::failure;
        }
        // A world's agent sleeps through a running child no later than the tick that fails.
        ctx.unchanged_until(state(ctx) + limit + 1);
        return result;
    }

private:
    input<double> seconds_{"seconds"};
};

// The status a BlackboardCheck returns on a mismatch, as BehaviorTree.CPP spells statuses
// ("FAILURE") or as Canopy does ("failure").
status parse_mismatch(const std::string& text) {
    for (status s : {status::success, status::failure, status::running, status::skipped}) {
        std::string upper(to_string(s));
        for (char& c : upper) c = static_cast<char>(c - 'a' + 'A');
        if (text == to_string(s) || text == upper) return s;
    }
    throw param_error(
        "'return_on_mismatch' must be SUCCESS, FAILURE, RUNNING or SKIPPED (or in lower case), "
        "not '" +
        text + "'");
}

// BehaviorTree.CPP 3's BlackboardCheckInt, BlackboardCheckDouble and BlackboardCheckString:
// on every tick, compares value_A with value_B (each a literal or "{key}"); equal ticks the
// child and returns its result, else halts the child if it runs and returns
// return_on_mismatch without ticking it. A world's agent does not sleep through its running
// child: the values are compared on every tick, and a node of the tree may write one after
// this node's tick, in the same tick.
template <typename T>
class blackboard_check final : public node {
public:
    blackboard_check() : mismatch_(parse_mismatch(*mismatch_text_)) {}

    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        if (a_.get(ctx) == b_.get(ctx)) return ctx.tick(child);
        ctx.halt(child);
        return mismatch_;
    }

private:
    input<T> a_{"value_A"};
    input<T> b_{"value_B"};
    setting<std::string> mismatch_text_{"return_on_mismatch", "FAILURE"};
    status mismatch_;
};

}  // namespace

void register_decorators(registry& reg) {
    reg.add<invert>("Not", 3, arity::decorator);
    reg.add<repeat<status::success>>("Repeat", 10, arity::decorator);
    reg.add<repeat_until<status::success>>("RepeatUntilSuccess", 11, arity::decorator);
    reg.add<repeat_until<status::failure>>("RepeatUntilFailure", 12, arity::decorator);
    reg.add<repeat<status::failure>>("Retry", 13, arity::decorator);
    reg.add<force<status::success>>("ForceSuccess", 14, arity::decorator);
    reg.add<force<status::failure>>("ForceFailure", 15, arity::decorator);
    reg.add<timeout>("Timeout", 16, arity::decorator);
    reg.add<cooldown>("Cooldown", 17, arity::decorator);
    // Ids 40 to 59 are the decorators added after the first release.
    reg.add<run_once>("RunOnce", 40, arity::decorator);
    reg.add<delay>("Delay", 41, arity::decorator);
    reg.add<precondition>("Precondition", 42, arity::decorator);
    reg.add<rate_controller>("RateController", 43, arity::decorator);
    reg.add<limiter>("Limiter", 44, arity::decorator);
    reg.add<max_time>("MaxTime", 45, arity::decorator);
    reg.add<blackboard_check<std::int64_t>>("BlackboardCheckInt", 46, arity::decorator);
    reg.add<blackboard_check<double>>("BlackboardCheckDouble", 47, arity::decorator);
    reg.add<blackboard_check<std::string_view>>("BlackboardCheckString", 48, arity::decorator);
    reg.add_alias("Inverter", "Not");
    reg.add_alias("KeepRunningUntilFailure", "RepeatUntilFailure");
    reg.add_alias("RetryUntilSuccessful", "Retry");
}

}  // namespace canopy::detail
