// BehaviorTree.CPP 4's nodes about blackboard entries: UnsetBlackboard, WasEntryUpdated,
// SkipUnlessUpdated and WaitValueUpdate, and its loops over a queue: LoopInt, LoopDouble,
// LoopString and LoopBool. docs/nodes.md gives each one's semantics.
//
// An update is a change of the key's stamp (blackboard::stamp), which every write makes, as
// BehaviorTree.CPP's entries count writes in their sequence_id. Each node keeps, per agent,
// the last stamp it saw; it starts at 0, the stamp of a key never written since the agent was
// made, so a key's initial value is not an update, and a program's write before the first
// tick is.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/value_type.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/stateful_node.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

std::uint32_t key_param(const param_list& params, std::string_view name) {
    return static_cast<std::uint32_t>(params.get<std::int64_t>(name));
}

// Unsets `key` (blackboard::unset) and succeeds.
class unset_blackboard final : public node {
public:
    static constexpr bool watches_updates = true;
    static std::vector<param_spec> parameters() {
        return {param_spec::required("key", param_type::key)};
    }
    explicit unset_blackboard(const param_list& params) : key_(key_param(params, "key")) {}
    status tick(context& ctx) const override {
        ctx.blackboard().unset(key_);
        return status::success;
    }

private:
    std::uint32_t key_;
};

// Whether the key's stamp differs from the one the node saw last, which it then remembers: an
// unset key has no entry in BehaviorTree.CPP, which answers "not updated" without remembering.
bool updated_since(const blackboard& board, std::uint32_t key, std::uint32_t& seen) {
    if (!board.is_set(key)) return false;
    const std::uint32_t stamp = board.stamp(key);
    const bool updated = stamp != seen;
    seen = stamp;
    return updated;
}

// WasEntryUpdated: success when `entry` was written since the node's last tick, else failure.
class was_entry_updated final : public stateful_node<std::uint32_t> {
public:
    static constexpr bool watches_updates = true;
    static std::vector<param_spec> parameters() {
        return {param_spec::required("entry", param_type::key)};
    }
    explicit was_entry_updated(const param_list& params) : key_(key_param(params, "entry")) {}
    status tick(context& ctx) const override {
        return updated_since(ctx.blackboard(), key_, state(ctx)) ? status::success
                                                                 : status::failure;
    }

private:
    std::uint32_t key_;
};

// SkipUnlessUpdated (skipped) and WaitValueUpdate (running): tick the child when `entry` was
// written since the node last looked, else return `otherwise`; a running child is ticked on
// without looking.
template <status otherwise>
class entry_updated final : public stateful_node<std::uint32_t> {
public:
    static constexpr bool watches_updates = true;
    static std::vector<param_spec> parameters() {
        return {param_spec::required("entry", param_type::key)};
    }
    explicit entry_updated(const param_list& params) : key_(key_param(params, "entry")) {}
    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        if (!ctx.is_running(child) && !updated_since(ctx.blackboard(), key_, state(ctx)))
            return otherwise;
        return ctx.tick(child);
    }

private:
    std::uint32_t key_;
};

// ---- LoopInt, LoopDouble, LoopString, LoopBool ----

// What each loop's queue holds, and how its text reads: BehaviorTree.CPP's
// convertFromString<SharedQueue<T>>, the text split at ';'.
template <typename Element>
struct loop_element;
template <>
struct loop_element<std::int64_t> {
    static constexpr const char* queue_name = "queue<integer>";
    static constexpr param_type type = param_type::integer;
    static std::int64_t read(std::string_view text) { return text::to_integer(text); }
    static std::string show(std::int64_t value) { return std::to_string(value); }
};
template <>
struct loop_element<double> {
    static constexpr const char* queue_name = "queue<number>";
    static constexpr param_type type = param_type::number;
    static double read(std::string_view text) { return text::to_number(text); }
    static std::string show(double value) { return text::of_number(value); }
};
template <>
struct loop_element<std::string> {
    static constexpr const char* queue_name = "queue<string>";
    static constexpr param_type type = param_type::string;
    static std::string read(std::string_view text) { return std::string(text); }
    static std::string show(const std::string& value) { return value; }
};
template <>
struct loop_element<bool> {
    static constexpr const char* queue_name = "queue<boolean>";
    static constexpr param_type type = param_type::boolean;
    static bool read(std::string_view text) { return text::to_bool(text); }
    static std::string show(bool value) { return value ? "true" : "false"; }
};

template <typename Element>
const std::shared_ptr<const value_type>& queue_type() {
    using traits = loop_element<Element>;
    static const std::shared_ptr<const value_type> type = make_value_type<std::deque<Element>>(
        traits::queue_name,
        [](std::string_view text) {
            std::deque<Element> queue;
            for (std::string_view part : text::split(text)) queue.push_back(traits::read(part));
            return queue;
        },
        [](const std::deque<Element>& queue) {
            std::string shown;
            for (std::size_t i = 0; i < queue.size(); ++i) {
                if (i != 0) shown += ';';
                shown += traits::show(queue[i]);
            }
            return shown;
        });
    return type;
}

// BehaviorTree.CPP's NodeStatus text for `if_empty`.
status if_empty_status(const param_list& params) {
    const auto& text = params.get<std::string>("if_empty");
    if (text == "SUCCESS" || text == "success") return status::success;
    if (text == "FAILURE" || text == "failure") return status::failure;
    if (text == "SKIPPED" || text == "skipped") return status::skipped;
    throw param_error("'if_empty' must be SUCCESS, FAILURE or SKIPPED, not '" + text + "'");
}

// Pops the front of `queue` into `value` and ticks the child, one element per tick: running
// while there is more (or the child runs), failure when the child fails, `if_empty` once the
// queue is empty. A queue from a key is popped in place (the key's stamp does not change, as
// BehaviorTree.CPP's shared queue is popped in place); a literal queue is copied afresh each
// time the node is entered, which this node keeps as the position of its next element.
template <typename Element>
class loop final : public stateful_node<std::uint32_t> {
    using queue = std::deque<Element>;

public:
    static std::vector<param_spec> parameters() {
        return {param_spec::required("queue", queue_type<Element>()),
                param_spec::optional("if_empty", std::string("SUCCESS")),
                param_spec::output_port("value", loop_element<Element>::type)};
    }
    explicit loop(const param_list& params)
        : if_empty_(if_empty_status(params)), value_(params, "value") {
        const param& given = *params.find_param("queue");
        key_ = given.key;
        literal_ = given.object;
    }

    void enter(context& ctx) const override { state(ctx) = 0; }

    status tick(context& ctx) const override {
        const tree::index child = ctx.child();
        if (!ctx.is_running(child)) {
            if (key_ != param::no_key) {
                auto& from = ctx.blackboard().template get_mutable<queue>(key_);
                if (from.empty()) return if_empty_;
                Element next = std::move(from.front());
                from.pop_front();
                value_.set(ctx, next);
            } else {
                const queue& from = *static_cast<const queue*>(literal_.get());
                std::uint32_t& position = state(ctx);
                if (position >= from.size()) return if_empty_;
                value_.set(ctx, from[position++]);
            }
        }
        return ctx.tick(child) == status::failure ? status::failure : status::running;
    }

private:
    status if_empty_;
    output<Element> value_;
    std::uint32_t key_ = param::no_key;
    std::shared_ptr<const void> literal_;
};

}  // namespace

void register_blackboard_nodes(registry& reg) {
    reg.add_type(queue_type<std::int64_t>());
    reg.add_type(queue_type<double>());
    reg.add_type(queue_type<std::string>());
    reg.add_type(queue_type<bool>());
    reg.add<unset_blackboard>("UnsetBlackboard", 62);
    reg.add<was_entry_updated>("WasEntryUpdated", 63);
    reg.add<entry_updated<status::skipped>>("SkipUnlessUpdated", 49, arity::decorator);
    reg.add<entry_updated<status::running>>("WaitValueUpdate", 50, arity::decorator);
    reg.add<loop<std::int64_t>>("LoopInt", 51, arity::decorator);
    reg.add<loop<double>>("LoopDouble", 52, arity::decorator);
    reg.add<loop<std::string>>("LoopString", 53, arity::decorator);
    reg.add<loop<bool>>("LoopBool", 54, arity::decorator);
}

}  // namespace canopy::detail
