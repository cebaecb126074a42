#pragma once
// Parameter values as files write them, read as the builder and the subtree expander both
// need: a blackboard key reference, a typed (JSON) value as a declared type, and text (an XML
// attribute) as a declared type.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>

#include "canopy/core/param.hpp"

namespace canopy::detail {

/// Whether text is braced, `{...}` with something inside: how BehaviorTree.CPP's and
/// behavior3's files mark a blackboard key in a port's text.
inline bool is_braced(std::string_view text) {
    return text.size() > 2 && text.front() == '{' && text.back() == '}';
}

/// `{name}` names a blackboard key: the name, a leading `@` kept; nothing for any other value.
inline std::optional<std::string_view> key_reference(const param_value& value) {
    const auto* text = std::get_if<std::string>(&value);
    if (text == nullptr || !is_braced(*text)) return std::nullopt;
    // `{"hp":3}` is the JSON text of an object (behavior3's arguments), not a key.
    if ((*text)[1] == '"') return std::nullopt;
    return std::string_view(*text).substr(1, text->size() - 2);
}

/// A value a format wrote typed, as `type`: itself when it has that type, an integer as a
/// number; nothing otherwise.
inline std::optional<param_value> typed_as(const param_value& value, param_type type) {
    if (type_of(value) == type) return value;
    if (const auto* integer = std::get_if<std::int64_t>(&value);
        integer && type == param_type::number) {
        return static_cast<double>(*integer);
    }
    return std::nullopt;
}

/// Text as a value of a value type: `true` or `false`, a whole number in 64 bits, a finite
/// number (JSON has no infinity or NaN, so neither does XML), the text itself for a string;
/// nothing for text that is none of these, or for another type.
inline std::optional<param_value> text_as(const std::string& text, param_type type) {
    const char* first = text.data();
    const char* last = first + text.size();
    switch (type) {
        case param_type::string: return text;
        case param_type::boolean:
            if (text == "true") return true;
            if (text == "false") return false;
            return std::nullopt;
        case param_type::integer: {
            std::int64_t number = 0;
            auto [end, error] = std::from_chars(first, last, number);
            if (text.empty() || error != std::errc() || end != last) return std::nullopt;
            return number;
        }
        case param_type::number: {
            double number = 0;
            auto [end, error] = std::from_chars(first, last, number);
            if (text.empty() || error != std::errc() || end != last || !std::isfinite(number)) {
                return std::nullopt;
            }
            return number;
        }
        default: return std::nullopt;
    }
}

}  // namespace canopy::detail
