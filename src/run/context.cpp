// The tick engine: one agent's walk over its shared tree, keeping all it changes in the
// agent's state block. Its inner step is inline in canopy/run/context.hpp; what runs less often
// (halting, the observed step, the context's accessors) is here.
#include "canopy/run/context.hpp"

#include <optional>

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/event.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/script.hpp"
#include "core/seconds.hpp"
#include "run/node_named.hpp"
#include "run/sleep_report.hpp"

namespace canopy {
namespace {

constexpr auto idle_code = static_cast<std::uint8_t>(status::idle);

}  // namespace

std::uint64_t context::random() const noexcept {
    // xorshift64*: one multiply per number, no allocation, plenty for picking children.
    std::uint64_t& x = core_->random;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545f4914f6cdd1dULL;
}

void context::note_unchanged_until(std::int64_t time_ns) noexcept {
    sleep_->note(node_, time_ns);
}

status context::running_for(double seconds) noexcept {
    return running_until(time_ns() + detail::seconds_to_ns(seconds));
}

void context::throw_host_mismatch(detail::host_type wanted) const {
    const std::string name = detail::host_type_name(wanted);
    throw host_error(
        "node " + std::to_string(tree_->record_id(node_)) + " ('" +
        std::string(tree_->type_name(node_)) + "') asked for the agent's host as a '" + name +
        "', " +
        (core_->host ? "which it is not (a '" + detail::host_type_name(core_->host.type()) + "')"
                     : std::string("but the agent has none")) +
        ": make the agent with a pointer to a '" + name + "', and declare `using host_type = " +
        name + ";` in the node's class to have agents checked when made");
}

std::string detail::node_named(const context& ctx) {
    const canopy::tree& t = ctx.tree();
    std::string text = "node " + std::to_string(t.record_id(ctx.node())) + " ('" +
                       std::string(t.type_name(ctx.node())) + "'";
    const source_location where = t.where(ctx.node());
    if (where.line != 0) {
        text += ", line " + std::to_string(where.line);
        if (where.column != 0) text += ", column " + std::to_string(where.column);
    }
    return text + ")";
}

void context::require_value(std::uint32_t slot) const {
    const canopy::blackboard board = blackboard();
    if (board.is_set(slot) || !board.keys()[slot].starts_unset) return;
    throw error(error_code::blackboard, "node " + std::to_string(tree_->record_id(node_)) + " ('" +
                                            std::string(tree_->type_name(node_)) +
                                            "') reads key '" + board.keys()[slot].name +
                                            "', which holds no value: nothing wrote it yet");
}

void context::deliver_event(std::string_view event, const event_values& values) {
    const tree::index outer = node_;
    const event_values* outer_event = event_;
    event_ = &values;
    const std::uint8_t* code = codes();
    const auto size = static_cast<tree::index>(layout_->subtree_end.size());
    std::optional<error> failure;
    for (tree::index k = 0; k < size; ++k) {
        if (code[k] != static_cast<std::uint8_t>(status::running) &&
            (hooks_[k] & detail::listening_hook) == 0) {
            continue;
        }
        node_ = k;
        try {
            nodes_[k]->on_event(*this, event);
        } catch (const error& e) {
            if (!failure) failure = e;
        }
    }
    node_ = outer;
    event_ = outer_event;
    if (failure) throw *failure;
}

const event_values& context::event() const noexcept {
    static const event_values none;
    return event_ != nullptr ? *event_ : none;
}

void context::deliver_agent_event(std::string_view event) {
    const tree::index outer = node_;
    for (const tree::index k : layout_->listeners) {
        node_ = k;
        nodes_[k]->on_event(*this, event);
    }
    node_ = outer;
}

// In reverse preorder every descendant comes before its ancestors, so children are halted
// before their parents. Finished nodes in the subtree become idle too. A node a skipped tick
// left running to BehaviorTree.CPP (detail::left_running_code) is halted as a running one,
// where 4.10's halt reaches it.
// An _onHalted that fails does not stop the halt: every running node is still halted, and
// the first failure is thrown at the end.
void context::halt_subtree(tree::index node) {
    const tree::index outer = node_;
    std::uint8_t* code = codes();
    std::optional<error> failure;
    const bool keeps_abandoned = layout_->interrupts_on_error && !halts_abandoned_;
    if (sleep_ != nullptr) sleep_->forget(node, layout_->subtree_end[node]);
    for (tree::index k = layout_->subtree_end[node]; k-- > node;) {
        if (keeps_abandoned && abandoned(node, k)) continue;
        // clear_all() halts an abandoned node as a running one.
        if (code[k] == detail::abandoned_code) code[k] = static_cast<std::uint8_t>(status::running);
        if (code[k] != static_cast<std::uint8_t>(status::running)) {
            if (code[k] != detail::left_running_code) {
                code[k] = idle_code;
                continue;
            }
            if (!halt_reaches(node, k)) continue;
        }
        // Observers saw a node left running finish skipped: its halt is 4.10's alone.
        const bool running = code[k] == static_cast<std::uint8_t>(status::running);
        node_ = k;
        if (uses(k, node::hook::halt)) nodes_[k]->halt(*this);
        code[k] = idle_code;
        if (observer_ != nullptr && running) observer_->on_halt(*agent_, k);
        if ((hooks_[k] & detail::conditions_hook) != 0) {
            const detail::node_conditions& c = layout_->conditions[layout_->condition_index[k]];
            using kind = detail::node_conditions;
            if (const script* on_halted = c.post[kind::on_halted]) {
                try {
                    on_halted->run(blackboard());
                } catch (const error& e) {
                    if (!failure)
                        failure = condition_failure(k, pre_condition_count + kind::on_halted, e);
                }
            }
        }
    }
    node_ = outer;
    if (failure) throw *failure;
}

// Whether halting `top` halts `k`, a node left running to BehaviorTree.CPP below it: 4.10's
// halts go down through running nodes only, so one under an idle node keeps its status.
// The ancestors' bytes are read before the halt changes them (reverse preorder).
bool context::halt_reaches(tree::index top, tree::index k) const {
    const std::uint8_t* code = codes();
    // `k` is in top's subtree: its ancestors lead to `top`.
    for (tree::index up = tree_->parent(k); k != top && up != top; up = tree_->parent(up)) {
        if (code[up] != static_cast<std::uint8_t>(status::running) &&
            code[up] != detail::left_running_code)
            return false;
    }
    return true;
}

// Whether `k`, in a behavior3 tree, is a node that a Timeout, Race or Watchdog abandoned
// (detail::abandoned_code), or one below such a node, up to `top`, `top` included. behavior3-ts
// drops such nodes from its stack without popping them, so nothing but a reset or an
// interruption of the tree clears their saved state: they, and the finished children a Parallel
// among them counts, are left as they are. Ancestors' bytes are read before the halt changes
// them (reverse preorder).
bool context::abandoned(tree::index top, tree::index k) const {
    const std::uint8_t* code = codes();
    for (tree::index up = k;; up = tree_->parent(up)) {
        if (code[up] == detail::abandoned_code) return true;
        if (up == top) return false;
    }
}

void context::reset_left_running_children() {
    for (const tree::index child : children()) reset(child);
}

// The node was skipped in this run, and stays so to the composites that count skips
// (ordered's all_skipped): only its being running to BehaviorTree.CPP ends.
void context::reset_left_running(tree::index node) {
    halt_subtree(node);
    codes()[node] = static_cast<std::uint8_t>(status::skipped);
}

// The step of a node with conditions, after BehaviorTree.CPP's executeTick. Pre-conditions,
// in its order: on a node that is not running, the first of _failureIf, _successIf, _skipIf
// that holds gives the result, and a _while that does not hold skips the node; on a running
// node only _while is checked, and when it no longer holds the node is halted and skipped.
// None is checked on a node that still holds a result (`kept`, from tick_kept), as 4.10
// checks them only on an idle or skipped node. Such a result replaces the node's tick (the
// node is neither entered nor exited). A result of success or failure, from either, runs
// _onSuccess or _onFailure and then _post. A script that fails throws an error naming the
// node and the condition. A node without conditions comes here only from tick_kept.
status context::step_with_conditions(tree::index child, status kept) {
    using kind = detail::node_conditions;
    const bool has_conditions = (hooks_[child] & detail::conditions_hook) != 0;
    const kind* conditions =
        has_conditions ? &layout_->conditions[layout_->condition_index[child]] : nullptr;
    std::uint8_t& code = codes()[child];
    const tree::index outer = node_;
    node_ = child;
    if (observer_ != nullptr) notify_visit(child);
    const bool was_running = code == static_cast<std::uint8_t>(status::running);
    // Running to BehaviorTree.CPP: only _while is checked, and a halt runs _onHalted.
    const bool runs = was_running || code == detail::left_running_code;
    const canopy::blackboard board = blackboard();
    std::size_t which = 0;  // the condition being run, for a failure's message
    status result = status::idle;
    bool ticked = false;
    try {
        for (; conditions != nullptr && kept == status::idle && which < kind::pre_count; ++which) {
            const script* condition = conditions->pre[which];
            if (condition == nullptr || (runs && which != kind::while_true)) continue;
            const bool holds = condition->test(board);
            if (which == kind::while_true) {
                if (holds) continue;
                if (runs) halt_subtree(child);
                result = status::skipped;
                break;
            }
            if (holds) {
                result = which == kind::failure_if   ? status::failure
                         : which == kind::success_if ? status::success
                                                     : status::skipped;
                break;
            }
        }
    } catch (const error& e) {
        throw condition_failure(child, which, e);
    }
    if (result == status::idle) {
        const canopy::node& behaviour = *nodes_[child];
        if (!was_running) {
            if (uses(child, node::hook::enter)) {
                kept_ = kept;  // for this enter only: the node's children are entered anew
                try {
                    behaviour.enter(*this);
                } catch (...) {
                    kept_ = status::idle;
                    throw;
                }
                kept_ = status::idle;
            }
            code = static_cast<std::uint8_t>(status::running);
        }
        result = behaviour.tick(*this);
        ticked = true;
        if (result != status::running) {
            if (unsettled(result) && result != status::skipped) result = settled(result, outer);
            if (uses(child, node::hook::exit)) behaviour.exit(*this, result);
        }
    }
    // Set before the post-conditions run, so that one that throws leaves a finished node
    // finished (a later reset must not halt what has exited).
    code = ticked && result == status::skipped ? skipped_code(child) : detail::status_code(result);
    if (conditions != nullptr &&
        (result == status::success || result == status::failure || result == status::error)) {
        which = result == status::success ? kind::on_success : kind::on_failure;
        try {
            if (const script* post = conditions->post[which]) post->run(board);
            which = kind::post_any;
            if (const script* post = conditions->post[which]) post->run(board);
        } catch (const error& e) {
            throw condition_failure(child, pre_condition_count + which, e);
        }
    }
    if (observer_ != nullptr) notify_tick(child, was_running, result);
    node_ = outer;
    return result;
}

// The end of the inline step for a result other than success, failure or running: idle and
// error as settled() says, skipped with the code skipped_code() gives.
status context::finish_unsettled(tree::index child, status result, tree::index outer,
                                 bool was_running) {
    if (result != status::skipped) result = settled(result, outer);
    if (uses(child, node::hook::exit)) nodes_[child]->exit(*this, result);
    codes()[child] = result == status::skipped ? skipped_code(child) : detail::status_code(result);
    if (observer_ != nullptr) notify_tick(child, was_running, result);
    node_ = outer;
    return result;
}

// The status byte of a node whose own tick returned skipped: in a BehaviorTree.CPP file's
// tree, a node with a child that was skipped (a control or decorator passing its children's
// skip on, detail::left_running_hook) stays running to BehaviorTree.CPP, which the tree's flag
// byte notes; any other is skipped. 4.10's RunOnce that skips a child it already ran did not
// set itself running first, and the test of a skipped child tells it apart.
std::uint8_t context::skipped_code(tree::index node) {
    if ((hooks_[node] & detail::left_running_hook) != 0) {
        for (const tree::index c : tree_->children(node)) {
            if (last_status(c) == status::skipped) {
                codes()[layout_->left_running_flag] = 1;
                left_running_ = true;
                return detail::left_running_code;
            }
        }
    }
    return static_cast<std::uint8_t>(status::skipped);
}

status context::tick_kept(tree::index child, status kept) {
    if (!layout_->fails_as_btcpp || (kept != status::success && kept != status::failure) ||
        is_running(child))
        return tick(child);
    return step_with_conditions(child, kept);
}

error context::condition_failure(tree::index node, std::size_t condition,
                                 const error& failure) const {
    return {failure.code(), "node " + std::to_string(tree_->record_id(node)) + " ('" +
                                std::string(tree_->type_name(node)) + "'), " +
                                std::string(condition_params[condition]) + ": " + failure.what()};
}

// context::tick with an observer told of each step, or in a behavior3 file's tree: rarely
// taken, so out of line.
status context::tick_out_of_line(tree::index child) {
    if (layout_->abandons) return step_behavior3(child);
    return step<true>(child);
}

// The step in a behavior3 file's tree, with what behavior3-ts's stack of running nodes adds
// to Canopy's walk from the root (docs/behavior3.md, "Abandoned nodes keep their state"):
// - It notes the status of every node whose tick finishes (`Tree.__lastStatus`: behavior3-ts
//   sets it at the end of each node's tick and resumes a parent with it).
// - A node that a Timeout, Race or Watchdog abandoned (detail::abandoned_code) kept its
//   saved state in behavior3-ts but is off the stack; when its parent ticks it again, its
//   `onTick` runs with that state and the last status, as if the child it was running had
//   just finished with it. So the node resumes as a running one, and its first tick of a
//   running child is replaced by the last status: the child is not ticked and is abandoned in
//   its turn. Every node that resumes a child that way in behavior3-ts refuses a running
//   status ("unexpected status error"), which interrupts the tree. A node that resumes its
//   children otherwise (resumes_abandoned()) has its children's ticks left alone.
status context::step_behavior3(tree::index child) {
    std::uint8_t& code = codes()[child];
    if (resuming_ == node_ && code == static_cast<std::uint8_t>(status::running)) {
        resuming_ = tree::no_parent;
        code = detail::abandoned_code;
        const status last = behavior3_last_status();
        if (last == status::running) {
            throw error(error_code::script,
                        detail::node_named(*this) +
                            ": behavior3-ts resumes this node, abandoned while it ran, with the "
                            "status of the node that ticked last, running, which it refuses "
                            "(\"unexpected status error\")");
        }
        return unsettled(last) ? settled(last, node_) : last;
    }
    const tree::index outer_resuming = resuming_;
    resuming_ = tree::no_parent;
    if (code == detail::abandoned_code) {
        code = static_cast<std::uint8_t>(status::running);
        resuming_ = child;
    }
    status result = status::idle;
    try {
        result = step<true>(child);
    } catch (...) {
        resuming_ = outer_resuming;
        throw;
    }
    resuming_ = outer_resuming;
    set_behavior3_last_status(result == status::skipped || result == status::idle ? status::failure
                                                                                  : result);
    return result;
}

void context::notify_visit(tree::index node) {
    if (observer_ != nullptr) observer_->on_visit(*agent_, node);
}

void context::notify_tick(tree::index node, bool was_running, status result) {
    if (observer_ == nullptr) return;
    // A node that was not running was entered: it comes from idle, whatever it last said.
    // An error is a failure to observers, as the node's status byte says.
    observer_->on_tick(*agent_, node, was_running ? status::running : status::idle,
                       static_cast<status>(detail::status_code(result)));
}

}  // namespace canopy
