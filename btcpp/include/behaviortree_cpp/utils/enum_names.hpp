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

// The name of the value in such text, or "" when the value has none ("(Color)5").
inline std::string_view enum_value_name(std::string_view text) {
    std::size_t at = text.rfind("Value = ");
    if (at == std::string_view::npos) return {};
    text.remove_prefix(at + 8);
    const std::size_t end = text.find_first_of(";]");
    text = text.substr(0, end);
    if (text.empty() || text.front() == '(' || (text.front() >= '0' && text.front() <= '9') ||
        text.front() == '-')
        return {};
    at = text.rfind("::");
    return at == std::string_view::npos ? text : text.substr(at + 2);
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
