// behavior3-ts's composites that Canopy has no node for: Parallel, Switch with its Case
// children, and Watchdog (docs/behavior3.md, "The behavior3 node family"). Race is Canopy's
// Parallel with thresholds 1 and -1 (src/formats/behavior3_names.cpp says why).
#include <cstddef>
#include <stdexcept>
#include <string>

#include "canopy/run/context.hpp"
#include "canopy/run/stateful_node.hpp"
#include "dialects/behavior3/nodes/family.hpp"

namespace canopy::detail {
namespace {

bool finished(status s) noexcept {
    return s == status::success || s == status::failure;
}

// Fewer children than `wanted` is refused, as behavior3-ts refuses it; more are loaded with a
// warning, as behavior3-ts warns, and never ticked.
void check_exactly(std::size_t wanted, std::size_t count, const char* which) {
    const std::string text = "it takes exactly " + std::to_string(wanted) + " children (" + which +
                             "), not " + std::to_string(count);
    if (count < wanted) throw std::invalid_argument(text);
    if (count > wanted) throw unused_children(text + ": the others are never ticked");
}

// Parallel: ticks, on every tick, each child that has not finished in this run; succeeds once
// every child has finished, whatever they returned. A finished child's status byte is its
// record of the run; entering the node clears them. Ticked again after being abandoned, it
// resumes its running children, as behavior3-ts resumes the saved stacks it keeps.
class parallel final : public node {
public:
    void enter(context& ctx) const override {
        for (tree::index child : ctx.children()) ctx.clear(child);
    }
    status tick(context& ctx) const override {
        (void)ctx.resumes_abandoned();
        bool all_finished = true;
        for (tree::index child : ctx.children()) {
            if (finished(ctx.last_status(child))) continue;
            all_finished = ctx.tick(child) != status::running && all_finished;
        }
        return all_finished ? status::success : status::running;
    }
};

// Case: two children, a condition and a body. Ticks the condition until it finishes; on
// success runs the body and returns what it returns; on failure returns skipped, which tells
// the Switch above to try its next Case. behavior3-ts ticks a Case's children from its Switch
// and refuses to tick a Case itself; a Case elsewhere here skips its parent when its
// condition fails. A condition's error counts as its failure; the body's error is the Case's.
class case_node final : public stateful_node<bool> {
public:
    static constexpr bool sees_errors = true;
    void check_children(std::size_t count) const override {
        check_exactly(2, count, "a condition, then the node to run when it succeeds");
    }
    // Whether the condition has succeeded in this run.
    void enter(context& ctx) const override { state(ctx) = false; }
    status tick(context& ctx) const override {
        bool& chosen = state(ctx);
        const tree::index condition = ctx.child();
        if (ctx.resumes_abandoned()) {
            // behavior3-ts has no Case on its stack: its Switch, ticked afresh, ticks the
            // condition again, then the body, which resumes its own kept state.
            chosen = false;
            ctx.abandon(condition);
            ctx.abandon(ctx.tree().subtree_end(condition));
        }
        if (!chosen) {
            const status test = ctx.tick(condition);
            if (test == status::running) return status::running;
            if (test != status::success) return status::skipped;
            chosen = true;
        }
        // In preorder a node's subtree ends where its next sibling starts.
        return behavior3_result(ctx.tick(ctx.tree().subtree_end(condition)));
    }
};

// Switch: tries its Case children in order, from the running one if any: the first whose
// condition succeeds runs its body, and the Switch returns what the body returns (an error
// included); without one, failure.
class switch_node final : public node {
public:
    static constexpr bool sees_errors = true;
    status tick(context& ctx) const override {
        const tree::index running = ctx.running_child();
        bool reached = running == tree::no_parent;
        for (tree::index child : ctx.children()) {
            reached = reached || child == running;
            if (!reached) continue;
            const status result = ctx.tick(child);
            if (result != status::skipped) return result;
        }
        return status::failure;
    }
};

// Watchdog: three children, a condition, a body and a fallback. On every tick ticks the
// condition first: on success, ticks the body and returns what it returns (an error included);
// on failure, ticks the fallback once (halting it if it would run on) and fails. A body that
// runs is abandoned, not halted: behavior3-ts drops its saved stack without popping it, so its
// nodes keep their state and the next run of the body resumes them (context::abandon). A
// condition that returns running or error makes the node's error, with both halted and no
// fallback run, as behavior3-ts's does. The condition's tick leaves the last status as it
// was before (behavior3-ts's Watchdog sets `tree.__lastStatus` back after it), and the node,
// ticked again after being abandoned, resumes its body as behavior3-ts resumes its saved stack.
class watchdog final : public node {
public:
    static constexpr bool sees_errors = true;
    static constexpr bool abandons_children = true;
    void check_children(std::size_t count) const override {
        check_exactly(3, count, "a condition, the node it guards, the node to run on failure");
    }
    status tick(context& ctx) const override {
        const tree::index condition = ctx.child();
        const tree::index body = ctx.tree().subtree_end(condition);
        const tree::index fallback = ctx.tree().subtree_end(body);
        (void)ctx.resumes_abandoned();
        const status last = ctx.behavior3_last_status();
        const status test = ctx.tick(condition);
        ctx.set_behavior3_last_status(last);
        if (test == status::success) return behavior3_result(ctx.tick(body));
        if (test == status::running || test == status::error) {
            ctx.halt(body);
            ctx.halt(condition);
            return status::error;
        }
        ctx.abandon(body);
        if (ctx.tick(fallback) == status::running) ctx.halt(fallback);
        return status::failure;
    }
};

}  // namespace

void register_behavior3_composites(registry& reg) {
    reg.add<parallel>("behavior3.Parallel", std::nullopt, arity::composite);
    reg.add<switch_node>("behavior3.Switch", std::nullopt, arity::composite);
    reg.add<case_node>("behavior3.Case", std::nullopt, arity::composite);
    reg.add<watchdog>("behavior3.Watchdog", std::nullopt, arity::composite);
}

}  // namespace canopy::detail
