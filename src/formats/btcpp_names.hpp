#pragma once
// The one table between BehaviorTree.CPP's node names, ports and units and Canopy's, shared by
// the BehaviorTree.CPP XML reader and writer. docs/btcpp-xml.md prints it; docs/nodes.md says
// what each node does in both libraries.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "canopy/core/param.hpp"

namespace canopy::detail::btcpp {

/// How a port's value converts between the two libraries.
enum class unit : unsigned char {
    same,          ///< the text as it is
    milliseconds,  ///< BehaviorTree.CPP counts whole milliseconds, Canopy seconds
    seconds,       ///< seconds in both: read as a number (a key or other text stays text)
};

/// A node type whose name differs. `read` rows apply to files (BehaviorTree.CPP's name to
/// Canopy's); `write` rows to documents (Canopy's name, or an alias the registry knows, to
/// BehaviorTree.CPP's). Names not listed are the same in both, or have no counterpart.
struct type_row {
    std::string_view btcpp;
    std::string_view canopy;
    bool read;
    bool write;
};

inline constexpr type_row type_rows[] = {
    // Renamed in BehaviorTree.CPP 4.0; same node.
    {"SequenceStar", "SequenceWithMemory", true, false},
    // The registry aliases Sleep to Wait, but the port changes unit, so the reader names the
    // type Canopy's way and the writer BehaviorTree.CPP's.
    {"Sleep", "Wait", true, true},
    // Registry aliases: the reader keeps BehaviorTree.CPP's name, which the registry knows.
    {"Fallback", "Selector", false, true},
    {"ReactiveFallback", "ReactiveSelector", false, true},
    {"Inverter", "Not", false, true},
    {"RetryUntilSuccessful", "Retry", false, true},
    {"KeepRunningUntilFailure", "RepeatUntilFailure", false, true},
    // behavior3's aliases, for documents read from behavior3 files.
    {"Sequence", "MemSequence", false, true},
    {"Fallback", "MemPriority", false, true},
    {"ReactiveFallback", "Priority", false, true},
    {"AlwaysSuccess", "Succeeder", false, true},
    {"AlwaysFailure", "Failer", false, true},
    {"AlwaysRunning", "Runner", false, true},
};

/// A port whose name or unit differs, on a node type named as BehaviorTree.CPP names it.
/// `write` is false for a row only files use: Nav2's Wait, which the writer writes as Sleep,
/// and Canopy's own `seconds`, which the writer keeps where BehaviorTree.CPP's unit cannot say
/// the value (so that it reads back as the same number).
struct param_row {
    std::string_view type;  ///< BehaviorTree.CPP's (or Nav2's) name of the node type
    std::string_view btcpp;
    std::string_view canopy;
    unit conversion;
    bool write;
};

inline constexpr param_row param_rows[] = {
    {"Sleep", "msec", "seconds", unit::milliseconds, true},
    {"Sleep", "seconds", "seconds", unit::seconds, false},
    {"Wait", "wait_duration", "seconds", unit::seconds, false},  // Nav2: seconds already
    {"Wait", "seconds", "seconds", unit::seconds, false},
    {"Timeout", "msec", "seconds", unit::milliseconds, true},
    {"Timeout", "seconds", "seconds", unit::seconds, false},
    {"Delay", "delay_msec", "seconds", unit::milliseconds, true},
    {"Delay", "seconds", "seconds", unit::seconds, false},
    {"Repeat", "num_cycles", "count", unit::same, true},
    {"RetryUntilSuccessful", "num_attempts", "attempts", unit::same, true},
    {"Parallel", "success_count", "success_threshold", unit::same, true},
    {"Parallel", "failure_count", "failure_threshold", unit::same, true},
    {"SetBlackboard", "output_key", "key", unit::same, true},
};

/// Ports BehaviorTree.CPP 3 had that version 4 renamed: a version 4 file that writes the old
/// name is refused, as BehaviorTree.CPP 4 refuses a port its node does not declare.
struct renamed_port {
    std::string_view type;
    std::string_view version3;
    std::string_view version4;
};

inline constexpr renamed_port version3_ports[] = {
    {"Parallel", "success_threshold", "success_count"},
    {"Parallel", "failure_threshold", "failure_count"},
};

/// The rows of one BehaviorTree.CPP type, as a range of param_rows (empty for most types).
struct param_rows_of {
    const param_row* first = nullptr;
    const param_row* last = nullptr;
    bool empty() const noexcept { return first == last; }
};

inline param_rows_of params_of(std::string_view btcpp_type) {
    const param_row* first = std::begin(param_rows);
    while (first != std::end(param_rows) && first->type != btcpp_type) ++first;
    const param_row* last = first;
    while (last != std::end(param_rows) && last->type == btcpp_type) ++last;
    return {first, last};
}

/// BehaviorTree.CPP's name of a Canopy type for the writer (the name itself when no row says
/// otherwise).
inline std::string_view written_type(std::string_view canopy) {
    for (const type_row& row : type_rows) {
        if (row.write && row.canopy == canopy) return row.btcpp;
    }
    return canopy;
}

/// BehaviorTree.CPP's name of a Canopy parameter on a node type named as BehaviorTree.CPP
/// names it, or empty where it is the same.
inline std::string_view written_param(std::string_view btcpp_type, std::string_view canopy) {
    for (const param_row& row : param_rows) {
        if (row.write && row.type == btcpp_type && row.canopy == canopy) return row.btcpp;
    }
    return {};
}

/// Canopy's name of a BehaviorTree.CPP type for the reader.
inline std::string_view read_type(std::string_view btcpp) {
    for (const type_row& row : type_rows) {
        if (row.read && row.btcpp == btcpp) return row.canopy;
    }
    return btcpp;
}

/// The node types BehaviorTree.CPP 4 registers itself (BehaviorTreeFactory's built-ins): the
/// writer gives every other type a model in <TreeNodesModel>, so that Groot2 shows it.
inline constexpr std::string_view builtin_types[] = {
    "AlwaysFailure",
    "AlwaysSuccess",
    "AsyncFallback",
    "AsyncSequence",
    "Delay",
    "EntryUpdatedAction",
    "EntryUpdatedDecorator",
    "Fallback",
    "ForceFailure",
    "ForceSuccess",
    "IfThenElse",
    "Inverter",
    "KeepRunningUntilFailure",
    "LoopBool",
    "LoopDouble",
    "LoopInt",
    "LoopString",
    "Parallel",
    "ParallelAll",
    "Precondition",
    "ReactiveFallback",
    "ReactiveSequence",
    "Repeat",
    "RetryUntilSuccessful",
    "RunOnce",
    "Script",
    "ScriptCondition",
    "Sequence",
    "SequenceWithMemory",
    "SetBlackboard",
    "SkipUnlessUpdated",
    "Sleep",
    "SubTree",
    "Switch2",
    "Switch3",
    "Switch4",
    "Switch5",
    "Switch6",
    "Timeout",
    "TryCatch",
    "UnsetBlackboard",
    "WaitValueUpdate",
    "WasEntryUpdated",
    "WhileDoElse",
};

inline bool is_builtin(std::string_view type) {
    return std::find(std::begin(builtin_types), std::end(builtin_types), type) !=
           std::end(builtin_types);
}

/// The model element of a Canopy type that BehaviorTree.CPP lacks, where its arity alone
/// does not say it (a leaf that only checks is a <Condition>); empty for other types.
inline std::string_view canopy_model_element(std::string_view type) {
    for (std::string_view composite :
         {"RandomSelector", "Switch", "PipelineSequence", "RoundRobin", "RecoveryNode"}) {
        if (type == composite) return "Control";
    }
    for (std::string_view decorator :
         {"RepeatUntilSuccess", "Cooldown", "RateController", "Limiter", "MaxTime"}) {
        if (type == decorator) return "Decorator";
    }
    if (type == "CheckBlackboard") return "Condition";
    if (type == "Wait" || type == "WaitTicks" || type == "Log") return "Action";
    return {};
}

/// The C++ type name a port model gives a value of a key type (integer, number, boolean,
/// string), as BehaviorTree.CPP writes it; empty for other types. The reader's key_type_of
/// reads these back.
inline std::string_view cpp_type_of(std::string_view key_type) {
    if (key_type == "integer") return "int";
    if (key_type == "number") return "double";
    if (key_type == "boolean") return "bool";
    if (key_type == "string" || key_type == "script") return "std::string";
    return {};
}

/// The key type (integer, number, boolean, string) of a C++ type a port model names; empty
/// for another type.
inline std::string_view key_type_of(std::string_view cpp) {
    static constexpr std::string_view integers[] = {
        "int",           "unsigned",
        "unsigned int",  "long",
        "long long",     "unsigned long",
        "short",         "int8_t",
        "int16_t",       "int32_t",
        "int64_t",       "uint8_t",
        "uint16_t",      "uint32_t",
        "uint64_t",      "size_t",
        "std::size_t",   "std::int64_t",
        "std::int32_t",  "std::uint32_t",
        "std::uint64_t", "unsigned long long",
    };
    for (std::string_view name : integers) {
        if (cpp == name) return "integer";
    }
    if (cpp == "double" || cpp == "float") return "number";
    if (cpp == "bool") return "boolean";
    if (cpp == "std::string" || cpp == "string" || cpp == "std::__cxx11::string" ||
        cpp == "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >")
        return "string";
    return {};
}

/// Whether text is an XML name that tinyxml2 reads back as one element or attribute name.
inline bool is_xml_name(std::string_view text) {
    if (text.empty()) return false;
    const auto start = [](unsigned char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
               c >= 0x80;
    };
    if (!start(static_cast<unsigned char>(text.front()))) return false;
    return std::all_of(text.begin(), text.end(), [&](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
}

/// Element names that say something else in a BehaviorTree.CPP file: a type of one of these
/// names is written in the explicit form, `<Action ID="...">`.
inline bool is_reserved_element(std::string_view name) {
    static constexpr std::string_view reserved[] = {
        "Action",      "Condition",    "Control", "Decorator", "SubTree",
        "SubTreePlus", "BehaviorTree", "root",    "include",   "TreeNodesModel"};
    return std::find(std::begin(reserved), std::end(reserved), name) != std::end(reserved);
}

/// Why BehaviorTree.CPP 4.10 refuses a tree's or a node type's name (its validateModelName),
/// or nothing.
inline std::string model_name_problem(std::string_view name) {
    if (name == "Root" || name == "root") return "'Root' is a name BehaviorTree.CPP reserves";
    for (char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x80) continue;  // UTF-8 is taken
        if (byte < 0x20 || byte == 0x7F) {
            return "it contains a control character (" + std::to_string(byte) +
                   "), which BehaviorTree.CPP forbids in a name";
        }
        if (std::string_view(" \t\n\r<>&\"'/\\:*?|.").find(c) != std::string_view::npos) {
            return std::string("it contains '") + c +
                   "', which BehaviorTree.CPP forbids in a name (it breaks its XML and paths)";
        }
    }
    return {};
}

/// Text an XML file gave, read as a value of the C++ type a port model names (an integer, a
/// number or a boolean); nothing where the type is another or the text is not such a value.
inline std::optional<param_value> value_of_cpp_type(std::string_view cpp, std::string_view text) {
    const std::string_view kind = key_type_of(cpp);
    if (kind == "boolean") {
        if (text == "true") return param_value(true);
        if (text == "false") return param_value(false);
        return std::nullopt;
    }
    const char* end = text.data() + text.size();
    if (kind == "integer") {
        std::int64_t value = 0;
        const auto [at, problem] = std::from_chars(text.data(), end, value);
        if (problem == std::errc() && at == end && !text.empty()) return param_value(value);
    } else if (kind == "number") {
        double value = 0;
        const auto [at, problem] = std::from_chars(text.data(), end, value);
        if (problem == std::errc() && at == end && !text.empty() && std::isfinite(value))
            return param_value(value);
    }
    return std::nullopt;
}

}  // namespace canopy::detail::btcpp
