// The built-in composites: Sequence, Selector and their reactive and memory forms, the
// parallels, the conditionals (IfThenElse, WhileDoElse, the switches), RandomSelector, and
// Nav2's PipelineSequence, RoundRobin and RecoveryNode. The semantics follow
// BehaviorTree.CPP 4 (Nav2 for its three); docs/nodes.md lists every difference.
//
// Most keep no state: the running child, if any, is the one whose status byte says so, and a
// finished child's byte says how it finished until the parent clears it: per-agent data
// kept out of the shared tree. State that must outlive a tick is per agent, in a
// stateful_node.
//
// A skipped child (BehaviorTree.CPP's SKIPPED) did nothing, and its status byte says skipped:
// not running, so entered afresh when ticked again. Each composite moves past it, and one
// that ticked only skipped children is skipped itself (docs/nodes.md, "Skipped"). In a
// BehaviorTree.CPP file's tree, a composite or decorator skipped so is still running to
// 4.10, and the composites and decorators here reset it (context::reset, reset_children)
// where 4.10's node of the name resets its children: its `_onHalted` runs then.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "nodes/builtin.hpp"
#include "run/btcpp_entry.hpp"

namespace canopy::detail {
namespace {

std::size_t child_count(const context& ctx) {
    return ctx.tree().child_count(ctx.node());
}

// The k-th child (from 0); in preorder each child's subtree ends where the next child starts.
tree::index child_at(const context& ctx, std::size_t k) {
    tree::index child = ctx.node() + 1;
    for (; k > 0; --k) child = ctx.tree().subtree_end(child);
    return child;
}

bool finished(status s) {
    return s == status::success || s == status::failure;
}

// Sequence (give_up_on = failure) and Selector (give_up_on = success): tick children in
// order, starting at the running one, until one returns give_up_on (or, for Sequence, error)
// or running. Skipped
// children are passed over; when every child of the run was skipped, so is the node. In a
// resumed run, the children before the running one were ticked earlier in it, and their status
// bytes say how: skipped, or how they finished.
// The BehaviorTree.CPP form (`btcpp`) resets its children as it finishes.
template <status give_up_on, bool btcpp>
class ordered final : public node {
public:
    // A Sequence returns a child's error as it returns its failure (behavior3-ts's Sequence);
    // to a Selector an error is a failure, so it goes on to the next child.
    static constexpr bool sees_errors = give_up_on == status::failure;
    static constexpr bool ticks_in_order = give_up_on == status::failure;
    static constexpr bool waits_on_children = true;
    status tick(context& ctx) const override {
        tree::index running = ctx.running_child();
        bool all_skipped = true;
        bool some_skipped = false;  // only a skipped child can be left running (btcpp)
        for (tree::index child : ctx.children()) {
            if (running != tree::no_parent && child != running) {
                const bool skipped = ctx.last_status(child) == status::skipped;
                all_skipped = all_skipped && skipped;
                some_skipped = some_skipped || skipped;
                continue;
            }
            running = tree::no_parent;
            const status result = ctx.tick(child);
            if (result == status::skipped) {
                some_skipped = true;
                continue;
            }
            all_skipped = false;
            if (result != opposite()) {  // give_up_on or running
                if (btcpp && some_skipped && result != status::running) ctx.reset_children();
                return result;
            }
        }
        if (btcpp && some_skipped) ctx.reset_children();
        return all_skipped ? status::skipped : opposite();
    }

private:
    static constexpr status opposite() {
        return give_up_on == status::failure ? status::success : status::failure;
    }
};

// ReactiveSequence and ReactiveSelector: re-check from the first child on every tick; a child
// that runs halts whichever later child was running before, and a finish halts it too.
// Skipped children are passed over; when every child was skipped, so is the node.
// The BehaviorTree.CPP form (`btcpp`) resets a skipped child at once.
template <status give_up_on, bool btcpp>
class reactive final : public node {
public:
    static constexpr bool ticks_in_order = give_up_on == status::failure;
    status tick(context& ctx) const override {
        const tree::index was_running = ctx.running_child();
        bool all_skipped = true;
        for (tree::index child : ctx.children()) {
            const status result = ctx.tick(child);
            if (result == status::skipped) {
                if (btcpp) ctx.reset(child);  // 4.10: "to allow it to be skipped again"
                continue;
            }
            all_skipped = false;
            if (result == opposite()) continue;
            if (was_running != tree::no_parent && was_running != child) ctx.halt(was_running);
            return result;
        }
        return all_skipped ? status::skipped : opposite();
    }

private:
    static constexpr status opposite() {
        return give_up_on == status::failure ? status::success : status::failure;
    }
};

// The Sequences and Fallbacks that run at most one child that finishes at once per tick: a
// child that was entered and returned the result that moves the node on (success for a
// Sequence, failure for a Fallback) ends the tick with running when children are left
// (BehaviorTree.CPP's wake-up rule), and the next tick goes on at the next child. A child that
// was running and finishes is followed in the same tick. A skipped child is passed over in
// the same tick; a run in which every child was skipped is skipped. The place is the agent's.
//   SequenceWithMemory (`keeps_place`): a failure keeps the place, so the next run resumes
//     at the failed child and does not tick again the children that already succeeded; only
//     a full success, not a halt, starts it afresh (the count of skipped children starts
//     afresh when the node is entered).
//   AsyncSequence, AsyncFallback (BehaviorTree.CPP 4's SequenceNode and FallbackNode made
//     with `asynch`): a halt or a finish starts it afresh, as a Sequence's.
struct memory_state {
    std::uint32_t next = 0;
    std::uint32_t skipped = 0;
};

template <status give_up_on, bool keeps_place>
class one_per_tick final : public stateful_node<memory_state> {
public:
    static constexpr bool ticks_in_order = give_up_on == status::failure;
    static constexpr bool waits_on_children = true;
    void enter(context& ctx) const override {
        if constexpr (keeps_place) {
            state(ctx).skipped = 0;
        } else {
            state(ctx) = {};
        }
    }

    status tick(context& ctx) const override {
        auto& run = state(ctx);
        const std::size_t count = child_count(ctx);
        tree::index child = child_at(ctx, run.next);
        while (run.next < count) {
            const bool was_running = ctx.is_running(child);
            const status result = ctx.tick(child);
            if (result != opposite() && result != status::skipped) {
                // With keeps_place, a failure keeps `next` and resets from the failed child
                // on (4.10's SequenceWithMemory); else resets all.
                if (result != status::running) {
                    if constexpr (keeps_place) {
                        const tree::index end = ctx.tree().subtree_end(ctx.node());
                        for (tree::index c = child; c < end; c = ctx.tree().subtree_end(c))
                            ctx.reset(c);
                    } else {
                        ctx.reset_children();
                    }
                }
                return result;
            }
            ++run.next;
            child = ctx.tree().subtree_end(child);
            if (result == status::skipped) {
                ++run.skipped;
            } else if (!was_running && run.next < count) {
                return status::running;
            }
        }
        run.next = 0;
        ctx.reset_children();
        return run.skipped == count ? status::skipped : opposite();
    }

private:
    static constexpr status opposite() {
        return give_up_on == status::failure ? status::success : status::failure;
    }
};

// A signed count of children as BehaviorTree.CPP reads it: a negative one counts back from
// the end, -1 being all of them.
std::int64_t from_end(std::int64_t threshold, std::size_t count) {
    const auto n = static_cast<std::int64_t>(count);
    return threshold < 0 ? n + threshold + 1 : threshold;
}

// Refuses a threshold that maps outside 1..count: one no run could ever reach, or one that
// would be reached before any child finished.
void check_threshold(const char* name, std::int64_t threshold, std::size_t count) {
    const std::int64_t needed = from_end(threshold, count);
    if (needed >= 1 && needed <= static_cast<std::int64_t>(count)) return;
    const std::string n = std::to_string(count);
    throw param_error(std::string("'") + name + "' is " + std::to_string(threshold) +
                      ", but the node has " +
                      (count == 1 ? "1 child: give 1, or -1 for all"
                                  : n + " children: give 1 to " + n + ", or -1 (all) to -" + n +
                                        " counting back from the end"));
}

// Parallel (BehaviorTree.CPP 4's ParallelNode): ticks in order the children that have not
// finished in this run and, after each, checks the thresholds; the first reached ends the
// node, halting the children still running, and the children after it wait. It succeeds
// once success_threshold children have succeeded and fails once failure_threshold have
// failed, or once too few are left to succeed. A finished child's status byte is its record
// of the run; entering the node clears them all. A skipped child has not finished, so it is
// ticked again next tick; with a negative success_threshold, the children skipped in this
// tick count toward it, and a tick in which every child was skipped skips the node.
// In a behavior3 tree, where it is behavior3's Race, a success abandons the children still
// running: behavior3-ts drops their saved stacks without popping them (`StackSlice.clear()`),
// so their nodes keep their state and the next run resumes them (context::abandon); ticked
// again after being abandoned itself, it resumes its running children, as behavior3-ts
// resumes the saved stacks it keeps.
class parallel final : public node {
public:
    // In a behavior3 file's tree, a success abandons the children still running (Race).
    static constexpr bool abandons_children = true;
    void check_children(std::size_t count) const override {
        check_threshold("success_threshold", *success_threshold_, count);
        check_threshold("failure_threshold", *failure_threshold_, count);
    }

    void enter(context& ctx) const override {
        // Left running by a skip, it goes on with the children it had, as 4.10's.
        if (ctx.left_running()) return;
        for (tree::index child : ctx.children()) ctx.clear(child);
    }

    status tick(context& ctx) const override {
        (void)ctx.resumes_abandoned();  // behavior3 trees only: it resumes its children itself
        const std::size_t count = child_count(ctx);
        const std::int64_t success_needed = from_end(*success_threshold_, count);
        const std::int64_t failure_needed = from_end(*failure_threshold_, count);
        std::int64_t succeeded = 0;
        std::int64_t failed = 0;
        std::int64_t skipped = 0;
        for (tree::index child : ctx.children()) {
            succeeded += ctx.last_status(child) == status::success ? 1 : 0;
            failed += ctx.last_status(child) == status::failure ? 1 : 0;
        }
        for (tree::index child : ctx.children()) {
            if (!finished(ctx.last_status(child))) {
                const status result = ctx.tick(child);
                succeeded += result == status::success ? 1 : 0;
                failed += result == status::failure ? 1 : 0;
                skipped += result == status::skipped ? 1 : 0;
            }
            if (succeeded >= success_needed ||
                (*success_threshold_ < 0 && succeeded + skipped >= success_needed)) {
                if (ctx.tree().rules() == runtime_rules::behavior3) {
                    for (tree::index other : ctx.children()) ctx.abandon(other);
                } else {
                    ctx.halt_children();
                }
                ctx.reset_children();
                return status::success;
            }
            if (failed >= failure_needed ||
                static_cast<std::int64_t>(count) - failed < success_needed) {
                ctx.halt_children();
                ctx.reset_children();
                return status::failure;
            }
        }
        if (skipped == static_cast<std::int64_t>(count)) return status::skipped;
        // Every child was ticked, and has finished or runs: the next tick ticks only those
        // that run and counts the same, so a world's agent may sleep through it. A skipped
        // child is ticked again, which may change everything.
        if (skipped == 0) ctx.unchanged_until(context::never);
        return status::running;
    }

private:
    setting<std::int64_t> success_threshold_{"success_threshold", -1};
    setting<std::int64_t> failure_threshold_{"failure_threshold", 1};
};

// ParallelAll (BehaviorTree.CPP 4): ticks every child that has not finished in this run, on
// every tick, until all have; then fails if at least max_failures of them failed. A child
// skipped in this tick counts as done; a tick in which every child was skipped skips it.
class parallel_all final : public node {
public:
    void check_children(std::size_t count) const override {
        check_threshold("max_failures", *max_failures_, count);
    }

    void enter(context& ctx) const override {
        // Left running by a skip, it goes on with the children it had, as 4.10's.
        if (ctx.left_running()) return;
        for (tree::index child : ctx.children()) ctx.clear(child);
    }

    status tick(context& ctx) const override {
        bool all_finished = true;
        std::int64_t failed = 0;
        std::size_t skipped = 0;
        for (tree::index child : ctx.children()) {
            status result = ctx.last_status(child);
            if (!finished(result)) result = ctx.tick(child);
            all_finished = all_finished && result != status::running;
            failed += result == status::failure ? 1 : 0;
            skipped += result == status::skipped ? 1 : 0;
        }
        const std::size_t count = child_count(ctx);
        if (skipped == count) return status::skipped;
        if (!all_finished) {
            // As Parallel: with no child skipped, the next tick ticks only the running ones.
            if (skipped == 0) ctx.unchanged_until(context::never);
            return status::running;
        }
        ctx.reset_children();
        return failed >= from_end(*max_failures_, count) ? status::failure : status::success;
    }

private:
    setting<std::int64_t> max_failures_{"max_failures", 1};
};

// Refuses a child count other than two or three (condition, then, else): at load, but in a
// BehaviorTree.CPP file's tree (children_refused_at_tick) at the node's tick, below.
void check_two_or_three(std::size_t count) {
    if (count != 2 && count != 3) {
        throw children_refused_at_tick(
            "it takes 2 children (condition, then) or 3 (condition, then, else), not " +
            std::to_string(count));
    }
}

// The same at tick, with 4.10's message (`node` is its class's name): the child count.
std::size_t two_or_three_at_tick(const context& ctx, const char* node) {
    const std::size_t count = child_count(ctx);
    if (CANOPY_UNLIKELY(count != 2 && count != 3)) {
        throw error(error_code::param, std::string(node) + " must have either 2 or 3 children");
    }
    return count;
}

// A BehaviorTree.CPP file's IfThenElse and WhileDoElse fail where a skipped condition leaves
// 4.10's node without a result; Canopy's skip the node.
[[noreturn]] void fail_skipped_condition(const char* message) {
    throw error(
        error_code::unsupported,
        std::string("its condition was skipped, which BehaviorTree.CPP 4.10 refuses: ") + message);
}

// The children of IfThenElse and WhileDoElse: the condition, the branch for its success and,
// with a third child, the branch for its failure. Another count fails the tick (`node`).
struct conditional_children {
    tree::index condition;
    tree::index on_success;
    bool has_else;
    tree::index on_failure;  // meaningful only when has_else

    conditional_children(const context& ctx, const char* node)
        : condition(ctx.node() + 1),
          on_success(ctx.tree().subtree_end(condition)),
          has_else(two_or_three_at_tick(ctx, node) == 3),
          on_failure(has_else ? ctx.tree().subtree_end(on_success) : 0) {}
};

// IfThenElse (BehaviorTree.CPP 4): ticks the condition until it finishes, then the branch it
// chose until that finishes, without checking the condition again; with two children a
// failed condition fails the node. The chosen branch is the one running. A skipped condition
// or branch skips the node (a skipped condition fails the tick in a BehaviorTree.CPP file, as
// 4.10's logic_error does). A condition's error is the node's, with no branch run, and so is
// a branch's (behavior3-ts's IfElse).
// The BehaviorTree.CPP form (`btcpp`) resets its children once a branch finishes; with two
// children, a condition that failed is not reset, as 4.10's returns before its
// resetChildren: the next run ticks a condition that still holds that failure
// (context::tick_kept), whatever happened between. A byte of the agent's state remembers it,
// as a halt from above clears the condition's status byte but not 4.10's status.
// The BehaviorTree.CPP form's state: whether its condition holds a failure.
template <bool btcpp>
class if_then_else final : public std::conditional_t<btcpp, stateful_node<bool>, node> {
public:
    static constexpr bool sees_errors = true;
    static constexpr bool waits_on_children = true;
    void check_children(std::size_t count) const override { check_two_or_three(count); }

    status tick(context& ctx) const override {
        const conditional_children c(ctx, "IfThenElseNode");
        if (ctx.is_running(c.on_success)) return branch(ctx, c.on_success);
        if (c.has_else && ctx.is_running(c.on_failure)) return branch(ctx, c.on_failure);
        status condition = status::idle;
        if constexpr (btcpp) {
            bool& failure_kept = this->state(ctx);
            condition =
                failure_kept ? ctx.tick_kept(c.condition, status::failure) : ctx.tick(c.condition);
            failure_kept = condition == status::failure && !c.has_else;
        } else {
            condition = ctx.tick(c.condition);
        }
        switch (condition) {
            case status::success: return branch(ctx, c.on_success);
            case status::failure: return c.has_else ? branch(ctx, c.on_failure) : status::failure;
            case status::skipped:
                if (btcpp)
                    fail_skipped_condition("Something unexpected happened in IfThenElseNode");
                return status::skipped;
            case status::error: return status::error;
            default: return status::running;
        }
    }

private:
    // A branch's result; once it has finished, the children are reset, as 4.10's are.
    static status branch(context& ctx, tree::index chosen) {
        const status result = ctx.tick(chosen);
        if (btcpp && result != status::running) ctx.reset_children();
        return result;
    }
};

// WhileDoElse (BehaviorTree.CPP 4): ticks the condition on every tick, then the branch it
// chooses, halting the other one first; with two children a failed condition halts the
// "do" branch and fails. While the condition runs, a running branch waits. A skipped
// condition halts whichever branch runs and skips the node (then fails the tick in a
// BehaviorTree.CPP file, where 4.10's node returns IDLE, which its tick refuses).
// In a BehaviorTree.CPP file, while a branch runs the condition still holds the result that
// chose it, as 4.10 resets it only when the node finishes: it is ticked so
// (context::tick_kept).
class while_do_else final : public node {
public:
    void check_children(std::size_t count) const override { check_two_or_three(count); }

    status tick(context& ctx) const override {
        const conditional_children c(ctx, "WhileDoElseNode");
        const bool branch_runs =
            ctx.is_running(c.on_success) || (c.has_else && ctx.is_running(c.on_failure));
        const status condition = branch_runs
                                     ? ctx.tick_kept(c.condition, ctx.last_status(c.condition))
                                     : ctx.tick(c.condition);
        status result = status::running;
        switch (condition) {
            case status::success:
                if (c.has_else) ctx.halt(c.on_failure);
                result = ctx.tick(c.on_success);
                break;
            case status::failure:
                ctx.halt(c.on_success);
                result = c.has_else ? ctx.tick(c.on_failure) : status::failure;
                break;
            case status::skipped:
                ctx.halt(c.on_success);
                if (c.has_else) ctx.halt(c.on_failure);
                if (ctx.tree().layout().fails_as_btcpp) {
                    fail_skipped_condition(
                        "WhileDoElse returns IDLE, and a node is not allowed to set its status "
                        "to IDLE");
                }
                return status::skipped;
            default: return status::running;
        }
        if (result != status::running) ctx.reset_children();  // as 4.10 resets them
        return result;
    }
};

// What a text stands for as a number, as BehaviorTree.CPP's CheckStringEquality reads either
// side: a registered enum's value, else the whole text as an integer and as a real.
struct switch_number {
    bool is_integer = false;
    bool is_int = false;  // an integer that fits a C++ int (BehaviorTree.CPP parses so)
    std::int64_t integer = 0;
    bool is_number = false;
    double number = 0;

    switch_number(std::string_view text, const enum_table& enums) {
        if (!enums.empty()) {
            const auto named = enums.find(std::string(text));
            if (named != enums.end()) {
                integer = named->second;
                is_integer = true;
                is_int = fits_int(integer);
                number = static_cast<double>(integer);
                is_number = true;
                return;
            }
        }
        const char* first = text.data();
        const char* last = first + text.size();
        auto [int_end, int_error] = std::from_chars(first, last, integer);
        is_integer = int_error == std::errc() && int_end == last && first != last;
        is_int = is_integer && fits_int(integer);
        auto [num_end, num_error] = std::from_chars(first, last, number);
        is_number = num_error == std::errc() && num_end == last && first != last;
    }

    // Equal as both `int`s, else as both numbers within FLT_EPSILON.
    bool same_number(const switch_number& other) const {
        return (is_int && other.is_int && integer == other.integer) ||
               (is_number && other.is_number && near(number, other.number));
    }

    static bool near(double a, double b) {
        return std::abs(a - b) <= static_cast<double>(std::numeric_limits<float>::epsilon());
    }

private:
    static bool fits_int(std::int64_t value) {
        return value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max();
    }
};

// One case of a switch, read at load as every type a blackboard value may have, so that a
// tick compares without parsing or allocating.
struct switch_case : switch_number {
    std::string text;
    bool is_boolean = false;
    bool boolean = false;

    switch_case(std::string value, const enum_table& enums)
        : switch_number(value, enums), text(std::move(value)) {
        is_boolean = text == "true" || text == "false";
        boolean = text == "true";
    }
};

// Switch2..Switch6 and Switch (BehaviorTree.CPP 4's SwitchNode): on every tick, reads the
// blackboard key `variable` and ticks the child of the first case equal to its value, or
// the last child (the default) when none is; a previously running other child is halted
// first. Integers and numbers compare by value, booleans as true/false, and text as
// BehaviorTree.CPP compares it (text_equal): a string key, and a BehaviorTree.CPP file's
// dynamic entry as its getInput<std::string> reads it. Registered enums' names stand for their
// values on both sides, as there.
class switch_node final : public node {
public:
    switch_node(const param_list& params, const std::vector<std::string>& cases,
                std::string cases_from)
        : slot_(static_cast<std::uint32_t>(params.get<std::int64_t>("variable"))),
          cases_from_(std::move(cases_from)),
          enums_(params.enums()) {
        for (const std::string& c : cases) cases_.emplace_back(c, enums_);
    }

    void check_children(std::size_t count) const override {
        if (count == cases_.size() + 1) return;
        const bool one = cases_.size() == 1;
        throw param_error(
            std::to_string(cases_.size()) + (one ? " case (" : " cases (") + cases_from_ +
            (one ? ") needs " : ") need ") + std::to_string(cases_.size() + 1) +
            " children, one per case and the default last, not " + std::to_string(count));
    }

    status tick(context& ctx) const override {
        const std::size_t match = matching_case(ctx);
        const tree::index branch = child_at(ctx, match);
        const tree::index running = ctx.running_child();
        if (running != tree::no_parent && running != branch) ctx.halt(running);
        const status result = ctx.tick(branch);
        // 4.10 resets its cases when one finishes, not when it is skipped.
        if (result != status::running && result != status::skipped) ctx.reset_children();
        return result;
    }

private:
    // The index of the first case equal to the key's value, or the number of cases.
    std::size_t matching_case(const context& ctx) const {
        const blackboard board = ctx.blackboard();
        // A key that holds no value (unset, or not written yet) takes the default, as
        // BehaviorTree.CPP's getInput fails on a missing entry.
        if (!board.is_set(slot_)) return cases_.size();
        std::size_t k = 0;
        switch (board.type(slot_)) {
            case param_type::string: {
                const auto value = board.get<std::string_view>(slot_);
                const switch_number number(value, enums_);
                while (k < cases_.size() && !text_equal(value, number, cases_[k])) ++k;
                break;
            }
            case param_type::integer: {
                const auto value = board.get<std::int64_t>(slot_);
                while (k < cases_.size() && !equal(cases_[k], value)) ++k;
                break;
            }
            case param_type::number: {
                const auto value = board.get<double>(slot_);
                while (k < cases_.size() &&
                       !(cases_[k].is_number && switch_number::near(cases_[k].number, value)))
                    ++k;
                break;
            }
            case param_type::boolean: {
                const auto value = board.get<bool>(slot_);
                while (k < cases_.size() && !(cases_[k].is_boolean && cases_[k].boolean == value))
                    ++k;
                break;
            }
            default: {
                const blackboard_key& key = board.keys()[slot_];
                if (!is_btcpp_entry(key.custom.get())) {
                    k = cases_.size();
                    break;
                }
                // Empty: BehaviorTree.CPP's getInput fails, and the default runs.
                const auto& entry = board.get_ref<btcpp_entry>(slot_);
                if (!entry.exists || entry.value.empty()) {
                    k = cases_.size();
                    break;
                }
                const std::string value = cast_text(entry.value);
                const switch_number number(value, enums_);
                while (k < cases_.size() && !text_equal(value, number, cases_[k])) ++k;
            }
        }
        return k;
    }

    // BehaviorTree.CPP's CheckStringEquality of a text value, read once as `number`, with
    // case `c`: the same text, else the same number (switch_number::same_number); so the
    // text "1" written by a script or SetBlackboard matches case "1", and "1.000000" (a
    // real's text there) matches "1" too.
    static bool text_equal(std::string_view value, const switch_number& number,
                           const switch_case& c) {
        return value == c.text || number.same_number(c);
    }

    // An integer equals a case written as that integer, or as a number of the same value
    // ("2.0"); comparing as integers first keeps values past 2^53 exact.
    static bool equal(const switch_case& c, std::int64_t value) {
        if (c.is_integer) return c.integer == value;
        return c.is_number && c.number == static_cast<double>(value);
    }

    std::uint32_t slot_;
    std::vector<switch_case> cases_;
    std::string cases_from_;  // how the file gave the cases, for messages
    enum_table enums_;        // a copy: the registry may not outlive the tree
};

// SwitchN: the cases are the parameters case_1 .. case_N.
template <int cases>
std::unique_ptr<node> make_switch_n(const param_list& params) {
    std::vector<std::string> read;
    for (int k = 1; k <= cases; ++k)
        read.push_back(params.get<std::string>("case_" + std::to_string(k)));
    return std::make_unique<switch_node>(params, read, "case_1 to case_" + std::to_string(cases));
}

// Switch: the cases are the parameter `cases`, split at ';', each trimmed of spaces and tabs.
std::unique_ptr<node> make_switch(const param_list& params) {
    const auto& text = params.get<std::string>("cases");
    std::vector<std::string> read;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        std::string_view one(text.data() + start, end - start);
        while (!one.empty() && (one.front() == ' ' || one.front() == '\t')) one.remove_prefix(1);
        while (!one.empty() && (one.back() == ' ' || one.back() == '\t')) one.remove_suffix(1);
        read.emplace_back(one);
        if (end == text.size()) break;
        start = end + 1;
    }
    return std::make_unique<switch_node>(params, read, "'cases' is \"" + text + "\"");
}

// PipelineSequence (Nav2): ticks the children from the first on every tick. A running child
// ends the tick only if it is the furthest reached in this run; an earlier one keeps running
// while the pipeline goes on. A failure fails the node and the last success succeeds it,
// each halting whatever still runs. A child that succeeded is entered again on the next
// tick: a new run of it. A skipped child is passed over like one that succeeded; a tick in
// which every child was skipped skips the node.
class pipeline_sequence final : public stateful_node<std::uint32_t> {
public:
    void enter(context& ctx) const override { state(ctx) = 0; }

    status tick(context& ctx) const override {
        auto& furthest = state(ctx);
        std::uint32_t k = 0;
        bool all_skipped = true;
        for (tree::index child : ctx.children()) {
            const status result = ctx.tick(child);
            all_skipped = all_skipped && result == status::skipped;
            if (result == status::failure) {
                ctx.halt_children();
                return status::failure;
            }
            if (result == status::running && k >= furthest) {
                furthest = k;
                return status::running;
            }
            ++k;
        }
        ctx.halt_children();
        return all_skipped ? status::skipped : status::success;
    }
};

// RoundRobin (Nav2): tries children in turn from the one after the last that succeeded,
// remembered per agent across runs: a success advances the turn and succeeds; a failure
// moves on to the next child at once. Past the last child it fails, and the next run starts
// at the first (wrap_around false, Nav2's default), or, with wrap_around, goes on at the
// first until every child has failed once. A halt starts it afresh at the first child. A
// skipped child is passed over as a failed one is; a run that ends with every child it tried
// skipped is skipped.
struct round_robin_state {
    std::uint32_t next = 0;
    std::uint32_t failed = 0;   // children that failed or were skipped in this run
    std::uint32_t skipped = 0;  // of those, the skipped ones
};

class round_robin final : public stateful_node<round_robin_state> {
public:
    static constexpr bool waits_on_children = true;
    void halt(context& ctx) const override { state(ctx) = {}; }

    status tick(context& ctx) const override {
        auto& turn = state(ctx);
        const auto count = static_cast<std::uint32_t>(child_count(ctx));
        tree::index child = child_at(ctx, turn.next);
        for (;;) {  // each pass fails one more child: at most `count` passes
            const status result = ctx.tick(child);
            if (result == status::running) return status::running;
            ++turn.next;
            if (result == status::success) {
                if (turn.next == count) turn.next = 0;
                turn.failed = 0;
                turn.skipped = 0;
                return status::success;
            }
            ++turn.failed;
            if (result == status::skipped) ++turn.skipped;
            if (turn.failed >= count || (turn.next == count && !*wrap_around_)) {
                const bool all_skipped = turn.skipped == turn.failed;
                turn = {};
                return all_skipped ? status::skipped : status::failure;
            }
            if (turn.next == count) turn.next = 0;
            child = child_at(ctx, turn.next);
        }
    }

private:
    setting<bool> wrap_around_{"wrap_around", false};
};

// RecoveryNode (Nav2): ticks the first child; when it fails, ticks the second (the
// recovery) and, if that succeeds, the first again, in the same tick, up to
// number_of_retries recoveries per run. Fails when the first child fails with no retries
// left or when the recovery fails; succeeds when the first child does. As in Nav2, a skipped
// first child skips the node, and a skipped recovery fails it (no recovery was possible).
struct recovery_state {
    bool recovering = false;
    std::uint32_t retries = 0;
};

class recovery_node final : public stateful_node<recovery_state> {
public:
    static constexpr bool waits_on_children = true;
    recovery_node() {
        if (*retries_ < 0 || *retries_ > std::numeric_limits<std::uint32_t>::max()) {
            throw param_error("'number_of_retries' must be from 0 to 4294967295");
        }
    }

    void check_children(std::size_t count) const override {
        if (count != 2) {
            throw param_error("it takes 2 children (the action, then its recovery), not " +
                              std::to_string(count));
        }
    }

    void enter(context& ctx) const override { state(ctx) = {}; }

    status tick(context& ctx) const override {
        auto& run = state(ctx);
        const tree::index action = ctx.node() + 1;
        const tree::index recovery = ctx.tree().subtree_end(action);
        for (;;) {  // each pass spends one retry: at most number_of_retries + 1 passes
            if (!run.recovering) {
                const status result = ctx.tick(action);
                if (result != status::failure) return result;  // success, running or skipped
                if (run.retries >= *retries_) return status::failure;
                run.recovering = true;
            }
            const status result = ctx.tick(recovery);
            if (result == status::skipped) return status::failure;
            if (result != status::success) return result;
            ++run.retries;
            run.recovering = false;
        }
    }

private:
    setting<std::int64_t> retries_{"number_of_retries", 1};
};

// TryCatch (BehaviorTree.CPP 4.10): every child but the last is the try block, run as a
// Sequence that goes on, in the same tick, past each child that succeeds or is skipped, and
// remembers per agent the child to go on with while it runs. A failure in it halts the try
// block and, in the same tick, ticks the last child (the catch): while it runs the node runs,
// and once it finishes, either way, the node fails. A try block that finishes succeeds, or is
// skipped if every child of it was. With catch_on_halt, a halt while the try block runs ticks
// the catch once (halted in turn if it runs), as BehaviorTree.CPP 4.10's does.
struct try_catch_state {
    std::uint32_t next = 0;
    std::uint32_t skipped = 0;
    bool catching = false;
};

class try_catch final : public stateful_node<try_catch_state> {
public:
    static constexpr bool waits_on_children = true;
    void check_children(std::size_t count) const override {
        if (count < 2) {
            throw param_error("it takes 2 or more children (the try block, then the catch), not " +
                              std::to_string(count));
        }
    }

    void enter(context& ctx) const override { state(ctx) = {}; }
    // The engine halts the children first: the try block is halted when the catch runs.
    void halt(context& ctx) const override {
        const bool catch_now = *catch_on_halt_ && !state(ctx).catching;
        state(ctx) = {};
        if (!catch_now) return;
        const tree::index catcher = child_at(ctx, child_count(ctx) - 1);
        if (ctx.tick(catcher) == status::running) ctx.halt(catcher);
    }

    status tick(context& ctx) const override {
        auto& run = state(ctx);
        const std::size_t tries = child_count(ctx) - 1;
        if (!run.catching) {
            tree::index child = child_at(ctx, run.next);
            while (run.next < tries) {
                const status result = ctx.tick(child);
                if (result == status::running) return result;
                if (result == status::failure) {
                    ctx.halt_children();
                    ctx.reset_children();
                    run.catching = true;
                    break;
                }
                run.skipped += result == status::skipped ? 1 : 0;
                ++run.next;
                child = ctx.tree().subtree_end(child);
            }
            if (!run.catching) {
                const bool all_skipped = run.skipped == tries;
                run = {};
                ctx.reset_children();
                return all_skipped ? status::skipped : status::success;
            }
        }
        const status result = ctx.tick(child_at(ctx, tries));
        if (result == status::running) return result;
        run = {};
        ctx.reset_children();
        return status::failure;
    }

private:
    setting<bool> catch_on_halt_{"catch_on_halt", false};
};

// A Selector that starts at a child drawn from the agent's seeded generator and goes round
// from there: each child is equally likely to be tried first. Skipped children are passed
// over, and when every child of the run was skipped, so is the node (as in ordered<>, the
// children tried before a resumed one tell by their status bytes).
class random_selector final : public stateful_node<std::uint32_t> {
public:
    static constexpr bool waits_on_children = true;
    void enter(context& ctx) const override {
        const auto count = static_cast<std::uint32_t>(ctx.tree().child_count(ctx.node()));
        state(ctx) = static_cast<std::uint32_t>(ctx.random() % count);
    }

    // One pass round the children, from the drawn one, wrapping at the last.
    status tick(context& ctx) const override {
        const tree& t = ctx.tree();
        const tree::index first_child = ctx.node() + 1;
        const tree::index end = t.subtree_end(ctx.node());
        tree::index child = first_child;
        for (std::uint32_t k = state(ctx); k > 0; --k) child = t.subtree_end(child);
        const tree::index running = ctx.running_child();
        bool resumed = running == tree::no_parent;
        bool all_skipped = true;
        for (std::size_t k = t.child_count(ctx.node()); k > 0; --k) {
            if (resumed || child == running) {
                resumed = true;
                const status result = ctx.tick(child);
                if (result != status::skipped) all_skipped = false;
                if (result != status::failure && result != status::skipped) return result;
            } else {
                all_skipped = all_skipped && ctx.last_status(child) == status::skipped;
            }
            child = t.subtree_end(child);
            if (child == end) child = first_child;
        }
        return all_skipped ? status::skipped : status::failure;
    }
};

// The key a switch reads: any key; in a BehaviorTree.CPP file the entry it names is a
// string's, as its InputPort<std::string> declares it.
param_spec variable_param() {
    param_spec variable = param_spec::required("variable", param_type::key);
    variable.declares_entry = param_type::string;
    return variable;
}

// SwitchN's parameters: the key, then case_1 .. case_N, all required.
std::vector<param_spec> switch_params(int cases) {
    std::vector<param_spec> params{variable_param()};
    for (int k = 1; k <= cases; ++k) {
        params.push_back(param_spec::required("case_" + std::to_string(k), param_type::string));
    }
    return params;
}

// The switches are made by hand (their cases come from their parameters), so they say which
// hooks they use as add<Node> would have found: none. 4.10's SwitchNode does not set itself
// running as its tick starts. A world's agent does not sleep through a running case: the key
// is read on every tick, and a node of the tree may write it after the switch's tick, in the
// same tick of the agent.
void add_switch(registry& reg, node_type type) {
    type.hooks = overridden_hooks<switch_node>();
    type.stays_idle_when_skipped = true;
    reg.add(std::move(type));
}

template <int cases>
void add_switch_n(registry& reg, std::int64_t id) {
    add_switch(reg, node_type{"Switch" + std::to_string(cases), id, arity::composite,
                              switch_params(cases), &make_switch_n<cases>});
}

}  // namespace

void register_composites(registry& reg) {
    add_with_btcpp_form<ordered<status::failure, false>, ordered<status::failure, true>>(
        reg, "Sequence", 1, arity::composite);
    add_with_btcpp_form<ordered<status::success, false>, ordered<status::success, true>>(
        reg, "Selector", 2, arity::composite);
    add_with_btcpp_form<reactive<status::failure, false>, reactive<status::failure, true>>(
        reg, "ReactiveSequence", 6, arity::composite);
    add_with_btcpp_form<reactive<status::success, false>, reactive<status::success, true>>(
        reg, "ReactiveSelector", 7, arity::composite);
    reg.add<parallel>("Parallel", 8, arity::composite);
    reg.add<random_selector>("RandomSelector", 9, arity::composite);
    reg.add<one_per_tick<status::failure, true>>("SequenceWithMemory", 22, arity::composite);
    reg.add<parallel_all>("ParallelAll", 23, arity::composite);
    reg.add<one_per_tick<status::failure, false>>("AsyncSequence", 65, arity::composite);
    reg.add<one_per_tick<status::success, false>>("AsyncFallback", 66, arity::composite);
    add_with_btcpp_form<if_then_else<false>, if_then_else<true>>(reg, "IfThenElse", 24,
                                                                 arity::composite);
    reg.add<while_do_else>("WhileDoElse", 25, arity::composite);
    add_switch_n<2>(reg, 26);
    add_switch_n<3>(reg, 27);
    add_switch_n<4>(reg, 28);
    add_switch_n<5>(reg, 29);
    add_switch_n<6>(reg, 30);
    add_switch(reg, node_type{"Switch",
                              31,
                              arity::composite,
                              {variable_param(), param_spec::required("cases", param_type::string)},
                              &make_switch});
    reg.add<pipeline_sequence>("PipelineSequence", 32, arity::composite);
    reg.add<round_robin>("RoundRobin", 33, arity::composite);
    reg.add<recovery_node>("RecoveryNode", 34, arity::composite);
    reg.add<try_catch>("TryCatch", 64, arity::composite);
    reg.add_alias("Fallback", "Selector");
    reg.add_alias("ReactiveFallback", "ReactiveSelector");
    // behavior3js: MemSequence and MemPriority resume at the running child like Sequence and
    // Selector; Priority re-checks from the first child on every tick like ReactiveSelector.
    reg.add_alias("MemSequence", "Sequence");
    reg.add_alias("MemPriority", "Selector");
    reg.add_alias("Priority", "ReactiveSelector");
}

}  // namespace canopy::detail
