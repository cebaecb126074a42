#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "canopy/core/param.hpp"

namespace canopy::detail {

/// "an integer", "a number", "a boolean" or "a string": for messages.
inline std::string with_article(param_type type) {
    switch (type) {
        case param_type::integer: return "an integer";
        case param_type::key: return "the name of a blackboard key";
        case param_type::key_value: return "a value for its key";
        case param_type::any: return "any value";
        case param_type::script: return "a script";
        default: return "a " + std::string(to_string(type));
    }
}

/// A value as a person reads it in a message or a picture: `true`, `3`, `2.5` (the shortest
/// form that reads back the same), `"text"`.
inline std::string value_text(const param_value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using type = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<type, bool>) {
                return v ? "true" : "false";
            } else if constexpr (std::is_same_v<type, std::string>) {
                return '"' + v + '"';
            } else {
                char text[32];
                char* end = std::to_chars(text, text + sizeof text, v).ptr;
                return {text, end};
            }
        },
        value);
}

}  // namespace canopy::detail
