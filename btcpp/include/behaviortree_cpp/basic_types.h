#pragma once

// The vocabulary of BehaviorTree.CPP 4's node code: statuses, node kinds, ports and the text
// conversions that read a port's value (convertFromString<T>, which a program specialises
// for its own types).

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "behaviortree_cpp/exceptions.h"
#include "behaviortree_cpp/utils/expected.hpp"
#include "behaviortree_cpp/utils/safe_any.hpp"
#include "canopy/core/value_type.hpp"

namespace BT {

enum class NodeType { UNDEFINED = 0, ACTION, CONDITION, CONTROL, DECORATOR, SUBTREE };

enum class NodeStatus { IDLE = 0, RUNNING = 1, SUCCESS = 2, FAILURE = 3, SKIPPED = 4 };

inline bool isStatusActive(const NodeStatus& status) {
    return status != NodeStatus::IDLE && status != NodeStatus::SKIPPED;
}
inline bool isStatusCompleted(const NodeStatus& status) {
    return status == NodeStatus::SUCCESS || status == NodeStatus::FAILURE;
}

enum class PortDirection { INPUT, OUTPUT, INOUT };

using StringView = std::string_view;
using Result = Expected<std::monostate>;
template <typename T>
using Optional = Expected<T>;

/// "IDLE", "RUNNING", ...; with `colored`, between the terminal colour codes BT.CPP's
/// StdCoutLogger prints.
std::string toStr(NodeStatus status, bool colored);
std::string toStr(NodeStatus status);
std::string toStr(NodeType type);
std::string toStr(PortDirection direction);
std::ostream& operator<<(std::ostream& os, const NodeStatus& status);
std::ostream& operator<<(std::ostream& os, const NodeType& type);

/// The parts of "a;b;c" between `delimiter`s.
std::vector<StringView> splitString(const StringView& text, char delimiter);

template <typename... Args>
std::string StrCat(const Args&... args) {
    std::string out;
    (out.append(std::string_view(args)), ...);
    return out;
}

/// Whether `str` starts with `prefix`.
bool StartWith(StringView str, StringView prefix);
bool StartWith(StringView str, char prefix);

/// A value of a type registered with JsonExporter, read from JSON text.
/// @warning throws RuntimeError for text that is not JSON of that type.
[[nodiscard]] Any convertFromJSON(StringView json_text, std::type_index type);
template <typename T>
[[nodiscard]] T convertFromJSON(StringView str) {
    return convertFromJSON(str, typeid(T)).template cast<T>();
}

/// Reads a port's text as T. A program specialises it for its own types; without one, text
/// that starts with "json:" is read as JSON (a type registered with JsonExporter), and other
/// text throws RuntimeError.
template <typename T>
[[nodiscard]] T convertFromString(StringView str) {
    if constexpr (std::is_enum_v<T>) {
        return static_cast<T>(convertFromString<int>(str));
    } else {
        if (StartWith(str, "json:")) return convertFromJSON<T>(str.substr(5));
        throw RuntimeError("You (maybe indirectly) called BT::convertFromString() for type [",
                           demangle(typeid(T)),
                           "], but I can't find the template specialization.\n");
    }
}

template <>
[[nodiscard]] std::string convertFromString<std::string>(StringView str);
template <>
[[nodiscard]] const char* convertFromString<const char*>(StringView str);
template <>
[[nodiscard]] int8_t convertFromString<int8_t>(StringView str);
template <>
[[nodiscard]] int16_t convertFromString<int16_t>(StringView str);
template <>
[[nodiscard]] int32_t convertFromString<int32_t>(StringView str);
template <>
[[nodiscard]] int64_t convertFromString<int64_t>(StringView str);
template <>
[[nodiscard]] long long convertFromString<long long>(StringView str);
template <>
[[nodiscard]] uint8_t convertFromString<uint8_t>(StringView str);
template <>
[[nodiscard]] uint16_t convertFromString<uint16_t>(StringView str);
template <>
[[nodiscard]] uint32_t convertFromString<uint32_t>(StringView str);
template <>
[[nodiscard]] uint64_t convertFromString<uint64_t>(StringView str);
template <>
[[nodiscard]] unsigned long long convertFromString<unsigned long long>(StringView str);
template <>
[[nodiscard]] float convertFromString<float>(StringView str);
template <>
[[nodiscard]] double convertFromString<double>(StringView str);
template <>
[[nodiscard]] bool convertFromString<bool>(StringView str);
template <>
[[nodiscard]] std::vector<int> convertFromString<std::vector<int>>(StringView str);
template <>
[[nodiscard]] std::vector<double> convertFromString<std::vector<double>>(StringView str);
template <>
[[nodiscard]] std::vector<bool> convertFromString<std::vector<bool>>(StringView str);
template <>
[[nodiscard]] std::vector<std::string> convertFromString<std::vector<std::string>>(StringView str);
template <>
[[nodiscard]] NodeStatus convertFromString<NodeStatus>(StringView str);
template <>
[[nodiscard]] NodeType convertFromString<NodeType>(StringView str);
template <>
[[nodiscard]] PortDirection convertFromString<PortDirection>(StringView str);

/// A value as text, for the types that have one; LogicError for the others.
template <typename T>
std::string toStr(const T& value) {
    if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        return std::string(std::string_view(value));
    } else if constexpr (std::is_same_v<T, bool>) {
        return value ? "true" : "false";
    } else if constexpr (std::is_arithmetic_v<T>) {
        return std::to_string(value);
    } else {
        throw LogicError("Function BT::toStr<T>() not specialized for type [", demangle(typeid(T)),
                         "]");
    }
}

using StringConverter = std::function<Any(StringView)>;

/// Marks a port of no particular type: its value is kept as written.
struct AnyTypeAllowed {};

namespace detail {
/// How Canopy's blackboard holds a port's values of T: its registered type, made once per
/// T; null for the types it holds itself (numbers, booleans, text) and those it cannot
/// (not default-constructible or not copyable), whose ports take any value.
template <typename T>
std::shared_ptr<const canopy::value_type> blackboard_type() {
    if constexpr (std::is_default_constructible_v<T> && std::is_copy_constructible_v<T> &&
                  std::is_copy_assignable_v<T> && std::is_nothrow_destructible_v<T> &&
                  !std::is_arithmetic_v<T> && !std::is_enum_v<T>) {
        static const std::shared_ptr<const canopy::value_type> type = [] {
            auto made = std::make_shared<canopy::value_type>(*canopy::make_value_type<T>(
                demangle(typeid(T)),
                [](std::string_view text) { return convertFromString<T>(text); },
                [](const T& value) {
                    try {
                        return BT::toStr(value);
                    } catch (const std::exception&) {
                        return "[" + demangle(typeid(T)) + "]";
                    }
                }));
            made->rtti = &typeid(T);  // for BT::Any, which holds a std::type_info
            return std::shared_ptr<const canopy::value_type>(std::move(made));
        }();
        return type;
    } else {
        return nullptr;
    }
}

template <typename T>
inline constexpr bool is_text_type =
    std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
    std::is_same_v<T, const char*> || std::is_same_v<T, char*>;
}  // namespace detail

namespace detail {
/// How a port or entry of T reads text: convertFromString<T>; none for an untyped one.
template <typename T>
StringConverter string_converter() {
    if constexpr (std::is_same_v<T, AnyTypeAllowed> || std::is_same_v<T, Any>) {
        return {};
    } else {
        return [](StringView text) {
            if constexpr (is_text_type<T>) {
                return Any(std::string(text));
            } else {
                return Any(convertFromString<T>(text));
            }
        };
    }
}

using blackboard_type_maker = std::shared_ptr<const canopy::value_type> (*)();

/// blackboard_type<T>, but none for the types Canopy's blackboard holds itself as text or
/// as any value.
template <typename T>
blackboard_type_maker blackboard_type_of() {
    if constexpr (!std::is_same_v<T, AnyTypeAllowed> && !std::is_same_v<T, Any> &&
                  !is_text_type<T>) {
        return &blackboard_type<T>;
    } else {
        return nullptr;
    }
}
}  // namespace detail

/// A C++ type as a port or a blackboard entry declares it, and how it reads text.
class TypeInfo {
public:
    TypeInfo() : type_(typeid(AnyTypeAllowed)) {}
    TypeInfo(std::type_index type, StringConverter converter,
             detail::blackboard_type_maker blackboard_type = nullptr)
        : type_(type), converter_(std::move(converter)), blackboard_type_(blackboard_type) {}
    template <typename T>
    static TypeInfo Create() {
        return TypeInfo(typeid(T), detail::string_converter<T>(), detail::blackboard_type_of<T>());
    }

    const std::type_index& type() const { return type_; }
    /// "std::string", "int", "Pose2D"; "AnyTypeAllowed" for an untyped port.
    std::string typeName() const { return demangle(type_); }
    bool isStronglyTyped() const { return type_ != typeid(AnyTypeAllowed) && type_ != typeid(Any); }
    const StringConverter& converter() const { return converter_; }
    /// Text read as the type (the text itself when it has no converter).
    Any parseString(const std::string& text) const {
        return converter_ ? converter_(text) : Any(text);
    }
    /// How Canopy's blackboard holds the type, when it is the program's own.
    std::shared_ptr<const canopy::value_type> blackboardType() const {
        return blackboard_type_ != nullptr ? blackboard_type_() : nullptr;
    }

private:
    std::type_index type_;
    StringConverter converter_;
    detail::blackboard_type_maker blackboard_type_ = nullptr;
};

/// What a node type declares of one port.
class PortInfo : public TypeInfo {
public:
    explicit PortInfo(PortDirection direction = PortDirection::INOUT) : direction_(direction) {}
    PortInfo(PortDirection direction, std::type_index type, StringConverter converter,
             detail::blackboard_type_maker blackboard_type = nullptr)
        : TypeInfo(type, std::move(converter), blackboard_type), direction_(direction) {}

    PortDirection direction() const { return direction_; }
    const std::string& description() const { return description_; }
    void setDescription(StringView description) { description_ = std::string(description); }
    /// The default, as given (an Any of the port's type, or of text).
    const Any& defaultValue() const { return default_value_; }
    /// The default as text: what the port reads when the XML leaves it out ("" if none
    /// has text).
    const std::string& defaultValueString() const { return default_value_str_; }
    template <typename T>
    void setDefaultValue(const T& default_value) {
        default_value_ = Any(default_value);
        try {
            default_value_str_ = BT::toStr(default_value);
        } catch (LogicError&) {
            default_value_str_.clear();
        }
    }

private:
    PortDirection direction_;
    std::string description_;
    Any default_value_;
    std::string default_value_str_;
};

using PortsList = std::unordered_map<std::string, PortInfo>;
using PortsRemapping = std::unordered_map<std::string, std::string>;
using KeyValueVector = std::vector<std::pair<std::string, std::string>>;

/// Whether `name` may name a port: not empty, starting with a letter, not a reserved word,
/// without a character findForbiddenChar finds.
bool IsAllowedPortName(StringView name);
/// Whether `name` is an attribute every node has, so no port's: `name`, `ID`, `_autoremap`
/// and the pre- and post-conditions.
bool IsReservedAttribute(StringView name);
/// The first character of `name` that may not stand in the name of a tree or node type
/// (whitespace, control characters, XML's and file paths' special characters, '.'), or '\0'.
/// Bytes of UTF-8 sequences are allowed.
char findForbiddenChar(StringView name);
/// The BehaviorTree.CPP version whose API this layer follows (4.10.0): major * 10000 +
/// minor * 100 + patch, and as text.
int LibraryVersionNumber();
const char* LibraryVersionString();

template <typename T = AnyTypeAllowed>
std::pair<std::string, PortInfo> CreatePort(PortDirection direction, StringView name,
                                            StringView description = {}) {
    if (!IsAllowedPortName(name)) {
        throw RuntimeError(
            "The name of a port must not be `name` or `ID` and must start with "
            "an alphabetic character. Underscore is reserved.");
    }
    PortInfo info(direction, typeid(T), detail::string_converter<T>(),
                  detail::blackboard_type_of<T>());
    if (!description.empty()) info.setDescription(description);
    return {std::string(name), std::move(info)};
}

template <typename T = AnyTypeAllowed>
std::pair<std::string, PortInfo> InputPort(StringView name, StringView description = {}) {
    return CreatePort<T>(PortDirection::INPUT, name, description);
}
template <typename T = AnyTypeAllowed>
std::pair<std::string, PortInfo> OutputPort(StringView name, StringView description = {}) {
    return CreatePort<T>(PortDirection::OUTPUT, name, description);
}
template <typename T = AnyTypeAllowed>
std::pair<std::string, PortInfo> BidirectionalPort(StringView name, StringView description = {}) {
    return CreatePort<T>(PortDirection::INOUT, name, description);
}

namespace detail {
template <typename T, typename DefaultT>
std::pair<std::string, PortInfo> with_default(std::pair<std::string, PortInfo> port,
                                              const DefaultT& default_value) {
    // nullptr converts to std::string_view too, and would be read as a C string: it is the
    // port type's own null (a shared_ptr's, say), as in BehaviorTree.CPP.
    if constexpr (std::is_convertible_v<const DefaultT&, std::string_view> &&
                  !std::is_same_v<DefaultT, std::nullptr_t>) {
        port.second.setDefaultValue(std::string(std::string_view(default_value)));
    } else {
        port.second.setDefaultValue(static_cast<const T&>(default_value));
    }
    return port;
}
}  // namespace detail

/// A port with a default: a value of T, or text (a literal, "{key}", or "{=}" for the key of
/// the port's own name).
template <typename T = AnyTypeAllowed, typename DefaultT = T>
std::pair<std::string, PortInfo> InputPort(StringView name, const DefaultT& default_value,
                                           StringView description) {
    return detail::with_default<T>(CreatePort<T>(PortDirection::INPUT, name, description),
                                   default_value);
}
template <typename T = AnyTypeAllowed, typename DefaultT = T>
std::pair<std::string, PortInfo> BidirectionalPort(StringView name, const DefaultT& default_value,
                                                   StringView description) {
    return detail::with_default<T>(CreatePort<T>(PortDirection::INOUT, name, description),
                                   default_value);
}
/// An output port whose default is the key it writes: "{key}".
template <typename T = AnyTypeAllowed>
std::pair<std::string, PortInfo> OutputPort(StringView name, StringView default_value,
                                            StringView description) {
    auto port = CreatePort<T>(PortDirection::OUTPUT, name, description);
    port.second.setDefaultValue(std::string(default_value));
    return port;
}

/// What a registered node type is: its kind, name, ports and editor notes.
struct TreeNodeManifest {
    NodeType type = NodeType::UNDEFINED;
    std::string registration_ID;
    PortsList ports;
    KeyValueVector metadata;
};

// Which of BehaviorTree.CPP's optional static members a node class has.
template <typename T, typename = void>
struct has_static_method_providedPorts : std::false_type {};
template <typename T>
struct has_static_method_providedPorts<
    T, std::enable_if_t<std::is_same_v<decltype(T::providedPorts()), PortsList>>> : std::true_type {
};

template <typename T, typename = void>
struct has_static_method_metadata : std::false_type {};
template <typename T>
struct has_static_method_metadata<
    T, std::enable_if_t<std::is_same_v<decltype(T::metadata()), KeyValueVector>>> : std::true_type {
};

using TimePoint = std::chrono::high_resolution_clock::time_point;
using Duration = std::chrono::high_resolution_clock::duration;

/// When an entry was written last: its sequence number and time.
struct Timestamp {
    std::uint64_t seq = 0;
    std::chrono::nanoseconds time = std::chrono::nanoseconds(0);
};

template <typename T>
struct StampedValue {
    T value;
    Timestamp stamp;
};

}  // namespace BT
