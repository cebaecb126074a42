#pragma once
// The scripts of a tree being built (docs/scripting.md): `script` parameters such as Script's
// `code`, and BehaviorTree.CPP's condition attributes (`_skipIf`, `_onSuccess`, ...), which
// records carry as parameters of those names on any node. Built in three steps, because a
// script may create keys that ports and other scripts use: parse every script, declare the
// keys `:=` creates, then, once the tree's keys are all known, compile each.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "canopy/builder/build.hpp"
#include "canopy/core/param.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/tree.hpp"
#include "run/script/behavior3_expression.hpp"

namespace canopy::detail {

/// The position of a condition attribute in condition_params (node_conditions order: the
/// pre-conditions, then the post-conditions), or nothing for another name.
std::optional<std::size_t> condition_position(std::string_view name) noexcept;

/// The parameter through which the subtree expander tells the builder what a record's script
/// names mean in the whole tree: "name\nwhole name\n..." (a subtree's keys are renamed when it
/// is put in place, and a script's text names them as the subtree wrote them).
inline constexpr std::string_view script_names_param = "_script_names";

/// The script parameter of a test node (load_options::substitutions) whose script also knows
/// the statuses by BehaviorTree.CPP's names and values: IDLE 0, RUNNING 1, SUCCESS 2,
/// FAILURE 3, SKIPPED 4, as its TestNode's return_status_script does.
inline constexpr std::string_view test_status_script_param = "_test.return_status_script";

/// Whether a record's raw parameter of this name is the builder's rather than its type's: a
/// condition attribute or the expander's name map.
inline bool is_script_attribute(std::string_view name) noexcept {
    return condition_position(name).has_value() || name == script_names_param;
}

class script_pass {
public:
    /// How a problem is reported: the record, where its parameter stands, the message, and
    /// whether it fails the load (runtime_rules::btcpp makes warnings).
    using reporter =
        std::function<void(std::size_t, source_location, std::string, diagnostic_severity)>;

    script_pass(const record_set& records, const registry& reg, const build_options& options,
                reporter report)
        : records_(records), registry_(reg), options_(options), report_(std::move(report)) {}

    /// Parses one script of record `record`: the parameter `raw` (a condition attribute or a
    /// `script` parameter). A problem is reported.
    void add(std::size_t record, const record_set::raw_param& raw,
             script_dialect dialect = script_dialect::btcpp);

    /// Declares the keys the scripts create with `:=` after those in `keys`, and reports an
    /// assignment with `=` (or `+=`...) to a key that neither `keys` nor any `:=` has. Where
    /// keys are implicit, a name a behavior3 expression reads and nothing declares becomes a
    /// number key (its variables are numbers unless something else says otherwise).
    void declare_keys(std::vector<blackboard_key>& keys);
    /// Whether the program writes `key` before the first tick (build_options::program_keys).
    bool program_writes(const std::string& key) const {
        return std::find(options_.program_keys.begin(), options_.program_keys.end(), key) !=
               options_.program_keys.end();
    }

    /// The keys the scripts name, as the whole tree calls them.
    std::unordered_set<std::string> names_used() const;

    /// The names behavior3 expressions read fields or elements of (`obj` in `obj.hp`), as the
    /// whole tree calls them.
    std::unordered_set<std::string> object_names() const;

    /// The behavior3 expressions that are parameter `param` of the records `records`, by
    /// record, parsed, each name (and quoted literal, unchanged) as the whole tree calls it:
    /// what the builder reads to type the variables they are stored into.
    std::unordered_map<std::size_t, behavior3_expression::expression> behavior3_expressions(
        std::string_view param, const std::unordered_set<std::size_t>& records) const;

    /// The tree the scripts are in, as far as compiling them needs it: each record's parent
    /// record (or none) and type (or null).
    struct tree_shape {
        const std::vector<std::uint32_t>& parent;
        std::function<const node_type*(std::size_t)> type;
    };

    /// Compiles every script against the tree's final keys: a `script` parameter's compiled
    /// pointer is set in `params` (record by record, from `params_begin`), conditions are
    /// gathered per record. Problems are reported. A read of a key that starts unset is
    /// checked unless `shape` shows the key surely holds a value there (surely_written).
    void compile(const std::vector<blackboard_key>& keys, std::vector<param>& params,
                 const std::vector<std::uint32_t>& params_begin, const tree_shape& shape);

    /// Per record: its entry in conditions(), or none_; filled by compile().
    std::vector<std::uint32_t> condition_of_record;
    std::vector<node_conditions> conditions;
    std::vector<std::shared_ptr<const script>> owned;
    static constexpr std::uint32_t none = 0xFFFFFFFF;

private:
    struct entry {
        std::size_t record;
        std::string name;  // of the parameter
        source_location where;
        parsed_script parsed;
        std::size_t aliases;  // index in aliases_
        script_dialect dialect;
    };
    class scope;
    class surely_written;

    std::size_t aliases_of(std::size_t record);
    // The value of an enum a script of `e` names: the registry's, and a test node's statuses.
    std::optional<std::int64_t> find_enum(const entry& e, std::string_view name) const;
    // The names `which` gives of every script, as the whole tree calls them.
    std::unordered_set<std::string> whole_names(
        std::vector<std::string_view> (parsed_script::*which)() const) const;
    std::string whole_name(const entry& e, std::string_view written) const;
    bool compilable_alone(const entry& e) const;
    // A problem at byte `offset` of a script, `after` its place.
    void report_at(const entry& e, std::size_t offset, const std::string& message,
                   diagnostic_severity severity = diagnostic_severity::error,
                   std::string_view after = {});
    // A problem the file's own runtime meets only when the script runs: a warning, under
    // BehaviorTree.CPP's rules (runtime_rules::btcpp), else an error.
    void report_deferrable(const entry& e, std::size_t offset, const std::string& message);
    bool defers() const noexcept { return options_.rules == runtime_rules::btcpp; }
    // Whether a script names a dynamic entry (run/btcpp_entry.hpp).
    static bool names_entry(const entry& e, const script_scope& names);
    void spread_entries(std::vector<blackboard_key>& keys,
                        const std::unordered_map<std::string, std::uint32_t>& slots);
    void declare_provided_keys(std::vector<blackboard_key>& keys,
                               std::unordered_map<std::string, std::uint32_t>& slots);

    const record_set& records_;
    const registry& registry_;
    const build_options& options_;
    reporter report_;
    std::vector<entry> entries_;
    struct untyped {  // a key `:=` creates whose value's type was never told
        std::size_t entry;
        std::size_t offset;
        std::string name;
    };
    std::vector<untyped> untyped_;
    // Per record that has any: the expander's name map.
    std::vector<std::unordered_map<std::string, std::string>> aliases_{{}};
    std::size_t aliases_record_ = static_cast<std::size_t>(-1);
    std::size_t aliases_index_ = 0;
};

}  // namespace canopy::detail
