#include "nodes/blackboard_condition.hpp"

#include <stdexcept>
#include <utility>

namespace canopy::detail {

blackboard_condition::blackboard_condition(const param_list& params)
    : key_(static_cast<std::uint32_t>(params.get<std::int64_t>("key"))),
      literal_(params.find_param("value")->value),
      value_key_(params.find_param("value")->key) {
    static const std::pair<const char*, comparison> ops[] = {
        {"==", comparison::equal},  {"!=", comparison::not_equal},
        {"<", comparison::less},    {"<=", comparison::less_equal},
        {">", comparison::greater}, {">=", comparison::greater_equal}};
    const auto& op = params.get<std::string>("op");
    object_ = params.find_param("value")->object;
    const bool boolean = std::holds_alternative<bool>(literal_) || object_ != nullptr;
    for (const auto& [text, value] : ops) {
        if (op != text) continue;
        if (boolean && value != comparison::equal && value != comparison::not_equal) {
            throw param_error(
                std::string(object_ != nullptr ? "a key of a registered type" : "a boolean key") +
                " compares with == or != only, not '" + op + "'");
        }
        op_ = value;
        return;
    }
    throw param_error("'op' must be one of == != < <= > >=, not '" + op + "'");
}

template <typename T>
bool blackboard_condition::compare(const T& a, comparison op, const T& b) {
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

template <typename T>
T blackboard_condition::operand(const canopy::blackboard& board) const {
    if (value_key_ != param::no_key) return board.get<T>(value_key_);
    if constexpr (std::is_same_v<T, std::string_view>) {
        return std::get<std::string>(literal_);
    } else {
        return std::get<T>(literal_);
    }
}

bool blackboard_condition::holds(const context& ctx) const {
    const canopy::blackboard board = ctx.blackboard();
    switch (board.type(key_)) {
        case param_type::boolean: return compare(board.get<bool>(key_), op_, operand<bool>(board));
        case param_type::integer:
            return compare(board.get<std::int64_t>(key_), op_, operand<std::int64_t>(board));
        case param_type::string:
            return compare(board.get<std::string_view>(key_), op_,
                           operand<std::string_view>(board));
        case param_type::custom: {  // == and != only; an order between two keys is false
            const bool same = value_key_ != param::no_key
                                  ? board.equal(key_, board, value_key_)
                                  : board.equals_object(key_, object_.get());
            if (op_ == comparison::equal) return same;
            return op_ == comparison::not_equal && !same;
        }
        default: return compare(board.get<double>(key_), op_, operand<double>(board));
    }
}

}  // namespace canopy::detail
