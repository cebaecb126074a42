// Sequence, Selector, their reactive forms, Parallel and RandomSelector. None but Parallel
// and RandomSelector keeps state: the running child, if any, is the one whose status byte
// says so (seed 001's runtime data kept out of the shared structure).
#include <algorithm>
#include <stdexcept>

#include "builtin.hpp"
#include "canopy/context.hpp"

namespace canopy::detail {
namespace {

// Sequence (give_up_on = failure) and Selector (give_up_on = success): tick children in
// order, starting at the running one, until one returns give_up_on or running.
template <status give_up_on>
class ordered final : public node {
public:
    ordered() : node({}) {}
    status tick(context& ctx) const override {
        tree::index running = ctx.running_child();
        for (tree::index child : ctx.children()) {
            if (running != tree::no_parent && child != running) continue;
            running = tree::no_parent;
            const status result = ctx.tick(child);
            if (result != opposite()) return result;  // give_up_on or running
        }
        return opposite();
    }

private:
    static constexpr status opposite() {
        return give_up_on == status::failure ? status::success : status::failure;
    }
};

// ReactiveSequence and ReactiveSelector: re-check from the first child on every tick; a child
// that runs halts whichever later child was running before, and a finish halts it too.
template <status give_up_on>
class reactive final : public node {
public:
    reactive() : node({}) {}
    status tick(context& ctx) const override {
        const tree::index was_running = ctx.running_child();
        for (tree::index child : ctx.children()) {
            const status result = ctx.tick(child);
            if (result == opposite()) continue;
            if (was_running != tree::no_parent && was_running != child) ctx.halt(was_running);
            return result;
        }
        return opposite();
    }

private:
    static constexpr status opposite() {
        return give_up_on == status::failure ? status::success : status::failure;
    }
};

// Ticks every child that has not finished in this run; succeeds once success_threshold
// children have succeeded, fails once failure_threshold have failed (seed 003's AND/OR
// parallel: all/1 is AND, 1/all is OR). -1, or more than there are children, means all.
class parallel final : public node {
public:
    explicit parallel(const param_list& params)
        : node({hook::enter}),
          success_threshold_(params.get<std::int64_t>("success_threshold")),
          failure_threshold_(params.get<std::int64_t>("failure_threshold")) {
        if (success_threshold_ == 0 || success_threshold_ < -1 || failure_threshold_ == 0 ||
            failure_threshold_ < -1) {
            throw std::invalid_argument("thresholds must be -1 (all children) or at least 1");
        }
    }

    void enter(context& ctx) const override {
        for (tree::index child : ctx.children()) ctx.clear(child);
    }

    status tick(context& ctx) const override {
        std::int64_t children = 0;
        std::int64_t succeeded = 0;
        std::int64_t failed = 0;
        for (tree::index child : ctx.children()) {
            ++children;
            status result = ctx.last_status(child);
            if (result == status::idle || result == status::running) result = ctx.tick(child);
            succeeded += result == status::success ? 1 : 0;
            failed += result == status::failure ? 1 : 0;
        }
        auto needed = [children](std::int64_t threshold) {
            return threshold == -1 ? children : std::min(threshold, children);
        };
        if (succeeded >= needed(success_threshold_)) {
            ctx.halt_children();
            return status::success;
        }
        // Failing once enough have failed, or once too few are left to reach success.
        if (failed >= needed(failure_threshold_) ||
            children - failed < needed(success_threshold_)) {
            ctx.halt_children();
            return status::failure;
        }
        return status::running;
    }

private:
    std::int64_t success_threshold_;
    std::int64_t failure_threshold_;
};

// A Selector that starts at a child drawn from the agent's seeded generator and goes round
// from there: each child is equally likely to be tried first.
class random_selector final : public stateful_node<std::uint32_t> {
public:
    random_selector() : stateful_node({hook::enter}) {}
    void enter(context& ctx) const override {
        const auto count = static_cast<std::uint32_t>(ctx.tree().child_count(ctx.node()));
        ctx.state<std::uint32_t>() = static_cast<std::uint32_t>(ctx.random() % count);
    }

    // One pass round the children, from the drawn one, wrapping at the last.
    status tick(context& ctx) const override {
        const tree& t = ctx.tree();
        const tree::index first_child = ctx.node() + 1;
        const tree::index end = t.subtree_end(ctx.node());
        tree::index child = first_child;
        for (std::uint32_t k = ctx.state<std::uint32_t>(); k > 0; --k) child = t.subtree_end(child);
        const tree::index running = ctx.running_child();
        bool resumed = running == tree::no_parent;
        for (std::size_t k = t.child_count(ctx.node()); k > 0; --k) {
            if (resumed || child == running) {
                resumed = true;
                const status result = ctx.tick(child);
                if (result != status::failure) return result;
            }
            child = t.subtree_end(child);
            if (child == end) child = first_child;
        }
        return status::failure;
    }
};

}  // namespace

void register_composites(registry& reg) {
    reg.add<ordered<status::failure>>("Sequence", 1, arity::composite);
    reg.add<ordered<status::success>>("Selector", 2, arity::composite);
    reg.add<reactive<status::failure>>("ReactiveSequence", 6, arity::composite);
    reg.add<reactive<status::success>>("ReactiveSelector", 7, arity::composite);
    reg.add<parallel>("Parallel", 8, arity::composite,
                      {param_spec::optional("success_threshold", std::int64_t{-1}),
                       param_spec::optional("failure_threshold", std::int64_t{1})});
    reg.add<random_selector>("RandomSelector", 9, arity::composite);
    reg.add_alias("Fallback", "Selector");
    reg.add_alias("ReactiveFallback", "ReactiveSelector");
}

}  // namespace canopy::detail
