// The text conventions of BehaviorTree.CPP's built-in types, and its vector types as
// blackboard types.
#include "canopy/core/value_type.hpp"

#include <charconv>
#include <system_error>

namespace canopy {
namespace text {
namespace {

[[noreturn]] void cannot_read(std::string_view text, const char* as) {
    throw error(error_code::invalid_argument, "cannot read '" + std::string(text) + "' as " + as);
}

}  // namespace

bool to_bool(std::string_view text) {
    if (text == "true" || text == "True" || text == "TRUE" || text == "1") return true;
    if (text == "false" || text == "False" || text == "FALSE" || text == "0") return false;
    cannot_read(text, "a boolean (true or false)");
}

std::int64_t to_integer(std::string_view text) {
    std::string_view digits = text;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    std::int64_t value = 0;
    const auto [end, problem] =
        std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (problem != std::errc() || end != digits.data() + digits.size() || digits.empty())
        cannot_read(text, "an integer");
    return value;
}

double to_number(std::string_view text) {
    std::string_view digits = text;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    double value = 0;
    const auto [end, problem] =
        std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (problem != std::errc() || end != digits.data() + digits.size() || digits.empty())
        cannot_read(text, "a number");
    return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    if (text.empty()) return parts;
    for (;;) {
        const std::size_t at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) return parts;
        text.remove_prefix(at + 1);
    }
}

std::string of_number(double value) {
    char digits[32];
    char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    return {digits, end};
}

}  // namespace text

namespace {

template <typename T, typename Read, typename Show>
std::shared_ptr<const value_type> vector_type(std::string name, Read read, Show show) {
    return make_value_type<std::vector<T>>(
        std::move(name),
        [read](std::string_view text) {
            std::vector<T> values;
            for (std::string_view part : text::split(text)) values.push_back(read(part));
            return values;
        },
        [show](const std::vector<T>& values) {
            std::string shown;
            for (std::size_t i = 0; i < values.size(); ++i) {
                if (i != 0) shown += ';';
                shown += show(values[i]);
            }
            return shown;
        });
}

}  // namespace

std::vector<std::shared_ptr<const value_type>> builtin_value_types() {
    return {
        vector_type<int>(
            "std::vector<int>",
            [](std::string_view part) {
                const std::int64_t value = text::to_integer(part);
                if (value < INT32_MIN || value > INT32_MAX)
                    throw error(error_code::invalid_argument,
                                "'" + std::string(part) + "' does not fit an int");
                return static_cast<int>(value);
            },
            [](int value) { return std::to_string(value); }),
        vector_type<double>("std::vector<double>", text::to_number, text::of_number),
        vector_type<std::string>(
            "std::vector<std::string>", [](std::string_view part) { return std::string(part); },
            [](const std::string& value) { return value; }),
    };
}

}  // namespace canopy
