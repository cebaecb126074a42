#pragma once

// The names of an enum's values, read from the compiler's text for a function specialised
// on each value (as registerScriptingEnums needs them): the values from -128 to 127 that
// the enum names.

#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace BT::detail {

template <typename E, E Value>
std::string_view enum_value_text() {
    return __PRETTY_FUNCTION__;  // "... [with E = Color; E Value = Color::RED; ...]"
}

// The name of the value in such text, or "" when the value has none: the identifier after
// the last "::" ("RED" in GCC's "Color::RED" and Clang's "(anonymous namespace)::f()::
// Color::RED"), which a value without a name ("(Color)5", "(n::Mode)-1") does not end with.
inline std::string_view enum_value_name(std::string_view text) {
    std::size_t at = text.rfind("Value = ");
    if (at == std::string_view::npos) return {};
    text.remove_prefix(at + 8);
    text = text.substr(0, text.find_first_of(";]"));
    at = text.rfind("::");
    if (at != std::string_view::npos) text.remove_prefix(at + 2);
    const auto identifier_char = [](char c, bool first) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (!first && c >= '0' && c <= '9');
    };
    if (text.empty() || !identifier_char(text.front(), true)) return {};
    for (const char c : text) {
        if (!identifier_char(c, false)) return {};
    }
    return text;
}

template <typename E, int... Offsets>
std::vector<std::pair<std::string_view, int>> enum_entries(std::integer_sequence<int, Offsets...>) {
    std::vector<std::pair<std::string_view, int>> entries;
    (
        [&] {
            constexpr int value = Offsets - 128;
            const std::string_view name =
                enum_value_name(enum_value_text<E, static_cast<E>(value)>());
            if (!name.empty()) entries.emplace_back(name, value);
        }(),
        ...);
    return entries;
}

/// The named values of E, in value order.
template <typename E>
std::vector<std::pair<std::string_view, int>> enum_entries() {
    static_assert(std::is_enum_v<E>, "registerScriptingEnums takes an enum type");
    return enum_entries<E>(std::make_integer_sequence<int, 256>());
}

}  // namespace BT::detail
