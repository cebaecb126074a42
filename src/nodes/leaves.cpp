// AlwaysSuccess, AlwaysFailure, AlwaysRunning, Wait, WaitTicks, Log, CheckBlackboard and
// SetBlackboard.
#include <cstdint>
#include <iostream>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "canopy/run/tree.hpp"
#include "core/param_text.hpp"
#include "nodes/blackboard_condition.hpp"
#include "nodes/builtin.hpp"
#include "run/btcpp_entry.hpp"

namespace canopy::detail {
namespace {

template <status result>
class constant final : public node {
public:
    status tick(context& ctx) const override {
        // AlwaysRunning's ticks change nothing, ever: a world's agent sleeps until woken.
        if constexpr (result == status::running) return ctx.running_until(context::never);
        return result;
    }
};

// Running until `seconds` of agent time have passed since the tick that entered it, then
// success: with S seconds at steps of dt, the first tick at which elapsed >= S, i.e. tick
// ceil(S/dt) + 1 of the run. Entered with its success kept (context::kept_result), it
// succeeds at once, as BehaviorTree.CPP's SleepNode, a StatefulActionNode, returns it again.
// Until then its ticks change nothing, which it says (context::running_until): a world's
// agent sleeps until the first tick whose clock reaches the end, the very tick that succeeds
// when the agent is ticked every frame.
class wait final : public stateful_node<std::int64_t> {
public:
    wait() {
        if (!seconds_.from_blackboard() && seconds_.literal() < 0) {
            throw param_error("'seconds' must not be negative");
        }
    }
    void enter(context& ctx) const override {
        state(ctx) = ctx.kept_result() == status::idle ? ctx.time_ns() : success_kept;
    }
    status tick(context& ctx) const override {
        if (state(ctx) == success_kept) return status::success;
        const std::int64_t end = state(ctx) + seconds_to_ns(seconds_.get(ctx));
        return ctx.time_ns() >= end ? status::success : ctx.running_until(end);
    }

private:
    // A start no clock reaches (the agent's starts at 0).
    static constexpr std::int64_t success_kept = std::numeric_limits<std::int64_t>::min();
    input<double> seconds_{"seconds"};
};

// Running on its first `ticks` ticks, success on the next.
class wait_ticks final : public stateful_node<std::int64_t> {
public:
    wait_ticks() {
        if (*ticks_ < 0) throw param_error("'ticks' must be 0 or more");
    }
    void enter(context& ctx) const override { state(ctx) = *ticks_; }
    status tick(context& ctx) const override {
        return state(ctx)-- > 0 ? status::running : status::success;
    }

private:
    setting<std::int64_t> ticks_{"ticks"};
};

// Every Log line goes out whole, even when several threads tick agents that log.
std::mutex log_mutex;

// Writes its message, or else its describe, as one line on standard output, and succeeds.
class log final : public node {
public:
    static std::vector<param_spec> parameters() {
        // input1: a key whose value follows the message (behavior3's Log prints both).
        return {param_spec::optional("message", std::string()),
                {"input1", param_type::any, std::nullopt, false, nullptr}};
    }
    explicit log(const param_list& params) : message_(params, "message") {
        if (const param* value = params.find_param("input1")) value_ = value->key;
    }
    status tick(context& ctx) const override {
        std::string_view text = message_.get(ctx);
        if (text.empty() && value_ == param::no_key) text = ctx.tree().describe(ctx.node());
        const canopy::blackboard board = ctx.blackboard();
        const std::lock_guard<std::mutex> lock(log_mutex);
        std::cout << text;
        if (value_ != param::no_key && board.is_set(value_)) std::cout << ' ' << board.text(value_);
        std::cout << '\n';
        return status::success;
    }

private:
    input<std::string_view> message_;
    std::uint32_t value_ = param::no_key;
};

// Succeeds when the key's value compares as asked with `value` (a literal or another key).
class check_blackboard final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("key", param_type::key),
                param_spec::optional("op", std::string("==")),
                param_spec::required("value", param_type::key_value)};
    }
    explicit check_blackboard(const param_list& params) : condition_(params) {}
    status tick(context& ctx) const override {
        return condition_.holds(ctx) ? status::success : status::failure;
    }

private:
    blackboard_condition condition_;
};

// Writes `value`, a literal or another key's value, to the key.
class set_blackboard final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("key", param_type::key),
                param_spec::required("value", param_type::key_value)};
    }
    explicit set_blackboard(const param_list& params)
        : key_(static_cast<std::uint32_t>(params.get<std::int64_t>("key"))),
          value_(*params.find_param("value")) {}

    status tick(context& ctx) const override {
        if (is_btcpp_entry(ctx.blackboard().keys()[key_].custom.get())) return set_entry(ctx);
        write_value(ctx.blackboard(), key_, value_);
        return status::success;
    }

private:
    // BehaviorTree.CPP's SetBlackboard into a dynamic entry (docs/btcpp-xml.md): the literal's
    // text, or the source entry's value and, for a key it makes, its type.
    status set_entry(context& ctx) const {
        blackboard board = ctx.blackboard();
        btcpp_any value;
        std::optional<btcpp_entry::declared> made_as;
        if (value_.key == param::no_key) {
            const auto* text = std::get_if<std::string>(&value_.value);
            value = btcpp_any::text(text != nullptr ? *text : value_text(value_.value));
        } else {
            const blackboard_key& source = board.keys()[value_.key];
            if (is_btcpp_entry(source.custom.get())) {
                const auto& from = board.get_ref<btcpp_entry>(value_.key);
                if (!from.exists) missing_source(ctx, source);
                value = from.value;
                made_as = from.type;
            } else if (source.starts_unset && !board.is_set(value_.key)) {
                if (source.made_by_script) missing_source(ctx, source);
            } else {
                value = value_of(board, value_.key);
                made_as =
                    source.made_by_script ? btcpp_entry::declared::any : declared_by(source.type);
            }
            if (value.empty()) return status::failure;
        }
        btcpp_entry entry = board.get_ref<btcpp_entry>(key_);
        try {
            set_from_blackboard_node(entry, value, made_as);
        } catch (const error& e) {
            fail(ctx, e.what());
        }
        board.set_object(key_, type_id_of<btcpp_entry>(), &entry);
        if (entry.value.empty()) board.mark_empty(key_);
        return status::success;
    }

    [[noreturn]] static void missing_source(const context& ctx, const blackboard_key& source) {
        fail(ctx, "Can't find the port referred by [value]: no entry '" + source.name + "' yet");
    }
    [[noreturn]] static void fail(const context& ctx, const std::string& message) {
        throw error(error_code::blackboard, "node " +
                                                std::to_string(ctx.tree().record_id(ctx.node())) +
                                                " ('SetBlackboard'): " + message);
    }

    std::uint32_t key_;
    param value_;
};

}  // namespace

void write_value(blackboard board, std::uint32_t key, const param& value) {
    if (value.key != param::no_key) {
        // The loader checked that the source key's type fits the target's.
        if (board.type(key) == param_type::number) {  // from a number or an integer key
            board.set(key, board.get<double>(value.key));
        } else {
            board.copy(key, board, value.key);
        }
    } else if (value.object != nullptr) {  // a registered type's literal, read at load
        board.set_object(key, value.object_type, value.object.get());
    } else {
        std::visit([&](const auto& literal) { board.set(key, literal); }, value.value);
    }
}

void register_leaves(registry& reg) {
    reg.add<constant<status::success>>("AlwaysSuccess", 4);
    reg.add<constant<status::failure>>("AlwaysFailure", 5);
    reg.add<constant<status::running>>("AlwaysRunning", 61);
    reg.add<wait>("Wait", 18);
    reg.add<wait_ticks>("WaitTicks", 60);
    reg.add<log>("Log", 19);
    reg.add<check_blackboard>("CheckBlackboard", 20);
    reg.add<set_blackboard>("SetBlackboard", 21);
    reg.add_alias("Sleep", "Wait");
    reg.add_alias("Succeeder", "AlwaysSuccess");
    reg.add_alias("Failer", "AlwaysFailure");
    reg.add_alias("Runner", "AlwaysRunning");
}

}  // namespace canopy::detail
