#pragma once
// The behavior3 node names Canopy knows, for both flavours of the format, and how their
// arguments become Canopy parameters (docs/behavior3.md, "Mapping tables"). Shared by the
// reader and the writer, so that what one maps the other maps back.

#include <cstdint>
#include <string>
#include <string_view>

#include "canopy/records/document.hpp"

namespace canopy::detail::behavior3 {

/// Which runtime a file was written for: the two disagree on what some names mean.
enum class flavour : std::uint8_t {
    classic,  ///< behavior3js and the original behavior3editor (a `nodes` map keyed by id)
    nested,   ///< behavior3 Lua/TS and zhandouxiaojiji/behavior3editor (`root` with `children`)
};

/// How an argument's value becomes the Canopy parameter's.
enum class conversion : std::uint8_t {
    same,          ///< unchanged
    milliseconds,  ///< behavior3js milliseconds to seconds (÷ 1000)
    js_loop,       ///< behavior3js `maxLoop`: 0 or below (its `|| -1`) means for ever: -1
    js_number,     ///< a JavaScript number: an integer becomes a real (Let's `value`)
};

/// One argument of a behavior3 node and the Canopy parameter it is.
struct arg_rule {
    std::string_view arg;    ///< behavior3's argument name ("milliseconds", "time")
    std::string_view param;  ///< Canopy's parameter name ("seconds")
    int input_slot;          ///< the `input` position that may give it instead, or -1
    conversion convert;
    /// The value (already converted) that the runtime uses when the file gives neither the
    /// argument nor its input: -1, 0 or none (`no_default`).
    std::int64_t absent;
};
inline constexpr std::int64_t no_default = INT64_MIN;

/// A parameter a mapped node always has, whatever the file says (Race is Canopy's Parallel
/// with these thresholds).
struct fixed_param {
    std::string_view name;
    std::int64_t value;
};

/// One behavior3 node name and what Canopy calls it.
struct node_rule {
    flavour in;
    std::string_view b3_name;
    std::string_view canopy_name;
    arg_rule arg;  ///< the one argument Canopy maps (arg.arg empty: none)
    /// For nodes whose Canopy type depends on whether the argument limits anything (no
    /// argument, no input, or a behavior3js `maxLoop` that means for ever): the type then,
    /// which takes no parameter. Empty for the others.
    std::string_view unlimited_name = {};
    /// An argument that only chooses how the node reports (Log's `level`): not a parameter.
    std::string_view dropped_arg = {};
    /// For a composite: the Canopy leaf that returns what the runtime's node returns when it
    /// has no children (an empty Sequence succeeds, an empty Selector fails). Empty: none.
    std::string_view when_empty = {};
    /// Parameters the Canopy node always has for this name; unused entries have no name.
    fixed_param fixed[2] = {};
    /// An argument that lists variable names (Delay's `cacheVars`): the reader wires each to
    /// a parameter of the argument's name and its place from 1 (`cacheVars1`), so that the
    /// loader checks the variables and the node reads them as keys; the writer lists them
    /// back. Empty: none.
    std::string_view variables_arg = {};
};
/// The rule for a behavior3 name in a flavour, or null for a name Canopy passes through.
const node_rule* find_rule(flavour in, std::string_view b3_name);

/// The rule whose `fixed` parameters single out a behavior3 name among the uses of a Canopy
/// type (Parallel with thresholds 1 and -1 is Race), or null.
const node_rule* find_fixed_rule(std::string_view canopy_name);

/// What a built-in node of the behavior3 runtimes is, as their node definitions say.
enum class builtin_kind : std::uint8_t { unknown, composite, decorator, action, condition };

/// The kind of a behavior3-ts or behavior3lua built-in (`Once` is a decorator, `Check` a
/// condition), or unknown for a name that is none, or whose kind changed between versions.
builtin_kind find_builtin(std::string_view b3_name);

/// The behavior3 (Lua/TS) name the writer gives a Canopy type, and its nested-flavour rule;
/// null when the type has no behavior3 counterpart (it is then written under its own name, or
/// with escape_prefix when behavior3 uses that name for another node).
const node_rule* find_rule_for_canopy(std::string_view canopy_name);

/// The name the writer gives a Canopy type whose nested-flavour rule (find_rule_for_canopy)
/// is `rule`: the rule's behavior3 name; a kept-apart type's behavior3 name
/// ("behavior3.Parallel" → "Parallel"); escape_prefix before a name behavior3 gives another
/// node ("canopy.Parallel"); else the type's own name.
std::string written_name(std::string_view canopy_name, const node_rule* rule);

/// Each flavour's names for Canopy's types and parameters (tree_document::words).
extern const vocabulary classic_words;
extern const vocabulary nested_words;

/// The prefix of behavior3 nodes that Canopy keeps apart because a Canopy node of the same
/// name behaves otherwise ("behavior3.Parallel"), and of Canopy types written to behavior3
/// whose name behavior3 uses for another node ("canopy.Parallel").
inline constexpr std::string_view kept_prefix = "behavior3.";
inline constexpr std::string_view escape_prefix = "canopy.";

}  // namespace canopy::detail::behavior3
