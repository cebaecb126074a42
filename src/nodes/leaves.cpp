// AlwaysSuccess, AlwaysFailure, Wait, Log, CheckBlackboard and SetBlackboard.
#include <iostream>
#include <stdexcept>
#include <string>

#include "builtin.hpp"
#include "canopy/context.hpp"

namespace canopy::detail {
namespace {

template <status result>
class constant final : public node {
public:
    constant() : node({}) {}
    status tick(context& /*ctx*/) const override { return result; }
};

// With `ticks` N: running on its first N ticks, success on the next. With `seconds` S:
// running until S seconds of agent time have passed since its first tick (seed 003's idle
// timer), then success.
class wait final : public node {
public:
    explicit wait(const param_list& params)
        : node({hook::enter}),
          seconds_(params.get<double>("seconds")),
          ticks_(params.get<std::int64_t>("ticks")) {
        if ((seconds_ >= 0) == (ticks_ >= 0)) {
            throw std::invalid_argument("give 'seconds' or 'ticks', one of them");
        }
    }
    state_layout state() const override { return {sizeof(union_state), alignof(union_state)}; }
    void enter(context& ctx) const override {
        if (ticks_ >= 0) {
            ctx.state<union_state>().ticks_left = ticks_;
        } else {
            ctx.state<union_state>().started = ctx.time_ns();
        }
    }
    status tick(context& ctx) const override {
        auto& s = ctx.state<union_state>();
        if (ticks_ >= 0) return s.ticks_left-- > 0 ? status::running : status::success;
        return ctx.time_ns() - s.started >= seconds_to_ns(seconds_) ? status::success
                                                                    : status::running;
    }

private:
    union union_state {
        std::int64_t started;
        std::int64_t ticks_left;
    };
    double seconds_;
    std::int64_t ticks_;
};

// Writes its message, or else its describe, as one line on standard output, and succeeds.
class log final : public node {
public:
    explicit log(const param_list& params)
        : node({}), message_(params.get<std::string>("message")) {}
    status tick(context& ctx) const override {
        const std::string_view text = message_.empty() ? ctx.tree().describe(ctx.node()) : message_;
        std::cout << text << '\n';
        return status::success;
    }

private:
    std::string message_;
};

enum class comparison : std::uint8_t { equal, not_equal, less, less_equal, greater, greater_equal };

comparison parse_comparison(const std::string& op, bool boolean) {
    static const std::pair<const char*, comparison> ops[] = {
        {"==", comparison::equal},  {"!=", comparison::not_equal},
        {"<", comparison::less},    {"<=", comparison::less_equal},
        {">", comparison::greater}, {">=", comparison::greater_equal}};
    for (const auto& [text, value] : ops) {
        if (op != text) continue;
        if (boolean && value != comparison::equal && value != comparison::not_equal) {
            throw std::invalid_argument("a boolean key compares with == or != only, not '" + op +
                                        "'");
        }
        return value;
    }
    throw std::invalid_argument("'op' must be one of == != < <= > >=, not '" + op + "'");
}

template <typename T>
bool compare(T a, comparison op, T b) {
    switch (op) {
        case comparison::equal: return a == b;
        case comparison::not_equal: return a != b;
        case comparison::less: return a < b;
        case comparison::less_equal: return a <= b;
        case comparison::greater: return a > b;
        case comparison::greater_equal: return a >= b;
    }
    return false;
}

// Succeeds when the key's value compares as asked with `value` (given in the key's type).
class check_blackboard final : public node {
public:
    explicit check_blackboard(const param_list& params)
        : node({}),
          slot_(static_cast<std::uint32_t>(params.get<std::int64_t>("key"))),
          value_(*params.find("value")),
          op_(parse_comparison(params.get<std::string>("op"), value_.index() == 0)) {}

    status tick(context& ctx) const override {
        const blackboard board = ctx.blackboard();
        bool holds = false;
        switch (value_.index()) {
            case 0: holds = compare(board.get<bool>(slot_), op_, std::get<bool>(value_)); break;
            case 1:
                holds =
                    compare(board.get<std::int64_t>(slot_), op_, std::get<std::int64_t>(value_));
                break;
            default:
                holds = compare(board.get<double>(slot_), op_, std::get<double>(value_));
                break;
        }
        return holds ? status::success : status::failure;
    }

private:
    std::uint32_t slot_;
    param_value value_;
    comparison op_;
};

class set_blackboard final : public node {
public:
    explicit set_blackboard(const param_list& params)
        : node({}),
          slot_(static_cast<std::uint32_t>(params.get<std::int64_t>("key"))),
          value_(*params.find("value")) {}

    status tick(context& ctx) const override {
        blackboard board = ctx.blackboard();
        switch (value_.index()) {
            case 0: board.set(slot_, std::get<bool>(value_)); break;
            case 1: board.set(slot_, std::get<std::int64_t>(value_)); break;
            default: board.set(slot_, std::get<double>(value_)); break;
        }
        return status::success;
    }

private:
    std::uint32_t slot_;
    param_value value_;
};

}  // namespace

void register_leaves(registry& reg) {
    reg.add<constant<status::success>>("AlwaysSuccess", 4);
    reg.add<constant<status::failure>>("AlwaysFailure", 5);
    reg.add<wait>(
        "Wait", 18, arity::leaf,
        {param_spec::optional("seconds", -1.0), param_spec::optional("ticks", std::int64_t{-1})});
    reg.add<log>("Log", 19, arity::leaf, {param_spec::optional("message", std::string())});
    reg.add<check_blackboard>("CheckBlackboard", 20, arity::leaf,
                              {param_spec::required("key", param_type::key),
                               param_spec::optional("op", std::string("==")),
                               param_spec::required("value", param_type::key_value)});
    reg.add<set_blackboard>("SetBlackboard", 21, arity::leaf,
                            {param_spec::required("key", param_type::key),
                             param_spec::required("value", param_type::key_value)});
}

}  // namespace canopy::detail
