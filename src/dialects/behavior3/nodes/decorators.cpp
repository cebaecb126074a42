// behavior3-ts's decorators that behave unlike Canopy's node of the same name: Repeat, the
// four retry loops, Timeout, AlwaysRunning and Once (docs/behavior3.md, "The behavior3 node
// family").
//
// behavior3-ts keeps a stack of running nodes and, on the next tick, resumes the deepest; when
// it finishes, its parent's code runs again with the child's status (docs/behavior3.md, "Tick
// model"). Canopy ticks from the root instead, so each node here, reached with a running
// child, first lets that child go on (`ctx.tick`), and then does what behavior3-ts's node does
// when it is resumed with that status, in the same tick.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/event.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "dialects/behavior3/nodes/family.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// Repeat: runs the child `count` times (absent: for ever), as many as finish at once within
// one tick; running while the child runs; failure at the child's first failure; success after
// the last iteration. A count below 1 runs none: success.
// A child's error ends it with error. Its iterations in one tick are bounded by loop_budget.
class repeat final : public stateful_node<std::int64_t> {
public:
    static constexpr bool sees_errors = true;
    // Iterations done in this run.
    void enter(context& ctx) const override { state(ctx) = 0; }

    status tick(context& ctx) const override {
        loop_budget loop;
        std::int64_t& done = state(ctx);
        const tree::index child = ctx.child();
        if (ctx.is_running(child)) {
            const status result = behavior3_result(ctx.tick(child));
            if (result != status::success) return result;  // running, failure or error
            ++done;
        }
        // The count is read again at each resumption, as behavior3-ts reads its input.
        const std::int64_t count = count_.get(ctx);
        for (; done < count; ++done) {
            if (!loop.take()) return status::running;
            const status result = behavior3_result(ctx.tick(child));
            if (result != status::success) return result;
        }
        return status::success;
    }

private:
    input<std::int64_t> count_{"count", behavior3_for_ever};
};

// RetryUntilSuccess, RetryUntilFailure (argument `count`) and the older RepeatUntilSuccess,
// RepeatUntilFailure (argument `maxLoop`): one try of the child per tick. A try that ends with
// `until` ends the node with success for RetryUntilFailure and RepeatUntilFailure and with
// `until` (success) for the others; any other end returns running, and the next tick either
// gives up with failure, when `count` tries are done, or tries again. The first try always
// runs, so a count of 0 or less is 1. A try the child was running since an earlier tick that ends
// otherwise than `until` is followed, in the same tick, by the next try (behavior3-ts resumes
// the node when the child finishes). A try that ends with an error ends the node with it.
enum class count_name : std::uint8_t { count, max_loop };

struct retry_state {
    std::int64_t tries = 0;  // started in this run
    // The status of a child run between ticks since this node's last tick, idle for none
    // (behavior3_ran_between_ticks).
    status heard = status::idle;
};

template <status until, count_name named>
class retry final : public stateful_node<retry_state> {
    static constexpr const char* name = named == count_name::count ? "count" : "maxLoop";

public:
    static constexpr bool sees_errors = true;
    void enter(context& ctx) const override { state(ctx) = retry_state{}; }

    status tick(context& ctx) const override {
        retry_state& s = state(ctx);
        const status heard = s.heard;
        s.heard = status::idle;
        const tree::index child = ctx.child();
        if (ctx.resumes_abandoned()) {
            // Ticked again after a Timeout, Race or Watchdog abandoned it: behavior3-ts resumes
            // it with the status of the node that ticked last, without ticking the child, which
            // keeps its state; a next try ticks the child afresh, which resumes that state.
            ctx.abandon(child);
            const status last = behavior3_result(ctx.behavior3_last_status());
            if (last == status::error) return status::error;
            if (last == until) return status::success;
            if (s.tries >= limit(ctx)) return status::failure;
        } else if (s.tries != 0) {
            if (ctx.is_running(child)) {
                const status result = behavior3_result(ctx.tick(child));
                if (result == status::running || result == status::error) return result;
                if (result == until) return status::success;
            } else {
                // behavior3-ts resumes the node with the status of the node that ticked last,
                // its own running unless a listener ran a child between ticks.
                const status last = behavior3_result(heard);
                if (last == status::error) return status::error;
                if (last == until) return status::success;
            }
            if (s.tries >= limit(ctx)) return status::failure;
        }
        ++s.tries;
        const status result = behavior3_result(ctx.tick(child));
        if (result == status::error) return result;
        return result == until ? status::success : status::running;
    }

    void on_event(context& ctx, std::string_view event) const override {
        if (event != behavior3_ran_between_ticks) return;
        const event_values& ran = ctx.event();
        if (ran.arguments.size() == 1 && ran.arguments[0].is_number())
            state(ctx).heard = static_cast<status>(static_cast<int>(ran.arguments[0].number()));
    }

private:
    // behavior3-ts gives up once `tries >= count`, which never holds for a count that is NaN
    // (a variable holding an object or text that is no number).
    std::int64_t limit(const context& ctx) const {
        const blackboard board = ctx.blackboard();
        if (count_.from_blackboard() && board.is_set(count_.key()) &&
            holds_javascript(board, count_.key()) &&
            std::isnan(board.get_ref<dynamic_value>(count_.key()).to_number()))
            return std::numeric_limits<std::int64_t>::max();
        return count_.get(ctx);
    }

    input<std::int64_t> count_{name, behavior3_for_ever};
};

// Timeout: ticks the child; once the child has returned running, `time` seconds from that tick
// on, fails on the first tick at or past the deadline, without ticking the child. A `time` of 0
// lets the child run for its first tick only. The time is read when the child first returns
// running, as behavior3-ts reads it. The child's error is the node's.
// The child is abandoned, not halted: behavior3-ts drops its saved stack without popping it
// (`StackSlice.clear()`), so its nodes keep their state and the next run resumes them (a Wait
// its old deadline; context::abandon). Ticked again after being abandoned itself, it resumes
// its child as it would have, as behavior3-ts resumes its own saved stack.
struct timeout_state {
    std::int64_t deadline_ns = 0;
    bool armed = false;
};

class timeout final : public stateful_node<timeout_state> {
public:
    static constexpr bool sees_errors = true;
    static constexpr bool abandons_children = true;
    void enter(context& ctx) const override { state(ctx).armed = false; }

    status tick(context& ctx) const override {
        timeout_state& s = state(ctx);
        const tree::index child = ctx.child();
        (void)ctx.resumes_abandoned();
        if (s.armed && ctx.time_ns() >= s.deadline_ns) {
            ctx.abandon(child);
            return status::failure;
        }
        const status result = behavior3_result(ctx.tick(child));
        if (result == status::running && !s.armed) {
            s.armed = true;
            const double seconds = time_.get(ctx);  // NaN: text joined to the clock, as Wait's
            s.deadline_ns = std::isnan(seconds) ? std::numeric_limits<std::int64_t>::max()
                                                : ctx.time_ns() + seconds_to_ns(seconds);
        }
        return result;
    }

private:
    input<double> time_{"time", 0.0};
};

// AlwaysRunning: ticks the child and returns running. When the child, running since an
// earlier tick, finishes, behavior3-ts resumes this node, which ticks the child again: a new
// run of the child in the same tick. Ticked again after being abandoned, it ticks the child
// once.
class always_running final : public node {
public:
    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        if (ctx.resumes_abandoned()) {
            // Ticked again after being abandoned: behavior3-ts ticks the child once, afresh,
            // and the child resumes its own kept state.
            ctx.abandon(child);
            ctx.tick(child);
            return status::running;
        }
        const bool resumed = ctx.is_running(child);
        if (ctx.tick(child) != status::running && resumed) ctx.tick(child);
        return status::running;
    }
};

// Once: runs the child until it finishes, then succeeds whatever the child returned; ever after
// (until the agent is reset) fails without ticking it. A run halted before the child finished
// does not count.
class once final : public stateful_node<bool> {
public:
    status tick(context& ctx) const override {
        bool& done = state(ctx);
        if (done) return status::failure;
        if (ctx.tick(ctx.child()) == status::running) return status::running;
        done = true;
        return status::success;
    }
};

}  // namespace

void register_behavior3_decorators(registry& reg) {
    reg.add<repeat>("behavior3.Repeat", std::nullopt, arity::decorator);
    reg.add<retry<status::success, count_name::count>>("behavior3.RetryUntilSuccess", std::nullopt,
                                                       arity::decorator);
    reg.add<retry<status::failure, count_name::count>>("behavior3.RetryUntilFailure", std::nullopt,
                                                       arity::decorator);
    reg.add<retry<status::success, count_name::max_loop>>("behavior3.RepeatUntilSuccess",
                                                          std::nullopt, arity::decorator);
    reg.add<retry<status::failure, count_name::max_loop>>("behavior3.RepeatUntilFailure",
                                                          std::nullopt, arity::decorator);
    reg.add<timeout>("behavior3.Timeout", std::nullopt, arity::decorator);
    reg.add<always_running>("behavior3.AlwaysRunning", std::nullopt, arity::decorator);
    reg.add<once>("behavior3.Once", std::nullopt, arity::decorator);
}

}  // namespace canopy::detail
