#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/source_location.hpp"

namespace canopy {

/// The kind of a load problem. Each has a stable spelling (see `to_string`) that tests and
/// tools may match; new kinds are only ever added.
enum class diagnostic_code : std::uint8_t {
    io_error,                    ///< the file cannot be opened or read
    unknown_format,              ///< the file's extension names no supported format
    empty_file,                  ///< the file holds nothing but white space
    syntax_error,                ///< not well-formed JSON or XML
    invalid_utf8,                ///< text that is not UTF-8
    unexpected_element,          ///< a JSON value or XML element where the format has none
    unknown_field,               ///< a key or attribute the format does not define (a typo)
    duplicate_field,             ///< the same key twice in one record
    missing_field,               ///< a required key is absent
    wrong_field_type,            ///< a key's value has the wrong type (id not an integer, ...)
    invalid_id,                  ///< a node id of 0
    duplicate_id,                ///< two records with one id
    unknown_parent,              ///< a parentId that names no record
    self_parent,                 ///< a record that is its own parent
    parent_cycle,                ///< records whose parents form a loop
    no_root,                     ///< no record without a parent
    multiple_roots,              ///< more than one record without a parent
    unknown_type,                ///< a type name or id the registry does not know
    leaf_with_children,          ///< a leaf type given children
    decorator_child_count,       ///< a decorator without exactly one child
    composite_without_children,  ///< a composite with no children
    unknown_param,               ///< a parameter the node type does not accept
    missing_param,               ///< a required parameter is absent
    wrong_param_type,            ///< a parameter value of the wrong type
    invalid_param,               ///< the node type's creator rejected the parameters
    too_many_nodes,              ///< more nodes than a tree can index
    too_many_types,              ///< more distinct node types than a tree can index
    unknown_key,                 ///< a key parameter naming no declared blackboard key
    invalid_key,                 ///< a blackboard key declaration the tree cannot have
    key_type_mismatch,           ///< a parameter bound to a key of another type
    unsupported_feature,         ///< something the format has that Canopy does not do (`_skipIf`)
    unknown_tree,                ///< a subtree or a chosen tree that names no tree
    no_main_tree,                ///< several trees and none said to be the main one
    subtree_cycle,               ///< trees that use each other as subtrees in a loop
    limit_exceeded,              ///< nesting or subtree expansion past a documented bound
    not_expressible,             ///< a writer's target format cannot say what a tree says
    invalid_script,              ///< a script that does not parse or compile (at its character)
};

/// The stable spelling of a code, e.g. "unknown-parent".
std::string_view to_string(diagnostic_code code) noexcept;

/// How much a diagnostic matters: an error fails the load; a warning (a likely typo in what
/// the format lets through, say) is reported and the load goes on, unless the caller asks
/// otherwise (load_options::warnings_as_errors).
enum class diagnostic_severity : std::uint8_t { error, warning };

/// "error" or "warning".
std::string_view to_string(diagnostic_severity severity) noexcept;

/// Another place a diagnostic concerns, such as the `<include>` that pulled its file into
/// the load: a compiler's "in file included from".
struct diagnostic_note {
    std::string path;       ///< the file as the load names it
    source_location where;  ///< 1-based; 0 where unknown
    std::string message;    ///< "'sub.xml' is included here"
};

/// How to put a problem right, said for each of its readers: a program's author, in the C++
/// API's words (`load_options::tree`), and someone at a shell, in the `canopy` command's
/// (`--tree NAME`). Either may be empty: there is nothing that reader can do from where they
/// are (a shell cannot register a node type).
struct diagnostic_hint {
    std::string api;
    std::string command_line;
};

/// Whose words a rendered diagnostic's hint is in (diagnostic_hint).
enum class hint_audience : std::uint8_t { api, command_line };

/// One problem found while loading a tree, located in its file.
struct diagnostic {
    std::string path;                       ///< the file as the caller named it
    source_location where;                  ///< 1-based; 0 where unknown
    std::optional<std::int64_t> record_id;  ///< the record it concerns, if any
    diagnostic_code code = diagnostic_code::syntax_error;
    std::string message;  ///< says what is wrong and, where it can, how to fix it
    diagnostic_severity severity = diagnostic_severity::error;
    /// The chain of files that led the load here, innermost first: for a problem in an
    /// included file (or a subtree's file), where that file is included (or named), then
    /// where the file that includes it is, and so on up to the file the load was asked for.
    std::vector<diagnostic_note> notes{};
    /// How to fix it, where the fix depends on who reads it; rendered after the message in
    /// parentheses.
    diagnostic_hint hint{};
};

/// Whether any of the diagnostics is an error: the load they come from failed.
bool has_errors(const std::vector<diagnostic>& diagnostics) noexcept;

/// Renders `path:line:col: error: message (hint)` (or `warning:`), leaving out col, then line,
/// where unknown, and the hint where it has none for `audience`; then each note on a line of
/// its own, `path:line:col: note: message`.
std::string to_string(const diagnostic& d, hint_audience audience = hint_audience::api);
std::ostream& operator<<(std::ostream& out, const diagnostic& d);

}  // namespace canopy
