#pragma once
// Writing JSON text by hand, for the printer, the writers and behavior3's values.

#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "canopy/core/param.hpp"
#include "canopy/core/value_type.hpp"

namespace canopy::detail {

/// Appends text as the inside of a JSON string: quotes, backslashes and control characters
/// escaped, UTF-8 kept as is.
inline void append_json_escaped(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    out += "\\u00";
                    out += hex[(c >> 4) & 0xF];
                    out += hex[c & 0xF];
                } else {
                    out += c;  // UTF-8 bytes pass through unchanged
                }
        }
    }
}

/// Appends text as a JSON string, in quotes.
inline void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    append_json_escaped(out, text);
    out += '"';
}

/// A parameter value as the text an XML attribute or a model's default holds: true, 42, 2.5
/// or the string itself.
inline std::string attribute_text(const param_value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using type = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<type, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<type, std::int64_t>)
                return std::to_string(v);
            else if constexpr (std::is_same_v<type, double>)
                return text::of_number(v);  // the shortest text that reads back the same
            else
                return v;
        },
        value);
}

/// A parameter value as JSON: true, 42, 2.5 or "text".
inline void append_json_value(std::string& out, const param_value& value) {
    if (const auto* text = std::get_if<std::string>(&value)) {
        out += '"';
        append_json_escaped(out, *text);
        out += '"';
    } else {
        out += attribute_text(value);
    }
}

}  // namespace canopy::detail
