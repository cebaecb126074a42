#pragma once

#include <charconv>
#include <cstdint>
#include <string>

#include "canopy/param.hpp"

namespace canopy::detail {

/// "an integer", "a number", "a boolean" or "a string": for messages.
inline std::string with_article(param_type type) {
    switch (type) {
        case param_type::integer: return "an integer";
        case param_type::key: return "the name of a blackboard key";
        case param_type::key_value: return "a value for its key";
        case param_type::any: return "any value";
        default: return "a " + std::string(to_string(type));
    }
}

/// A value as a person reads it in a message or a picture: `true`, `3`, `2.5` (the shortest
/// form that reads back the same), `"text"`.
inline std::string value_text(const param_value& value) {
    switch (value.index()) {
        case 0: return std::get<bool>(value) ? "true" : "false";
        case 1: return std::to_string(std::get<std::int64_t>(value));
        case 2: {
            char text[32];
            char* end = std::to_chars(text, text + sizeof text, std::get<double>(value)).ptr;
            return {text, end};
        }
        default: return '"' + std::get<std::string>(value) + '"';
    }
}

}  // namespace canopy::detail
