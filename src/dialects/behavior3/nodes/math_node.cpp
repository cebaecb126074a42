// behavior3-ts's Math (src/behavior3/nodes/actions/math.ts there): one of twenty operations
// over `value1`, `value2` and the input variables, its result written to output 1. Which
// operands a node has is known at load (literals and wired inputs), so an operation given the
// wrong number of them, or an unknown operation, is a problem at load.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "dialects/behavior3/nodes/value_nodes.hpp"

namespace canopy::detail {
namespace {

enum class math_op : std::uint8_t {
    abs,
    ceil,
    floor,
    round,
    sign,
    sin,
    cos,
    tan,
    atan2,
    pow,
    sqrt,
    log,
    min,
    max,
    random,
    rand_int,
    rand_float,
    sum,
    average,
    product
};

struct op_row {
    std::string_view name;
    math_op op;
    int operands;  // how many the operation takes; -1: one or more; 0: none needed
};
constexpr std::array<op_row, 20> ops{{
    {"abs", math_op::abs, 1},
    {"ceil", math_op::ceil, 1},
    {"floor", math_op::floor, 1},
    {"round", math_op::round, 1},
    {"sign", math_op::sign, 1},
    {"sin", math_op::sin, 1},
    {"cos", math_op::cos, 1},
    {"tan", math_op::tan, 1},
    {"atan2", math_op::atan2, 2},
    {"pow", math_op::pow, 2},
    {"sqrt", math_op::sqrt, 1},
    {"log", math_op::log, 1},
    {"min", math_op::min, -1},
    {"max", math_op::max, -1},
    {"random", math_op::random, 0},
    {"randInt", math_op::rand_int, 2},
    {"randFloat", math_op::rand_float, 2},
    {"sum", math_op::sum, -1},
    {"average", math_op::average, -1},
    {"product", math_op::product, -1},
}};

constexpr std::size_t max_inputs = 8;
constexpr double absent = std::numeric_limits<double>::quiet_NaN();

// One operand: a literal, or a variable read when the node ticks.
struct operand {
    double literal = absent;
    std::uint32_t key = param::no_key;
};

// A variable as JavaScript's Number() reads it: booleans 1 and 0, text as a number (empty is
// 0, anything else NaN).
double number_of(const blackboard& board, std::uint32_t key) {
    switch (board.type(key)) {
        case param_type::number: return board.get<double>(key);
        case param_type::integer: return static_cast<double>(board.get<std::int64_t>(key));
        case param_type::boolean: return board.get<bool>(key) ? 1 : 0;
        case param_type::string: {
            auto text = board.get<std::string_view>(key);
            while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
            while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
            if (text.empty()) return 0;
            double value = 0;
            const auto read = std::from_chars(text.data(), text.data() + text.size(), value);
            return read.ec == std::errc() && read.ptr == text.data() + text.size() ? value : absent;
        }
        case param_type::custom:
            if (board.keys()[key].custom->is<dynamic_value>())
                return board.get_ref<dynamic_value>(key).to_number();
            return absent;
        default: return absent;
    }
}

// A literal argument as a number: JSON gave a number or a boolean.
double literal_of(const param& p) {
    if (const auto* d = std::get_if<double>(&p.value)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&p.value)) return static_cast<double>(*i);
    if (const auto* b = std::get_if<bool>(&p.value)) return *b ? 1 : 0;
    throw param_error("'" + p.name + "' must be a number, not the text '" +
                      std::get<std::string>(p.value) + "'");
}

// JavaScript's Math.round: halves go up (-2.5 gives -2).
double js_round(double x) {
    const double down = std::floor(x);
    return x - down >= 0.5 ? down + 1 : down;
}

class math_node final : public node {
public:
    static std::vector<param_spec> parameters() {
        std::vector<param_spec> params{param_spec::required("op", param_type::string),
                                       {"value1", param_type::any, std::nullopt, false, nullptr},
                                       {"value2", param_type::any, std::nullopt, false, nullptr}};
        for (std::size_t i = 1; i <= max_inputs; ++i) {
            params.push_back(
                {"input" + std::to_string(i), param_type::any, std::nullopt, false, nullptr});
        }
        params.push_back(param_spec::output_port("output1", param_type::number));
        return params;
    }

    explicit math_node(const param_list& params) : result_(params, "output1") {
        const auto& name = std::get<std::string>(*params.find("op"));
        const auto* const row =
            std::find_if(ops.begin(), ops.end(), [&](const op_row& r) { return r.name == name; });
        if (row == ops.end()) {
            std::string known;
            for (const op_row& r : ops) known += (known.empty() ? "" : ", ") + std::string(r.name);
            throw param_error("unknown op '" + name + "' (one of " + known + ")");
        }
        op_ = row->op;
        // math.ts: value1, else the first input; value2, else the second; then the inputs
        // after the second.
        std::vector<operand> inputs;
        for (std::size_t i = 1; i <= max_inputs; ++i) {
            const param* p = params.find_param("input" + std::to_string(i));
            if (p != nullptr) inputs.push_back(argument(*p));
        }
        const param* value1 = params.find_param("value1");
        const param* value2 = params.find_param("value2");
        // An input variable that may be undefined when the node runs (a behavior3 file's)
        // drops out of the operands then, as math.ts filters them: the operands are found at
        // each tick, and too many or too few fail it there.
        for (const operand& o : inputs) {
            if (o.key != param::no_key) may_be_undefined_ = true;
        }
        if (may_be_undefined_) {
            value1_ = value1 != nullptr ? argument(*value1) : operand{};
            value2_ = value2 != nullptr ? argument(*value2) : operand{};
            has_value1_ = value1 != nullptr;
            has_value2_ = value2 != nullptr;
            input_count_ = inputs.size();
            std::copy(inputs.begin(), inputs.end(), operands_.begin());
            operand_count_ = row->operands;
            return;
        }
        std::vector<operand> values;
        if (value1 != nullptr) {
            values.push_back(argument(*value1));
        } else if (!inputs.empty()) {
            values.push_back(inputs[0]);
        }
        if (value2 != nullptr) {
            values.resize(1);  // a hole before it, where nothing gave value 1, reads as NaN
            values.push_back(argument(*value2));
        } else if (inputs.size() > 1) {
            values.resize(1);
            values.push_back(inputs[1]);
        }
        for (std::size_t i = 2; i < inputs.size(); ++i) values.push_back(inputs[i]);
        count_ = values.size();
        std::copy(values.begin(), values.end(), operands_.begin());
        // Too few or too many values: math.ts loads the node, and each tick logs the problem
        // and fails, leaving the output undefined.
        wrong_count_ = row->operands != 0 &&
                       (count_ == 0 ||
                        (row->operands > 0 && count_ != static_cast<std::size_t>(row->operands)));
    }

    status tick(context& ctx) const override {
        const blackboard board = ctx.blackboard();
        std::array<double, max_inputs + 2> v{};
        std::size_t count = count_;
        auto read = [&](const operand& o) {
            return o.key != param::no_key ? number_of(board, o.key) : o.literal;
        };
        if (wrong_count_) {
            result_.unset(ctx);
            return status::failure;
        }
        if (!may_be_undefined_) {
            for (std::size_t i = 0; i < count; ++i) v[i] = read(operands_[i]);
        } else {
            std::array<double, max_inputs> defined{};
            std::size_t n = 0;
            for (std::size_t i = 0; i < input_count_; ++i) {
                const operand& o = operands_[i];
                if (o.key == param::no_key) {
                    defined[n++] = o.literal;
                } else if (board.is_set(o.key)) {
                    defined[n++] = number_of(board, o.key);
                }
            }
            count = 0;
            if (has_value1_) {
                v[count++] = read(value1_);
            } else if (n > 0) {
                v[count++] = defined[0];
            }
            if (has_value2_) {
                v[1] = read(value2_);
                count = 2;
            } else if (n > 1) {
                v[1] = defined[1];
                count = 2;
            }
            for (std::size_t i = 2; i < n; ++i) v[count++] = defined[i];
            const bool wrong = operand_count_ != 0 &&
                               (count == 0 || (operand_count_ > 0 &&
                                               count != static_cast<std::size_t>(operand_count_)));
            if (wrong) {
                result_.unset(ctx);
                return status::failure;
            }
        }
        double result = 0;
        switch (op_) {
            case math_op::abs: result = std::fabs(v[0]); break;
            case math_op::ceil: result = std::ceil(v[0]); break;
            case math_op::floor: result = std::floor(v[0]); break;
            case math_op::round: result = js_round(v[0]); break;
            case math_op::sign:
                result = std::isnan(v[0]) ? v[0] : v[0] > 0 ? 1.0 : v[0] < 0 ? -1.0 : v[0];
                break;
            case math_op::sin: result = std::sin(v[0]); break;
            case math_op::cos: result = std::cos(v[0]); break;
            case math_op::tan: result = std::tan(v[0]); break;
            case math_op::atan2: result = std::atan2(v[0], v[1]); break;
            case math_op::pow: result = std::pow(v[0], v[1]); break;
            case math_op::sqrt: result = std::sqrt(v[0]); break;
            case math_op::log: result = std::log(v[0]); break;
            case math_op::min:
            case math_op::max: {
                // Math.min and Math.max: NaN if any operand is.
                result = v[0];
                for (std::size_t i = 1; i < count && !std::isnan(result); ++i) {
                    if (std::isnan(v[i]) || (op_ == math_op::min ? v[i] < result : v[i] > result))
                        result = v[i];
                }
                break;
            }
            case math_op::random: result = unit(ctx); break;
            case math_op::rand_int: {
                const double low = std::ceil(v[0]);
                const double high = std::floor(v[1]);
                if (!(low <= high)) {    // math.ts: min above max
                    result_.unset(ctx);  // undefined, as in every output left unfilled
                    return status::failure;
                }
                result = std::floor(unit(ctx) * (high - low + 1)) + low;
                break;
            }
            case math_op::rand_float:
                if (!(v[0] <= v[1])) {
                    result_.unset(ctx);
                    return status::failure;
                }
                result = unit(ctx) * (v[1] - v[0]) + v[0];
                break;
            case math_op::sum:
            case math_op::average:
                for (std::size_t i = 0; i < count; ++i) result += v[i];
                if (op_ == math_op::average) result /= static_cast<double>(count);
                break;
            case math_op::product:
                result = 1;
                for (std::size_t i = 0; i < count; ++i) result *= v[i];
                break;
        }
        if (std::isnan(result)) {  // math.ts: an error
            result_.unset(ctx);
            return status::error;
        }
        result_.set(ctx, result);
        return status::success;
    }

private:
    static operand argument(const param& p) {
        operand o;
        if (p.key != param::no_key) {
            o.key = p.key;
        } else {
            o.literal = literal_of(p);
        }
        return o;
    }
    // A double in [0, 1) from the agent's generator: its top 53 bits.
    static double unit(context& ctx) { return static_cast<double>(ctx.random() >> 11) * 0x1.0p-53; }

    math_op op_ = math_op::abs;
    std::array<operand, max_inputs + 2> operands_{};
    std::size_t count_ = 0;
    bool may_be_undefined_ = false;
    bool wrong_count_ = false;  // a literal count of values its op cannot take
    operand value1_;
    operand value2_;
    bool has_value1_ = false;
    bool has_value2_ = false;
    std::size_t input_count_ = 0;
    int operand_count_ = 0;
    output<double> result_;
};

}  // namespace

void register_behavior3_math_node(registry& reg) {
    reg.add<math_node>("behavior3.Math");
}

}  // namespace canopy::detail
