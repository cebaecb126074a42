// behavior3-ts's nodes that evaluate expressions or move values (its src/behavior3/nodes:
// conditions/check.ts, actions/calculate.ts, actions/let.ts, decorators/assert.ts,
// actions/now.ts, conditions/is-null.ts, conditions/not-null.ts). Their
// expressions are compiled at load in the script compiler's behavior3 dialect, so a tick
// looks nothing up by name and, for numbers and booleans, allocates nothing.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/script.hpp"
#include "dialects/behavior3/nodes/dynamic_io.hpp"
#include "dialects/behavior3/nodes/value_nodes.hpp"
#include "nodes/builtin.hpp"

namespace canopy::detail {
namespace {

// Check: success when the expression `value` is truthy, else failure.
class check final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::script("value", script_dialect::behavior3)};
    }
    explicit check(const param_list& params) : value_(params.script("value")) {}
    status tick(context& ctx) const override {
        return value_.test(ctx.blackboard()) ? status::success : status::failure;
    }

private:
    const script& value_;
};

// Calculate: evaluates `value` into its output variable, whatever its kind (undefined
// deletes the variable), and succeeds. A variable of another type than `json` (one the file
// declares a number, or one the tree only gives numbers) takes a number: a boolean result as
// 1 or 0.
class calculate final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::script("value", script_dialect::behavior3), any_output("output1")};
    }
    explicit calculate(const param_list& params)
        : value_(params.script("value")), key_(output_key(params, "output1")) {}
    status tick(context& ctx) const override {
        if (key_ == param::no_key) {
            (void)value_.value(ctx.blackboard());
            return status::success;
        }
        blackboard board = ctx.blackboard();
        // A variable the tree only gives numbers: no expression written to it gives undefined
        // (it reads no field, and an undefined variable throws), so the number is all.
        if (board.type(key_) == param_type::number && !board.keys()[key_].from_file) {
            board.set(key_, value_.number(board));
            return status::success;
        }
        const std::optional<dynamic_value> value = value_.value(board);
        if (value && board.type(key_) != param_type::custom) {
            board.set(key_, value->to_number());
            return status::success;
        }
        if (!value) {
            board.unset(key_);
        } else if (!write_dynamic(board, key_, *value)) {
            return status::failure;
        }
        return status::success;
    }

private:
    const script& value_;
    std::uint32_t key_;
};

// Let: writes `value`, a literal or (behavior3's input slot) another variable's value, to its
// output variable, and succeeds. A variable's array or object is the same one after (behavior3
// shares JavaScript's references); a literal one is made anew each time, as behavior3-ts
// reads its arguments anew at each tick. An undefined variable deletes the output's.
class let final : public node {
public:
    static std::vector<param_spec> parameters() {
        // A variable only Lets write holds what they write: with an array or object, `json`.
        param_spec variable = param_spec::required("output1", param_type::key);
        variable.implicit_key_type = dynamic_value_type();
        return {any_param("value"), std::move(variable)};
    }
    explicit let(const param_list& params)
        : key_(static_cast<std::uint32_t>(params.get<std::int64_t>("output1"))),
          value_(params, "value") {
        if (!value_.from_key() && value_.literal().is_number()) number_ = value_.literal().number();
    }

    status tick(context& ctx) const override {
        blackboard board = ctx.blackboard();
        // The common case, a number into a number variable, without a dynamic value.
        if (number_ && board.type(key_) == param_type::number) {
            board.set(key_, *number_);
            return status::success;
        }
        if (value_.from_key() && !board.is_set(value_.key())) {
            board.unset(key_);
            return status::success;
        }
        dynamic_value scratch;
        const dynamic_value& value = value_.get(board, scratch);
        const bool fresh = !value_.from_key() && (value.is_array() || value.is_object());
        return write_dynamic(board, key_, fresh ? value.clone() : value) ? status::success
                                                                         : status::failure;
    }

private:
    std::uint32_t key_;
    any_input value_;
    std::optional<double> number_;  // the literal, when it is a number
};

// Assert: the child's success or running passed on; its failure is an error that leaves the
// tick with `message`, as behavior3-ts throws it out of the tree's run.
class assert_node final : public node {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::optional("message", std::string())};
    }
    explicit assert_node(const param_list& params)
        : message_(std::get<std::string>(*params.find("message"))) {}
    status tick(context& ctx) const override {
        const status result = ctx.tick(ctx.child());
        if (result == status::failure) {
            throw error(error_code::script, "behavior3 Assert failed: " + message_);
        }
        return result;
    }

private:
    std::string message_;
};

// Now: writes the time to its output and succeeds: the agent's clock in seconds, the sum of
// its ticks' time steps (behavior3-ts's Context.time, which the host advances by its dt).
class now final : public node {
public:
    status tick(context& ctx) const override {
        time_.set(ctx, ctx.time());
        return status::success;
    }

private:
    output<double> time_{"output1"};
};

// IsNull and NotNull: whether input 1's variable holds nothing, which behavior3-ts says of a
// variable never written or cleared (undefined or null). Canopy's keys always hold a value;
// "nothing" is a key neither declared with an initial value nor written since the agent was
// made, or unset since: the node watches updates, so that the blackboard keeps the stamps
// that tell.
template <bool null_succeeds>
class null_check final : public node {
public:
    static constexpr bool watches_updates = true;
    static std::vector<param_spec> parameters() {
        return {param_spec::required("input1", param_type::key)};
    }
    explicit null_check(const param_list& params)
        : key_(static_cast<std::uint32_t>(params.get<std::int64_t>("input1"))) {}
    status tick(context& ctx) const override {
        const blackboard board = ctx.blackboard();
        const bool declared =
            board.keys()[key_].initial.has_value() || board.keys()[key_].initial_object != nullptr;
        const bool null = !board.is_set(key_) || (board.stamp(key_) == 0 && !declared);
        return null == null_succeeds ? status::success : status::failure;
    }

private:
    std::uint32_t key_;
};

}  // namespace

void register_behavior3_value_nodes(registry& reg) {
    node_type check_type{"behavior3.Check", std::nullopt, arity::leaf, check::parameters(),
                         [](const param_list& params) -> std::unique_ptr<node> {
                             return std::make_unique<check>(params);
                         }};
    check_type.condition = true;
    check_type.hooks = overridden_hooks<check>();
    reg.add(std::move(check_type));
    reg.add<calculate>("behavior3.Calculate");
    reg.add<let>("behavior3.Let");
    reg.add<assert_node>("behavior3.Assert", std::nullopt, arity::decorator);
    reg.add<now>("behavior3.Now");
    register_behavior3_math_node(reg);
    for (const auto& [name, null_succeeds] :
         {std::pair{"behavior3.IsNull", true}, std::pair{"behavior3.NotNull", false}}) {
        node_type type{
            name, std::nullopt, arity::leaf, null_check<true>::parameters(),
            null_succeeds
            ? [](const param_list& params)
                  -> std::unique_ptr<node> { return std::make_unique<null_check<true>>(params); }
            : [](const param_list& params) -> std::unique_ptr<node> {
                  return std::make_unique<null_check<false>>(params);
              }};
        type.condition = true;
        type.watches_updates = true;
        reg.add(std::move(type));
    }
}

}  // namespace canopy::detail
