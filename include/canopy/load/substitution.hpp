#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/core/source_location.hpp"
#include "canopy/core/status.hpp"
#include "canopy/run/registry.hpp"

namespace canopy {

/// A stand-in for the nodes a rule replaces, as BehaviorTree.CPP 4.10's TestNode: it returns a
/// status, at once or after a delay, runs scripts when it finishes, and never ticks the
/// children the node it replaces has (docs/testing.md, "Substitution rules").
struct test_node_config {
    std::string name;  ///< the key it has in `TestNodeConfigs`
    /// What it returns; with return_status_script, that script's value decides instead.
    std::optional<status> return_status;
    /// A script whose value is the status: a number (2 success, 3 failure, 4 skipped, 1
    /// running) or one of the names IDLE, RUNNING, SUCCESS, FAILURE, SKIPPED, which it knows.
    std::string return_status_script;
    /// How long it runs before it finishes, in seconds of the agent's clock (the file gives
    /// whole milliseconds); 0 or less: it finishes on its first tick.
    double async_delay = 0;
    std::string success_script;  ///< run when it finishes with success
    std::string failure_script;  ///< run when it finishes with failure
    std::string post_script;     ///< run whenever it finishes, after those
    source_location where;
};

/// One rule: the nodes it matches are replaced by a test node or by a node of another type.
/// A node matches when the pattern is its name (its `name`, else its type), its type, or,
/// with the wildcards `*` (any text) and `?` (one character), its path as BehaviorTree.CPP
/// builds it: `Sub::7/Fire` for the node named `Fire` in a subtree used by the unnamed SubTree
/// numbered 7, `Fire::9` for an unnamed `Fire` numbered 9 (nodes are numbered from 1 in
/// preorder).
struct substitution_rule {
    std::string pattern;
    /// A test_node_config's name, else the name of a registered node type.
    std::string replacement;
    source_location where;
};

/// BehaviorTree.CPP's substitution rules, from the JSON its `loadSubstitutionRuleFromJSON`
/// reads: `{"TestNodeConfigs": {NAME: {...}}, "SubstitutionRules": {PATTERN: NAME}}`.
struct substitution_rules {
    std::vector<test_node_config> configs;
    /// In the file's order; where several match one node, the first applies.
    std::vector<substitution_rule> rules;
    std::string path;  ///< the file they were read from, for diagnostics

    /// The config of that name, or null.
    const test_node_config* config(std::string_view name) const;
};

/// What reading substitution rules gives: the rules, and every problem found, located.
struct substitution_read_result {
    substitution_rules rules;
    std::vector<diagnostic> diagnostics;
    explicit operator bool() const noexcept { return !has_errors(diagnostics); }
};

/// Whether `pattern` matches the whole of `text` as a rule's pattern matches a node's path:
/// `*` any text, `?` one character, anything else itself.
bool matches_pattern(std::string_view text, std::string_view pattern);

/// A node type named `name` that runs `config`'s test node in place of `original`'s nodes:
/// what a rule naming a test node config puts in place, with the original's parameters and
/// arity, so that the file is checked as written.
node_type make_test_node_type(std::string name, const node_type& original,
                              const test_node_config& config);

/// Reads substitution rules from JSON text; `path` names it in diagnostics.
substitution_read_result read_substitution_rules(std::string_view json_text,
                                                 const std::string& path = "");

/// Reads substitution rules from a file.
substitution_read_result load_substitution_rules(const std::filesystem::path& path);

}  // namespace canopy
