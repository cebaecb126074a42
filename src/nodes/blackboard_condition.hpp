#pragma once
// A comparison of a blackboard key with a value, the literal or another key's: what
// CheckBlackboard tests.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "canopy/core/param.hpp"
#include "canopy/run/context.hpp"

namespace canopy::detail {

class blackboard_condition {
public:
    /// From the node's `key`, `op` and `value` parameters.
    /// @warning throws param_error for an unknown `op`, or one the key's type lacks.
    explicit blackboard_condition(const param_list& params);

    bool holds(const context& ctx) const;

private:
    enum class comparison : std::uint8_t {
        equal,
        not_equal,
        less,
        less_equal,
        greater,
        greater_equal
    };
    template <typename T>
    static bool compare(const T& a, comparison op, const T& b);
    template <typename T>
    T operand(const canopy::blackboard& board) const;

    std::uint32_t key_;
    param_value literal_;  // the value's type is the key's, checked at load
    std::uint32_t value_key_;
    comparison op_;
    std::shared_ptr<const void> object_;  // a registered type's literal, read at load
};

}  // namespace canopy::detail
