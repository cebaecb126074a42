// The tick engine: one agent's walk over its shared tree, keeping all it changes in the
// agent's state block. Its inner step is inline in canopy/run/context.hpp; what runs less often
// (halting, the observed step, the context's accessors) is here.
#include "canopy/run/context.hpp"

#include "canopy/core/error.hpp"
#include "canopy/run/agent.hpp"
#include "canopy/run/observer.hpp"
#include "canopy/run/script.hpp"

namespace canopy {
namespace {

constexpr auto idle_code = static_cast<std::uint8_t>(status::idle);

// Runs one of a node's condition scripts; a failure names the node and the condition, as
// the script itself knows neither.
template <typename Run>
auto run_condition(const tree& t, tree::index node, std::size_t condition, Run run) {
    try {
        return run();
    } catch (const error& e) {
        throw error(e.code(), "node " + std::to_string(t.record_id(node)) + " ('" +
                                  std::string(t.type_name(node)) + "'), " +
                                  std::string(condition_params[condition]) + ": " + e.what());
    }
}

}  // namespace

std::uint64_t context::random() const noexcept {
    // xorshift64*: one multiply per number, no allocation, plenty for picking children.
    std::uint64_t& x = core_->random;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545f4914f6cdd1dULL;
}

void context::throw_host_mismatch() const {
    throw host_error("node " + std::to_string(tree_->record_id(node_)) + " ('" +
                     std::string(tree_->type_name(node_)) + "') asked for the agent's host as " +
                     (core_->host ? "a type it is not" : "an object, but the agent has none") +
                     ": make the agent with a pointer to the host's own type");
}

// In reverse preorder every descendant comes before its ancestors, so children are halted
// before their parents. Finished nodes in the subtree become idle too.
void context::halt_subtree(tree::index node) {
    const tree::index outer = node_;
    std::uint8_t* code = codes();
    for (tree::index k = layout_->subtree_end[node]; k-- > node;) {
        if (code[k] != static_cast<std::uint8_t>(status::running)) {
            code[k] = idle_code;
            continue;
        }
        node_ = k;
        if (uses(k, node::hook::halt)) nodes_[k]->halt(*this);
        code[k] = idle_code;
        if (observer_ != nullptr) observer_->on_halt(*agent_, k);
        if ((hooks_[k] & detail::conditions_hook) != 0) {
            const detail::node_conditions& c = layout_->conditions[layout_->condition_index[k]];
            using kind = detail::node_conditions;
            if (const script* on_halted = c.post[kind::on_halted]) {
                run_condition(*tree_, k, pre_condition_count + kind::on_halted,
                              [&] { on_halted->run(blackboard()); });
            }
        }
    }
    node_ = outer;
}

// BehaviorTree.CPP's pre-conditions, in its order: on a node that is not running, the first
// of _failureIf, _successIf, _skipIf that holds gives the result, and a _while that does not
// hold skips the node; on a running node only _while is checked, and when it no longer holds
// the node is halted and skipped. Nothing: the node ticks.
std::optional<status> context::check_pre_conditions(const detail::node_conditions& conditions,
                                                    tree::index child, bool was_running) {
    using kind = detail::node_conditions;
    for (std::uint8_t k = 0; k < kind::pre_count; ++k) {
        const script* condition = conditions.pre[k];
        if (condition == nullptr) continue;
        auto holds_now = [&] {
            return run_condition(*tree_, child, k, [&] { return condition->test(blackboard()); });
        };
        if (!was_running) {
            const bool holds = holds_now();
            if (holds && k == kind::failure_if) return status::failure;
            if (holds && k == kind::success_if) return status::success;
            if (holds && k == kind::skip_if) return status::skipped;
            if (!holds && k == kind::while_true) return status::skipped;
        } else if (k == kind::while_true && !holds_now()) {
            halt_subtree(child);
            return status::skipped;
        }
    }
    return std::nullopt;
}

// The step of a node with conditions: a pre-condition's result replaces the node's tick
// (the node is then neither entered nor exited), and a result of success or failure, from
// either, runs _onSuccess or _onFailure and then _post. A script that fails throws an
// error naming the node and the condition.
status context::step_with_conditions(tree::index child) {
    const detail::node_conditions& conditions =
        layout_->conditions[layout_->condition_index[child]];
    std::uint8_t& code = codes()[child];
    const canopy::node& behaviour = *nodes_[child];
    const tree::index outer = node_;
    node_ = child;
    if (observer_ != nullptr) notify_visit(child);
    const bool was_running = code == static_cast<std::uint8_t>(status::running);
    status result = status::idle;
    if (std::optional<status> decided = check_pre_conditions(conditions, child, was_running)) {
        result = *decided;
    } else {
        if (!was_running) {
            if (uses(child, node::hook::enter)) behaviour.enter(*this);
            code = static_cast<std::uint8_t>(status::running);
        }
        result = behaviour.tick(*this);
        if (result != status::running) {
            if (result == status::idle) result = status::failure;
            if (uses(child, node::hook::exit)) behaviour.exit(*this, result);
        }
    }
    // Set before the post-conditions run, so that one that throws leaves a finished node
    // finished (a later reset must not halt what has exited).
    code = static_cast<std::uint8_t>(result == status::skipped ? status::idle : result);
    if (result == status::success || result == status::failure) {
        using kind = detail::node_conditions;
        const std::uint8_t first = result == status::success ? kind::on_success : kind::on_failure;
        for (std::uint8_t k : {first, std::uint8_t{kind::post_any}}) {
            if (const script* post = conditions.post[k]) {
                run_condition(*tree_, child, pre_condition_count + k,
                              [&] { post->run(blackboard()); });
            }
        }
    }
    if (observer_ != nullptr) notify_tick(child, was_running, result);
    node_ = outer;
    return result;
}

// context::tick with an observer told of each step: rarely taken, so out of line.
status context::tick_observed(tree::index child) {
    return step<true>(child);
}

void context::notify_visit(tree::index node) {
    observer_->on_visit(*agent_, node);
}

void context::notify_tick(tree::index node, bool was_running, status result) {
    // A node that was not running was entered: it comes from idle, whatever it last said.
    observer_->on_tick(*agent_, node, was_running ? status::running : status::idle, result);
}

}  // namespace canopy
