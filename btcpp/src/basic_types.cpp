// Text conversions and names as BehaviorTree.CPP 4.10 gives them, with its messages.

#include "behaviortree_cpp/basic_types.h"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <memory>
#include <ostream>

namespace BT {

std::string toStr(NodeStatus status) {
    switch (status) {
        case NodeStatus::SUCCESS: return "SUCCESS";
        case NodeStatus::FAILURE: return "FAILURE";
        case NodeStatus::RUNNING: return "RUNNING";
        case NodeStatus::IDLE: return "IDLE";
        case NodeStatus::SKIPPED: return "SKIPPED";
    }
    return "";
}

std::string toStr(NodeStatus status, bool colored) {
    if (!colored) return toStr(status);
    switch (status) {
        case NodeStatus::SUCCESS: return "\x1b[32mSUCCESS\x1b[0m";
        case NodeStatus::FAILURE: return "\x1b[31mFAILURE\x1b[0m";
        case NodeStatus::RUNNING: return "\x1b[33mRUNNING\x1b[0m";
        case NodeStatus::SKIPPED: return "\x1b[34mSKIPPED\x1b[0m";
        case NodeStatus::IDLE: return "\x1b[36mIDLE\x1b[0m";
    }
    return "Undefined";
}

std::string toStr(NodeType type) {
    switch (type) {
        case NodeType::ACTION: return "Action";
        case NodeType::CONDITION: return "Condition";
        case NodeType::DECORATOR: return "Decorator";
        case NodeType::CONTROL: return "Control";
        case NodeType::SUBTREE: return "SubTree";
        case NodeType::UNDEFINED: break;
    }
    return "Undefined";
}

std::string toStr(PortDirection direction) {
    switch (direction) {
        case PortDirection::INPUT: return "Input";
        case PortDirection::OUTPUT: return "Output";
        case PortDirection::INOUT: return "InOut";
    }
    return "InOut";
}

std::ostream& operator<<(std::ostream& os, const NodeStatus& status) {
    return os << toStr(status);
}

std::ostream& operator<<(std::ostream& os, const NodeType& type) {
    return os << toStr(type);
}

std::vector<StringView> splitString(const StringView& text, char delimiter) {
    std::vector<StringView> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(delimiter, start);
        if (end == StringView::npos) end = text.size();
        if (start < text.size() || end != start) parts.push_back(text.substr(start, end - start));
        if (end == text.size()) break;
        start = end + 1;
    }
    return parts;
}

std::string demangle(const std::type_index& type) {
    if (type == typeid(std::string)) return "std::string";
    if (type == typeid(std::string_view)) return "std::string_view";
    if (type == typeid(std::chrono::seconds)) return "std::chrono::seconds";
    if (type == typeid(std::chrono::milliseconds)) return "std::chrono::milliseconds";
    if (type == typeid(std::chrono::microseconds)) return "std::chrono::microseconds";
    int failed = 0;
    const std::unique_ptr<char, void (*)(void*)> name(
        abi::__cxa_demangle(type.name(), nullptr, nullptr, &failed), std::free);
    return failed == 0 && name ? std::string(name.get()) : std::string(type.name());
}

bool StartWith(StringView str, StringView prefix) {
    return str.substr(0, prefix.size()) == prefix;
}

bool StartWith(StringView str, char prefix) {
    return !str.empty() && str.front() == prefix;
}

char findForbiddenChar(StringView name) {
    constexpr StringView forbidden = " \t\n\r<>&\"'/\\:*?|.";
    for (const char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F || forbidden.find(c) != StringView::npos) return c;
    }
    return '\0';
}

int LibraryVersionNumber() {
    return 41000;
}

const char* LibraryVersionString() {
    return "4.10.0";
}

bool IsReservedAttribute(StringView name) {
    constexpr std::array<StringView, 11> reserved = {
        "name",      "ID",         "_successIf", "_failureIf", "_skipIf",   "_while",
        "_onHalted", "_onFailure", "_onSuccess", "_post",      "_autoremap"};
    return std::find(reserved.begin(), reserved.end(), name) != reserved.end();
}

bool IsAllowedPortName(StringView name) {
    if (name.empty() || std::isalpha(static_cast<unsigned char>(name.front())) == 0) return false;
    return findForbiddenChar(name) == '\0' && !IsReservedAttribute(name);
}

namespace {

template <typename T>
T whole_number(StringView str) {
    T result = 0;
    const auto [end, failure] = std::from_chars(str.data(), str.data() + str.size(), result);
    (void)end;
    if (failure == std::errc::result_out_of_range) {
        throw RuntimeError("Value out of bound when converting [", str, "] to integer");
    }
    if (failure != std::errc()) throw RuntimeError("Can't convert string [", str, "] to integer");
    return result;
}

template <typename T>
T bounded(StringView str) {
    const auto value = whole_number<std::int64_t>(str);
    if (value < static_cast<std::int64_t>(std::numeric_limits<T>::lowest()) ||
        value > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
        throw RuntimeError("Value out of bound when converting [", str, "] to integer");
    }
    return static_cast<T>(value);
}

template <typename T>
std::vector<T> list_of(StringView str) {
    std::vector<T> out;
    for (StringView part : splitString(str, ';')) out.push_back(convertFromString<T>(part));
    return out;
}

}  // namespace

template <>
std::string convertFromString<std::string>(StringView str) {
    return std::string(str);
}
template <>
const char* convertFromString<const char*>(StringView str) {
    return str.data();
}
template <>
int8_t convertFromString<int8_t>(StringView str) {
    return bounded<int8_t>(str);
}
template <>
int16_t convertFromString<int16_t>(StringView str) {
    return bounded<int16_t>(str);
}
template <>
int32_t convertFromString<int32_t>(StringView str) {
    return bounded<int32_t>(str);
}
template <>
int64_t convertFromString<int64_t>(StringView str) {
    return whole_number<int64_t>(str);
}
template <>
long long convertFromString<long long>(StringView str) {
    return whole_number<long long>(str);
}
template <>
uint8_t convertFromString<uint8_t>(StringView str) {
    return bounded<uint8_t>(str);
}
template <>
uint16_t convertFromString<uint16_t>(StringView str) {
    return bounded<uint16_t>(str);
}
template <>
uint32_t convertFromString<uint32_t>(StringView str) {
    return bounded<uint32_t>(str);
}
template <>
uint64_t convertFromString<uint64_t>(StringView str) {
    return whole_number<uint64_t>(str);
}
template <>
unsigned long long convertFromString<unsigned long long>(StringView str) {
    return whole_number<unsigned long long>(str);
}
template <>
double convertFromString<double>(StringView str) {
    double result = 0;
    const auto [end, failure] = std::from_chars(str.data(), str.data() + str.size(), result);
    (void)end;
    if (failure != std::errc()) throw RuntimeError("Can't convert string [", str, "] to double");
    return result;
}
template <>
float convertFromString<float>(StringView str) {
    float result = 0;
    const auto [end, failure] = std::from_chars(str.data(), str.data() + str.size(), result);
    (void)end;
    if (failure != std::errc()) throw RuntimeError("Can't convert string [", str, "] to float");
    return result;
}
template <>
bool convertFromString<bool>(StringView str) {
    if (str == "1" || str == "true" || str == "TRUE" || str == "True") return true;
    if (str == "0" || str == "false" || str == "FALSE" || str == "False") return false;
    throw RuntimeError("convertFromString(): invalid bool conversion");
}
template <>
std::vector<int> convertFromString<std::vector<int>>(StringView str) {
    return list_of<int>(str);
}
template <>
std::vector<double> convertFromString<std::vector<double>>(StringView str) {
    return list_of<double>(str);
}
template <>
std::vector<bool> convertFromString<std::vector<bool>>(StringView str) {
    return list_of<bool>(str);
}
template <>
std::vector<std::string> convertFromString<std::vector<std::string>>(StringView str) {
    return list_of<std::string>(str);
}
template <>
NodeStatus convertFromString<NodeStatus>(StringView str) {
    for (NodeStatus status : {NodeStatus::IDLE, NodeStatus::RUNNING, NodeStatus::SUCCESS,
                              NodeStatus::FAILURE, NodeStatus::SKIPPED}) {
        if (str == toStr(status)) return status;
    }
    throw RuntimeError("Cannot convert this to NodeStatus: ", str);
}
template <>
NodeType convertFromString<NodeType>(StringView str) {
    for (NodeType type : {NodeType::ACTION, NodeType::CONDITION, NodeType::CONTROL,
                          NodeType::DECORATOR, NodeType::SUBTREE}) {
        if (str == toStr(type)) return type;
    }
    return NodeType::UNDEFINED;
}
template <>
PortDirection convertFromString<PortDirection>(StringView str) {
    if (str == "Input" || str == "INPUT") return PortDirection::INPUT;
    if (str == "Output" || str == "OUTPUT") return PortDirection::OUTPUT;
    if (str == "InOut" || str == "INOUT") return PortDirection::INOUT;
    throw RuntimeError("Cannot convert this to PortDirection: ", str);
}

}  // namespace BT
