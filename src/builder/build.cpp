// The one place that validates records and the one place that makes trees. Every pass is
// linear and iterative (no recursion), so a tree ten thousand levels deep or a million nodes
// wide costs no stack.
#include "canopy/builder/build.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "builder/assemble.hpp"
#include "builder/id_index.hpp"
#include "builder/scripts.hpp"
#include "canopy/core/dynamic_value.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/tree.hpp"
#include "core/diagnostic_sink.hpp"
#include "core/param_read.hpp"
#include "core/param_text.hpp"
#include "core/suggest.hpp"
#include "formats/btcpp_names.hpp"
#include "run/btcpp_entry.hpp"

namespace canopy {
namespace {

constexpr std::uint32_t none = detail::id_index::none;

std::string id_text(std::int64_t id) {
    return "node " + std::to_string(id);
}

std::string at_line(source_location where) {
    if (where.line == 0) return {};
    return " (line " + std::to_string(where.line) + ")";
}

// Converts a parameter as written to its declared type, or returns nothing. Key and
// key-value parameters are resolved by the builder itself.
std::optional<param_value> convert(const record_set::raw_param& raw, param_type type) {
    if (type == param_type::any) return raw.value;
    if (!raw.from_text) return detail::typed_as(raw.value, type);
    return detail::text_as(std::get<std::string>(raw.value), type);
}

// A BehaviorTree.CPP file's port text as its convertFromString reads it (basic_types.cpp):
// a number from the start of the text, the rest ignored (`1.5` is 1 for an integer, `1e3`
// 1000); a BehaviorTree.CPP built-in's integer port is an `int`; a boolean is also `TRUE`,
// `True`, `FALSE`, `False`, `1` or `0`. For those three types only; a number is finite.
std::optional<param_value> btcpp_text_as(const std::string& text, param_type type, bool int_port) {
    const char* end = text.data() + text.size();
    if (type == param_type::integer) {
        std::int64_t value = 0;
        if (std::from_chars(text.data(), end, value).ec != std::errc()) return std::nullopt;
        if (int_port &&
            (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()))
            return std::nullopt;
        return value;
    }
    if (type == param_type::number) {
        double value = 0;
        // `inf` and `nan` too, there; Canopy's nodes take finite numbers only.
        if (std::from_chars(text.data(), end, value).ec != std::errc() || !std::isfinite(value))
            return std::nullopt;
        return value;
    }
    if (type == param_type::boolean) {
        if (text == "true" || text == "True" || text == "TRUE" || text == "1") return true;
        if (text == "false" || text == "False" || text == "FALSE" || text == "0") return false;
        return std::nullopt;
    }
    return std::nullopt;
}

// `{name}` names a blackboard key; anything else is a literal. `{@name}` is BehaviorTree.CPP's
// key of the main tree: in a whole tree that is the key `name`, but a tree checked alone
// before it is put in place keeps the mark (build_options::main_keys_outside).
std::optional<std::string_view> key_reference(const param_value& value, bool keep_main_mark) {
    std::optional<std::string_view> name = detail::key_reference(value);
    if (name && !keep_main_mark && name->size() > 1 && name->front() == '@') name->remove_prefix(1);
    return name;
}

param_value zero_of(param_type type) {
    switch (type) {
        case param_type::boolean: return false;
        case param_type::number: return 0.0;
        case param_type::string:
        case param_type::any: return std::string();
        default: return std::int64_t{0};
    }
}

std::optional<param_type> value_type_named(std::string_view name) {
    for (param_type type :
         {param_type::integer, param_type::number, param_type::boolean, param_type::string}) {
        if (name == to_string(type)) return type;
    }
    return std::nullopt;
}

// Whether a value of type `from` may be used where `to` is wanted: the same type, an integer
// where a number is wanted, or anything to or from a parameter of a learned type.
bool fits(param_type from, param_type to) {
    return from == to || (from == param_type::integer && to == param_type::number) ||
           from == param_type::any || to == param_type::any;
}

}  // namespace

class tree_builder {
public:
    /// `owned` is the same records when the builder may move them into the tree.
    tree_builder(const record_set& records, record_set* owned, const registry& reg,
                 const std::string& path, const build_options& options)
        : records_(records),
          owned_(owned),
          registry_(reg),
          path_(path),
          options_(options),
          count_(records.size()) {}

    load_result run() {
        if (count_ == 0) {
            report_file(diagnostic_code::no_root,
                        "the file holds no node records; a tree needs at least a root");
            return finish();
        }
        if (count_ >= none) {
            report_file(diagnostic_code::too_many_nodes,
                        "the file holds " + std::to_string(count_) +
                            " records; a tree holds at most " + std::to_string(none - 1));
            return finish();
        }
        resolve_keys();
        const std::size_t declared_keys = keys_.size();
        if (options_.implicit_keys || options_.main_keys_outside) declare_used_keys();
        if (options_.rules == runtime_rules::btcpp) make_written_keys_dynamic();
        const std::size_t port_keys = keys_.size();
        collect_scripts();
        scripts_.declare_keys(keys_);
        const std::size_t script_keys = keys_.size();
        declare_untyped_keys();
        if (options_.rules == runtime_rules::behavior3) {
            make_variables_javascript(declared_keys);
            // The program's keys the tree never names are not among its variables.
            if (!options_.main_keys_outside) drop_unused_program_keys();
        }
        if (options_.rules == runtime_rules::btcpp) {
            make_program_keys_dynamic();
            for (std::size_t k = declared_keys; k < keys_.size(); ++k) {
                keys_[k].starts_unset = true;
                keys_[k].made_by_script = k >= port_keys && k < script_keys;
            }
            // A tree checked alone keeps them: the subtree expander finds them in its keys.
            if (!options_.main_keys_outside) drop_unused_program_keys();
            make_dynamic_entries();
        }
        resolve_types_and_params();
        index_ids();
        link_parents();
        find_cycles();
        check_arity();
        if (!damaged_) check_depth();
        // Records a reader marked as unreadable never make a tree; the reader has reported them.
        if (has_errors(diagnostics_) || records_.any_problems()) return finish();
        if (slot_types_.size() > 0xFFFF) {
            report_file(diagnostic_code::too_many_types,
                        "a tree uses at most 65535 distinct node types");
            return finish();
        }
        scripts_.compile(keys_, params_, params_begin_,
                         {parent_, [this](std::size_t record) -> const node_type* {
                              const std::uint32_t slot = slot_[record];
                              return slot < slot_types_.size() ? slot_types_[slot] : nullptr;
                          }});
        if (has_errors(diagnostics_)) return finish();
        tree_ = detail::assemble_tree(
            {records_, owned_, count_, root_, parent_, child_count_, slot_, slot_types_,
             std::move(params_), std::move(params_begin_), std::move(keys_),
             std::move(scripts_.condition_of_record), std::move(scripts_.conditions),
             std::move(scripts_.owned), options_.rules == runtime_rules::behavior3,
             options_.rules == runtime_rules::btcpp, registry_.enums()},
            sink_);
        return finish();
    }

private:
    // ---- reporting -------------------------------------------------------------------------

    void report(std::size_t record, diagnostic_code code, std::string message,
                diagnostic_severity severity = diagnostic_severity::error) {
        std::optional<std::int64_t> id;
        if ((records_.problems(record) & record_set::bad_id) == 0) id = records_.id(record);
        if (severity == diagnostic_severity::warning) {
            sink_.warn(records_.where(record), code, std::move(message), id);
            return;
        }
        sink_.report(records_.where(record), code, std::move(message), id);
    }
    void report_at(source_location where, std::size_t record, diagnostic_code code,
                   std::string message) {
        report(record, code, std::move(message));
        if (where.line != 0) diagnostics_.back().where = where;
    }
    void report_file(diagnostic_code code, std::string message, source_location where = {}) {
        sink_.report(where, code, std::move(message));
    }

    load_result finish() {
        load_result result;
        if (!has_errors(diagnostics_)) result.tree = std::move(tree_);
        detail::diagnostic_sink::sort(diagnostics_);
        result.diagnostics = std::move(diagnostics_);
        return result;
    }

    // Record i's type as its file wrote it (BehaviorTree.CPP's Sleep, not Canopy's Wait).
    std::string word_of(std::size_t i, const node_type& type) const {
        const std::string_view written = records_.written_type(i);
        return std::string(written.empty() ? std::string_view(type.name) : written);
    }
    // Parameter `name` of record i as its file calls it.
    std::string param_word(std::size_t i, std::string_view name) const {
        for (const auto* raw = records_.params_begin(i); raw != records_.params_end(i); ++raw) {
            if (raw->name == name) return std::string(raw->name_as_written());
        }
        if (options_.words != nullptr && !records_.written_type(i).empty()) {
            const std::string_view own = options_.words->param_name(records_.written_type(i), name);
            if (!own.empty()) return std::string(own);
        }
        return std::string(name);
    }
    // "parameter 'msec' of 'Sleep'"
    std::string param_of(std::size_t i, const node_type& type, std::string_view name) const {
        return "parameter '" + param_word(i, name) + "' of '" + word_of(i, type) + "'";
    }

    // "'Sleep'" where the diagnostic's location says which node (a file whose record ids
    // are the reader's numbering, not the file's: BehaviorTree.CPP XML), else
    // "node 2 ('Sleep')".
    std::string node_named(std::size_t i, const node_type& type) const {
        std::string word = "'" + word_of(i, type) + "'";
        if (options_.rules == runtime_rules::btcpp && records_.where(i).line != 0) return word;
        return name_of(i) + " (" + word + ")";
    }

    std::string name_of(std::size_t record) const {
        return (records_.problems(record) & record_set::bad_id) != 0 ? "the node"
                                                                     : id_text(records_.id(record));
    }

    // ---- passes ----------------------------------------------------------------------------

    // The tree's blackboard keys: the program's, then the file's. A file may give a program
    // key of the same type an initial value; any other clash is reported where it stands.
    void resolve_keys() {
        keys_ = registry_.keys();
        const std::size_t program_keys = keys_.size();
        for (const record_set::key_declaration& declared : records_.declared_keys()) {
            auto report_key = [&](const std::string& problem) {
                report_file(diagnostic_code::invalid_key,
                            "blackboard key '" + declared.name + "' " + problem, declared.where);
            };
            if (declared.name.empty() || declared.name.find_first_of("{}") != std::string::npos) {
                report_key("is not a usable key name (give a non-empty name without braces)");
                continue;
            }
            const std::optional<param_type> type = value_type_named(declared.type);
            if (!type) {
                if (registry_.find_type(declared.type) != nullptr ||
                    (options_.rules == runtime_rules::btcpp &&
                     declared.type == detail::btcpp_entry_type()->name)) {
                    declare_custom_key(declared, program_keys, report_key);
                    continue;
                }
                report_key("has type '" + declared.type +
                           "'; a key is an integer, number, boolean, string or a type the "
                           "program registers");
                diagnostics_.back().hint = {"registry::add_type", ""};
                continue;
            }
            std::optional<param_value> initial;
            if (declared.initial) {
                initial = convert(*declared.initial, *type);
                if (!initial) {
                    report_key("is " + detail::with_article(*type) + ", so its default cannot be " +
                               detail::value_text(declared.initial->value));
                    continue;
                }
            }
            auto same = std::find_if(keys_.begin(), keys_.end(), [&](const blackboard_key& k) {
                return k.name == declared.name;
            });
            if (same == keys_.end()) {
                blackboard_key key;
                key.name = declared.name;
                key.type = *type;
                key.initial = std::move(initial);
                key.from_file = true;
                key.starts_unset = declared.starts_unset;
                key.made_by_script = declared.made_by_script;
                keys_.push_back(std::move(key));
            } else if (static_cast<std::size_t>(same - keys_.begin()) >= program_keys) {
                report_key("is declared twice in the file");
            } else if (same->type != *type) {
                report_key("is " + detail::with_article(*type) +
                           " here, but the program declares it " +
                           detail::with_article(same->type));
            } else {
                same->initial = std::move(initial);
                same->from_file = true;
            }
        }
    }

    // A key the file declares of a type the program registered: its initial text read with
    // the type's from_text, whose exception is reported where the key stands.
    template <typename Report>
    void declare_custom_key(const record_set::key_declaration& declared, std::size_t program_keys,
                            const Report& report_key) {
        blackboard_key key;
        key.name = declared.name;
        key.type = param_type::custom;
        key.custom = registry_.find_type(declared.type);
        if (key.custom == nullptr) key.custom = detail::btcpp_entry_type();
        key.from_file = true;
        key.starts_unset = declared.starts_unset;
        key.made_by_script = declared.made_by_script;
        if (declared.initial) {
            const param_value& value = declared.initial->value;
            std::string text = std::holds_alternative<std::string>(value)
                                   ? std::get<std::string>(value)
                                   : detail::value_text(value);
            try {
                key.initial_object = key.custom->from_text(text);
            } catch (const std::exception& problem) {
                report_key("is a " + key.custom->name + ", so its default cannot be '" + text +
                           "': " + problem.what());
                return;
            }
            key.initial = std::move(text);
        }
        auto same = std::find_if(keys_.begin(), keys_.end(),
                                 [&](const blackboard_key& k) { return k.name == key.name; });
        if (same == keys_.end()) {
            keys_.push_back(std::move(key));
        } else if (static_cast<std::size_t>(same - keys_.begin()) >= program_keys) {
            report_key("is declared twice in the file");
        } else if (!same->same_type(key)) {
            report_key("is a " + key.custom->name + " here, but the program declares it " +
                       (same->custom != nullptr ? "a " + same->custom->name
                                                : detail::with_article(same->type)));
        } else {
            same->initial = std::move(key.initial);
            same->initial_object = std::move(key.initial_object);
            same->from_file = true;
        }
    }

    // The type of the literal a record gives its type's key-value parameter, where JSON
    // typed it; for a value copied from another key, that key's type when it is known by now
    // (behavior3's Let copies a variable into a new one).
    std::optional<param_type> typed_value_of(std::size_t i, const node_type& type) const {
        for (const param_spec& spec : type.params) {
            if (spec.type != param_type::key_value) continue;
            for (const auto* raw = records_.params_begin(i); raw != records_.params_end(i); ++raw) {
                if (raw->name != spec.name || raw->from_text) continue;
                if (const std::optional<std::string_view> source = key_of(raw->value)) {
                    for (const blackboard_key& key : keys_) {
                        if (key.name == *source && key.type != param_type::custom) return key.type;
                    }
                    continue;
                }
                // Text of a JSON array or object (behavior3's `"value": [1, 2]`, which its
                // reader keeps as text) types nothing: the key's other uses decide.
                if (const auto* text = std::get_if<std::string>(&raw->value);
                    text != nullptr && !text->empty() &&
                    (text->front() == '[' || text->front() == '{'))
                    return std::nullopt;
                return type_of(raw->value);
            }
        }
        return std::nullopt;
    }

    // The keys parameters name that nobody declared, in order of first use, each typed by the
    // first parameter that reads or writes it as a value (a string where none does). Only
    // the main tree's keys (`{@key}`) where keys are not implicit: a tree checked alone
    // cannot know those.
    void declare_used_keys() {
        const std::size_t known = keys_.size();
        std::vector<bool> typed;       // per key from `known` on
        std::vector<bool> port_typed;  // per key from `known` on: typed by a typed port
        std::vector<std::shared_ptr<const value_type>> fallback;  // per key from `known` on
        auto use = [&](std::string_view name, std::optional<param_type> type,
                       const std::shared_ptr<const value_type>& custom,
                       const std::shared_ptr<const value_type>& untyped, bool by_port,
                       std::size_t record, source_location where) {
            auto same = std::find_if(keys_.begin(), keys_.end(),
                                     [&](const blackboard_key& k) { return k.name == name; });
            if (same == keys_.end()) {
                blackboard_key key;
                key.name = std::string(name);
                key.type = type.value_or(param_type::string);
                key.custom = custom;
                keys_.push_back(std::move(key));
                typed.push_back(type.has_value());
                port_typed.push_back(type.has_value() && by_port);
                fallback.push_back(type ? nullptr : untyped);
                return;
            }
            const std::size_t at = static_cast<std::size_t>(same - keys_.begin());
            if (at >= known && type && !typed[at - known]) {
                same->type = *type;
                same->custom = custom;
                typed[at - known] = true;
                port_typed[at - known] = by_port;
            } else if (at >= known && type && by_port && port_typed[at - known] &&
                       options_.rules == runtime_rules::btcpp) {
                btcpp_second_port(*same, *type, custom, record, where);
            }
            if (at >= known && !type && fallback[at - known] == nullptr)
                fallback[at - known] = untyped;
        };
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_type) != 0) continue;
            const node_type* type = find_type(i);
            for (const record_set::raw_param* raw = records_.params_begin(i);
                 raw != records_.params_end(i); ++raw) {
                if (detail::is_script_attribute(raw->name)) continue;
                const param_spec* spec = spec_of(type, raw->name);
                const std::optional<std::string_view> name = key_named(*raw, spec);
                if (!name) continue;
                if (!options_.implicit_keys && name->front() != '@') continue;
                std::optional<param_type> held_type;
                if (spec != nullptr && spec->type != param_type::key &&
                    spec->type != param_type::key_value && spec->type != param_type::any) {
                    held_type = spec->type;
                } else if (spec != nullptr && spec->type == param_type::key) {
                    held_type = typed_value_of(i, *type);  // SetBlackboard's value, say
                }
                const bool by_port = spec != nullptr && spec->type != param_type::key &&
                                     spec->type != param_type::key_value &&
                                     spec->type != param_type::any;
                use(*name, held_type,
                    spec != nullptr && spec->type == param_type::custom ? spec->custom : nullptr,
                    spec != nullptr ? spec->implicit_key_type : nullptr, by_port, i, raw->where);
                if (spec != nullptr && spec->type == param_type::key &&
                    options_.rules == runtime_rules::btcpp) {
                    // Under BehaviorTree.CPP's rules, a key SetBlackboard writes is a dynamic
                    // entry (make_written_keys_dynamic), not one the scripts type.
                    auto same = std::find_if(
                        keys_.begin() + static_cast<std::ptrdiff_t>(known), keys_.end(),
                        [&](const blackboard_key& k) { return k.name == *name; });
                    if (same != keys_.end())
                        typed[static_cast<std::size_t>(same - keys_.begin()) - known] = true;
                }
            }
        }
        // A key only untyped uses name, one of which gives it a type of its own (behavior3's
        // any-value slots), waits until the scripts have declared theirs: an expression that
        // reads it as a number decides first (declare_untyped_keys). Under BehaviorTree.CPP's
        // rules every key only untyped ports name waits so: its entry takes the type of what
        // a script first writes into it (`x := 0.0` beside a port declared without a type).
        const bool scripts_type_untyped = options_.rules == runtime_rules::btcpp;
        for (std::size_t k = keys_.size(); k-- > known;) {
            if (typed[k - known] || (fallback[k - known] == nullptr && !scripts_type_untyped))
                continue;
            untyped_keys_.insert(untyped_keys_.begin(), {keys_[k].name, fallback[k - known]});
            keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(k));
        }
    }

    // A typed port naming a key a typed port named first, under BehaviorTree.CPP's rules: its
    // entry has the first port's type. A string entry takes ports of any type (they convert
    // its text when they read it, as convertFromString does): it becomes a dynamic entry,
    // declared as a string. Two other types differ, a number's from an integer's say, and the
    // tree is refused, as BehaviorTree.CPP refuses it when it makes the tree; a program's
    // types are checked where the ports are bound (polymorphic casts).
    void btcpp_second_port(blackboard_key& key, param_type type,
                           const std::shared_ptr<const value_type>& custom, std::size_t record,
                           source_location where) {
        if (type == key.type && custom == key.custom) return;
        if (type == param_type::custom || key.type == param_type::custom) return;
        if (key.type == param_type::string) {
            key.type = param_type::custom;
            key.custom = detail::btcpp_entry_type();
            return;
        }
        if (type == param_type::string) return;  // a string port reads any entry as text
        report_at(where, record, diagnostic_code::key_type_mismatch,
                  "blackboard key '" + key.name + "' was made " + detail::with_article(key.type) +
                      " by its first port, and a port of " + detail::with_article(type) +
                      " names it too: BehaviorTree.CPP refuses a second type for an entry");
    }

    // Under BehaviorTree.CPP's rules, every key SetBlackboard writes (a `key` parameter) is a
    // dynamic entry, the program's keys excepted: in a tree whose subtrees were put in place,
    // a key the user's scripts typed may be one that a subtree's SetBlackboard writes.
    void make_written_keys_dynamic() {
        const std::size_t program_keys = registry_.keys().size();
        for (std::size_t i = 0; i < count_; ++i) {
            const node_type* type = find_type(i);
            if (type == nullptr) continue;
            for (const auto* raw = records_.params_begin(i); raw != records_.params_end(i); ++raw) {
                const param_spec* spec = spec_of(type, raw->name);
                if (spec == nullptr || spec->type != param_type::key ||
                    !std::holds_alternative<std::string>(raw->value))
                    continue;
                const std::string_view name =
                    key_of(raw->value).value_or(std::get<std::string>(raw->value));
                for (std::size_t k = program_keys; k < keys_.size(); ++k) {
                    // A key the file declares keeps its type (Canopy wrote the file).
                    if (keys_[k].name != name || keys_[k].type == param_type::custom ||
                        keys_[k].from_file)
                        continue;
                    keys_[k].type = param_type::custom;
                    keys_[k].custom = detail::btcpp_entry_type();
                }
            }
        }
    }

    // Under BehaviorTree.CPP's rules, a key the program writes before the first tick
    // (build_options::program_keys) is a dynamic entry, declared by the port that names it
    // (make_dynamic_entries): it holds the program's value as BehaviorTree.CPP's entry does,
    // a typed one converting it or refusing it as there. (A script's `:=` of one:
    // script_pass.)
    void make_program_keys_dynamic() {
        for (std::size_t k = registry_.keys().size(); k < keys_.size(); ++k) {
            blackboard_key& key = keys_[k];
            if (key.type == param_type::custom || key.from_file ||
                !scripts_.program_writes(key.name))
                continue;
            key.type = param_type::custom;
            key.custom = detail::btcpp_entry_type();
        }
    }

    // Under behavior3-ts's rules every variable the file names, and does not declare with a
    // type, holds any JavaScript value and is undefined until written: a `json` key that
    // starts unset, which the nodes read and write as behavior3-ts's do. One the tree only
    // ever gives numbers is a number key that starts unset instead (number_variables).
    void make_variables_javascript(std::size_t first) {
        std::shared_ptr<const value_type> json = registry_.find_type("json");
        if (json == nullptr || !json->is<dynamic_value>()) json = dynamic_value_type();
        const std::vector<bool> numbers = number_variables(first);
        for (std::size_t k = registry_.keys().size(); k < keys_.size(); ++k) {
            // A `json` variable the file declares without a default is undefined too.
            if (keys_[k].from_file) {
                if (keys_[k].custom != nullptr && keys_[k].custom->is<dynamic_value>() &&
                    !keys_[k].initial)
                    keys_[k].starts_unset = true;
                continue;
            }
            if (k < first) continue;
            keys_[k].type = numbers[k] ? param_type::number : param_type::custom;
            keys_[k].custom = numbers[k] ? nullptr : json;
            keys_[k].starts_unset = true;
        }
    }

    // The variables of a behavior3 file (keys from `first` on that it does not declare) that
    // can only ever hold a number or nothing, so that reading and writing them needs no
    // dynamic_value (bench/README.md): those the tree writes, and only with numbers (a `Let` of
    // a number or of such a variable, a `Calculate` whose expression gives numbers over such
    // variables, an output port of numbers: Math's, Now's, ForEach's index; `Clear`), and
    // reads only where an undefined value reads as behavior3-ts reads it (expressions that
    // take no field of it, Let's and Math's inputs, IsNull). Any other use makes it `json`.
    // A program that writes such a variable writes a double.
    std::vector<bool> number_variables(std::size_t first) const {
        // Per key: whether it is one of those variables, whether it can hold only numbers or
        // nothing (a variable never written holds nothing; another key, by its type), and
        // whether the tree writes it.
        std::vector<bool> variable(keys_.size(), false);
        std::vector<bool> numbers(keys_.size(), false);
        std::vector<bool> written(keys_.size(), false);
        std::unordered_map<std::string_view, std::size_t> slot_of;
        for (std::size_t k = 0; k < keys_.size(); ++k) {
            slot_of.emplace(keys_[k].name, k);
            variable[k] = k >= first && k >= registry_.keys().size() && !keys_[k].from_file;
            numbers[k] = variable[k] || keys_[k].type == param_type::number ||
                         keys_[k].type == param_type::integer;
        }
        auto variable_named = [&](std::string_view name) -> std::optional<std::size_t> {
            const auto found = slot_of.find(name);
            if (found == slot_of.end() || !variable[found->second]) return std::nullopt;
            return found->second;
        };
        for (const std::string& name : scripts_.object_names()) {
            if (const auto k = variable_named(name)) numbers[*k] = false;
        }
        struct conditional_write {
            std::size_t record;
            std::size_t key;
            bool calculate;  // else a Let
        };
        std::vector<conditional_write> writes;
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_type) != 0) continue;
            const node_type* type = find_type(i);
            for (const auto* raw = records_.params_begin(i); raw != records_.params_end(i); ++raw) {
                if (detail::is_script_attribute(raw->name)) continue;
                const param_spec* spec = spec_of(type, raw->name);
                const std::optional<std::string_view> name = key_named(*raw, spec);
                const std::optional<std::size_t> k = name ? variable_named(*name) : std::nullopt;
                if (!k) continue;
                const std::string_view node = type != nullptr ? type->name : std::string_view();
                const std::string_view slot = raw->name;
                const bool number_port =
                    spec != nullptr && spec->output && spec->type == param_type::number;
                const bool assigned =
                    (node == "behavior3.Let" || node == "behavior3.Calculate") && slot == "output1";
                const bool cleared = node == "behavior3.Clear" && slot == "output1";
                const bool read_as_there =
                    (node == "behavior3.Let" && slot == "value") ||
                    (node == "behavior3.Math" && slot != "output1") ||
                    ((node == "behavior3.IsNull" || node == "behavior3.NotNull") &&
                     slot == "input1");
                if (assigned) writes.push_back({i, *k, node == "behavior3.Calculate"});
                if (number_port || assigned) written[*k] = true;
                if (!number_port && !assigned && !cleared && !read_as_there) numbers[*k] = false;
            }
        }
        // Whether a name in an expression, or a Let's source, holds a number or nothing (a
        // name no key has reads as undefined).
        const std::function<bool(std::string_view)> numeric = [&](std::string_view name) {
            const auto found = slot_of.find(name);
            return found == slot_of.end() || numbers[found->second];
        };
        // A write that depends on other variables holds while they stay numbers: dropped
        // until nothing changes. Each Calculate's expression is parsed once, before.
        std::unordered_set<std::size_t> calculates;
        for (const conditional_write& w : writes) {
            if (w.calculate) calculates.insert(w.record);
        }
        const auto calculated = scripts_.behavior3_expressions("value", calculates);
        auto gives_number = [&](const conditional_write& w) {
            if (w.calculate) {
                const auto expression = calculated.find(w.record);
                return expression != calculated.end() &&
                       detail::behavior3_expression::gives_number(expression->second, numeric);
            }
            return let_gives_number(w.record, numeric);
        };
        for (bool changed = true; changed;) {
            changed = false;
            for (const conditional_write& w : writes) {
                if (!numbers[w.key] || gives_number(w)) continue;
                numbers[w.key] = false;
                changed = true;
            }
        }
        for (std::size_t k = 0; k < keys_.size(); ++k)
            numbers[k] = variable[k] && numbers[k] && written[k];
        return numbers;
    }

    // Whether record `record`'s Let writes only numbers (or nothing) when the names `numeric`
    // accepts hold numbers or nothing.
    bool let_gives_number(std::size_t record,
                          const std::function<bool(std::string_view)>& numeric) const {
        for (const auto* raw = records_.params_begin(record); raw != records_.params_end(record);
             ++raw) {
            if (raw->name != "value") continue;
            if (const std::optional<std::string_view> source = key_of(raw->value))
                return numeric(*source);
            return std::holds_alternative<double>(raw->value) ||
                   std::holds_alternative<std::int64_t>(raw->value);
        }
        return true;  // no value: Let clears its variable
    }

    // The spec of parameter `name` in `type`, or null for no type or a name it does not take.
    static const param_spec* spec_of(const node_type* type, std::string_view name) {
        if (type == nullptr) return nullptr;
        const auto found = std::find_if(type->params.begin(), type->params.end(),
                                        [&](const param_spec& s) { return s.name == name; });
        return found != type->params.end() ? &*found : nullptr;
    }

    // The key a record's parameter names: `{key}`, or a bare name where its parameter (`spec`)
    // takes a key or is an output; none for an empty name.
    std::optional<std::string_view> key_named(const record_set::raw_param& raw,
                                              const param_spec* spec) const {
        std::optional<std::string_view> name = key_of(raw.value);
        const bool names_key = spec != nullptr && (spec->type == param_type::key || spec->output);
        if (!name && names_key && std::holds_alternative<std::string>(raw.value))
            name = std::get<std::string>(raw.value);  // a bare key name
        if (!name || name->empty()) return std::nullopt;
        return name;
    }

    // The dynamic entries of a BehaviorTree.CPP file (declare_used_keys made them, or the
    // subtree expander declared them as "BT::Any"): each starts as BehaviorTree.CPP makes it
    // when it builds the tree, empty with the type of the first port whose `{key}` names it,
    // or missing until something writes it.
    void make_dynamic_entries() {
        std::map<std::string_view, detail::btcpp_entry::declared> ports;
        for (std::size_t i = 0; i < count_; ++i) {
            const node_type* type = find_type(i);
            if (type == nullptr) continue;
            for (const auto* raw = records_.params_begin(i); raw != records_.params_end(i); ++raw) {
                const std::optional<std::string_view> name = key_of(raw->value);
                const param_spec* spec = spec_of(type, raw->name);
                if (name && spec != nullptr) {
                    ports.emplace(*name,
                                  detail::declared_by(spec->declares_entry.value_or(spec->type)));
                }
            }
        }
        for (blackboard_key& key : keys_) {
            if (!detail::is_btcpp_entry(key.custom.get())) continue;
            detail::btcpp_entry entry;
            // A value given where the key was declared (a SubTree's port default) is kept.
            if (key.initial && key.initial_object != nullptr)
                entry = *static_cast<const detail::btcpp_entry*>(key.initial_object.get());
            if (const auto port = ports.find(key.name); port != ports.end()) {
                entry.exists = true;
                entry.type = port->second;
            }
            key.initial_object = std::make_shared<const detail::btcpp_entry>(entry);
        }
    }

    // The program's keys that no parameter or script of the tree names: BehaviorTree.CPP's
    // blackboard holds what the tree and its program write, so such a key is no entry of
    // this tree's (a host's blackboard::find gives npos for it).
    void drop_unused_program_keys() {
        std::unordered_set<std::string> used = scripts_.names_used();
        for (std::size_t i = 0; i < count_; ++i) {
            for (const auto* raw = records_.params_begin(i); raw != records_.params_end(i); ++raw) {
                if (const std::optional<std::string_view> name = key_of(raw->value)) {
                    used.emplace(*name);
                } else if (const auto* text = std::get_if<std::string>(&raw->value)) {
                    used.insert(*text);  // a bare key name, as `key` parameters take
                }
            }
        }
        const std::size_t program_keys = registry_.keys().size();
        for (std::size_t k = program_keys; k-- > 0;) {
            if (!keys_[k].from_file && used.count(keys_[k].name) == 0)
                keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(k));
        }
    }

    // The keys declare_used_keys left to the scripts that the scripts did not declare: each
    // gets the type its uses gave it, or string.
    void declare_untyped_keys() {
        for (auto& untyped : untyped_keys_) {
            const bool declared =
                std::any_of(keys_.begin(), keys_.end(),
                            [&](const blackboard_key& k) { return k.name == untyped.first; });
            if (declared) continue;
            blackboard_key key;
            key.name = std::move(untyped.first);
            key.type = untyped.second != nullptr ? param_type::custom : param_type::string;
            key.custom = std::move(untyped.second);
            keys_.push_back(std::move(key));
        }
        untyped_keys_.clear();
    }

    // The scripts of the tree (builder/scripts.hpp): condition attributes on any node, and
    // the parameters its type declares as scripts.
    void collect_scripts() {
        // A script parameter's default is a script of every node that does not give its own:
        // compiled, and the keys it creates declared, as a given one's.
        auto has_default_script = [](const node_type& type) {
            return std::any_of(type.params.begin(), type.params.end(), [](const param_spec& s) {
                return s.type == param_type::script && s.default_value;
            });
        };
        const bool defaults =
            std::any_of(registry_.types().begin(), registry_.types().end(), has_default_script) ||
            (options_.overlay != nullptr &&
             std::any_of(options_.overlay->types().begin(), options_.overlay->types().end(),
                         has_default_script));
        // Whether record i's type has such a default, looked up once per type name.
        std::vector<signed char> name_has_default(records_.type_names().size(), -1);
        auto has_default = [&](std::size_t i) {
            if ((records_.problems(i) & record_set::bad_type) != 0) return false;
            if (records_.has_type_id(i)) {
                const node_type* type = find_type(i);
                return type != nullptr && has_default_script(*type);
            }
            signed char& known = name_has_default[records_.type_name_index(i)];
            if (known < 0) {
                const node_type* type = find_type(i);
                known = type != nullptr && has_default_script(*type) ? 1 : 0;
            }
            return known == 1;
        };
        for (std::size_t i = 0; i < count_; ++i) {
            const record_set::raw_param* first = records_.params_begin(i);
            const record_set::raw_param* last = records_.params_end(i);
            const bool with_defaults = defaults && has_default(i);
            if (first == last && !with_defaults) continue;
            const node_type* type =
                (records_.problems(i) & record_set::bad_type) != 0 ? nullptr : find_type(i);
            if (type != nullptr && with_defaults) {
                for (const param_spec& spec : type->params) {
                    if (spec.type != param_type::script || !spec.default_value ||
                        std::any_of(first, last, [&](const record_set::raw_param& given) {
                            return given.name == spec.name;
                        }))
                        continue;
                    scripts_.add(i, record_set::raw_param{spec.name, *spec.default_value},
                                 spec.dialect);
                }
            }
            for (const record_set::raw_param* raw = first; raw != last; ++raw) {
                bool script = detail::condition_position(raw->name).has_value();
                script_dialect dialect = script_dialect::btcpp;
                if (!script && type != nullptr) {
                    for (const param_spec& spec : type->params) {
                        if (spec.name == raw->name && spec.type == param_type::script) {
                            script = true;
                            dialect = spec.dialect;
                        }
                    }
                }
                if (script) scripts_.add(i, *raw, dialect);
            }
        }
    }

    // Each distinct type gets a slot, numbered in order of first use, which becomes its
    // index in the tree's type table; a name is looked up once, not once per record. The
    // parameters are checked in the same pass over the records.
    void resolve_types_and_params() {
        slot_.assign(count_, no_slot);
        params_begin_.assign(count_ + 1, 0);
        std::vector<std::uint32_t> slot_of_name(records_.type_names().size(), unresolved);
        std::unordered_map<std::int64_t, std::uint32_t> slot_of_id;
        for (std::size_t i = 0; i < count_; ++i) {
            params_begin_[i] = static_cast<std::uint32_t>(params_.size());
            if ((records_.problems(i) & record_set::bad_type) != 0) continue;
            std::uint32_t* known = nullptr;
            if (records_.has_type_id(i)) {
                known = &slot_of_id.try_emplace(records_.type_id(i), unresolved).first->second;
            } else {
                known = &slot_of_name[records_.type_name_index(i)];
            }
            if (*known == unresolved) {
                const node_type* type = find_type(i);
                *known = type == nullptr ? no_slot : slot_for(type);
            }
            slot_[i] = *known;
            if (*known == no_slot) {
                report_unknown_type(i);
                continue;
            }
            const node_type& type = *slot_types_[*known];
            if (!type.params.empty() || records_.params_begin(i) != records_.params_end(i)) {
                check_params_of(i, type);
            }
        }
        params_begin_[count_] = static_cast<std::uint32_t>(params_.size());
    }

    std::optional<std::string_view> key_of(const param_value& value) const {
        return key_reference(value, options_.main_keys_outside);
    }

    const node_type* find_type(std::size_t i) const {
        if (records_.has_type_id(i)) return registry_.find(records_.type_id(i));
        const std::string_view name = records_.type_name(i);
        if (options_.overlay != nullptr) {
            if (const node_type* first = options_.overlay->find(name)) return first;
        }
        return registry_.find(name);
    }

    std::uint32_t slot_for(const node_type* type) {
        // Aliases and ids lead to the same type: one slot each.
        auto found = std::find(slot_types_.begin(), slot_types_.end(), type);
        if (found != slot_types_.end())
            return static_cast<std::uint32_t>(found - slot_types_.begin());
        slot_types_.push_back(type);
        return static_cast<std::uint32_t>(slot_types_.size() - 1);
    }

    const node_type* type_of_record(std::size_t record) const {
        return slot_[record] == no_slot ? nullptr : slot_types_[slot_[record]];
    }

    void report_unknown_type(std::size_t i) {
        if (records_.has_type_id(i)) {
            report(i, diagnostic_code::unknown_type,
                   "unknown node type id " + std::to_string(records_.type_id(i)));
            return;
        }
        std::string_view name = records_.type_name(i);
        // A type of a family ("behavior3.Check") where the registry has none of the family:
        // the registry was set up without it, and the nearest name would only mislead (to
        // Canopy's Check, which is another node).
        const std::size_t dot = name.find('.');
        if (dot != std::string_view::npos && dot > 0 && dot + 1 < name.size()) {
            const std::string_view family = name.substr(0, dot + 1);
            const bool any = std::any_of(
                registry_.types().begin(), registry_.types().end(), [&](const node_type& t) {
                    return std::string_view(t.name).substr(0, family.size()) == family;
                });
            if (!any) {
                const std::string_view written = records_.written_type(i);
                const std::string message =
                    "unknown node type '" + std::string(written) + "'" +
                    (written != name ? " (Canopy's '" + std::string(name) + "')" : std::string()) +
                    ": this registry has none of the '" + std::string(family) + "' types";
                report(i, diagnostic_code::unknown_type, message);
                // Each family's registration function is named after it.
                diagnostics_.back().hint = {"register_" +
                                                std::string(family.substr(0, family.size() - 1)) +
                                                "_nodes adds them",
                                            ""};
                return;
            }
        }
        const std::string_view written = records_.written_type(i);
        const std::string nearest = nearest_type(written);
        report(i, diagnostic_code::unknown_type,
               "unknown node type '" + std::string(written) + "'" +
                   (nearest.empty() ? std::string() : " (did you mean '" + nearest + "'?)"));
    }

    // The registered type nearest to a file's unknown one, in the file's words (behavior3's
    // `Calculate`, not Canopy's `behavior3.Calculate`).
    std::string nearest_type(std::string_view name) const {
        auto in_words = [&](const std::string& type) {
            return options_.words == nullptr ? type : options_.words->type_name(type);
        };
        std::vector<std::string> words;
        for (const node_type& type : registry_.types()) words.push_back(in_words(type.name));
        for (const auto& alias : registry_.aliases()) words.push_back(in_words(alias.first));
        // The loader's types are names the file may mean too (a palette's, say).
        if (options_.overlay != nullptr) {
            for (const node_type& type : options_.overlay->types()) words.push_back(type.name);
        }
        const std::vector<std::string_view> candidates(words.begin(), words.end());
        return std::string(detail::nearest(name, candidates));
    }

    void index_ids() {
        ids_ = std::make_unique<detail::id_index>(records_.min_id(), records_.max_id(), count_);
        reliable_.assign(count_, true);
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_id) != 0) {
                ids_unreadable_ = true;
                reliable_[i] = false;
                continue;
            }
            std::int64_t id = records_.id(i);
            if (id == 0) {
                report(i, diagnostic_code::invalid_id,
                       "node id 0 is not allowed: parentId 0 means 'no parent'; give the node a "
                       "non-zero id");
                reliable_[i] = false;
                continue;
            }
            std::uint32_t first = ids_->insert(id, static_cast<std::uint32_t>(i));
            if (first != i) {
                report(i, diagnostic_code::duplicate_id,
                       "duplicate node id " + std::to_string(id) + "; it was first used" +
                           at_line(records_.where(first)));
                reliable_[i] = false;
            }
        }
    }

    void link_parents() {
        parent_.assign(count_, none);
        std::size_t first_root = none;
        for (std::size_t i = 0; i < count_; ++i) {
            if ((records_.problems(i) & record_set::bad_parent) != 0) {
                damaged_ = true;
                continue;
            }
            std::int64_t parent_id = records_.parent_id(i);
            if (parent_id == 0) {
                if (first_root == none) {
                    first_root = i;
                } else {
                    report(i, diagnostic_code::multiple_roots,
                           name_of(i) + " has no parent, but " + name_of(first_root) +
                               at_line(records_.where(first_root)) +
                               " is already the root; a tree has exactly one root");
                }
                continue;
            }
            if (reliable_[i] && parent_id == records_.id(i)) {
                report(i, diagnostic_code::self_parent, name_of(i) + " is its own parent");
                damaged_ = true;
                continue;
            }
            std::uint32_t parent = ids_->find(parent_id);
            if (parent == none) {
                damaged_ = true;
                // With an id the reader could not read, that record may be the parent meant.
                if (!ids_unreadable_) {
                    report(i, diagnostic_code::unknown_parent,
                           "parent id " + std::to_string(parent_id) + " of " + name_of(i) +
                               " names no node");
                }
                continue;
            }
            parent_[i] = parent;
        }
        root_ = static_cast<std::uint32_t>(first_root);
        if (first_root == none && !damaged_) {
            report_file(diagnostic_code::no_root,
                        "no root: every record has a parent; exactly one must have parentId 0, "
                        "null or none");
        }
    }

    // Walks up from every record, marking each walk; reaching a record marked by the current
    // walk closes a cycle, which is reported once, at its first record in the file.
    void find_cycles() {
        std::vector<std::uint32_t> walk(count_, none);
        for (std::size_t start = 0; start < count_; ++start) {
            auto at = static_cast<std::uint32_t>(start);
            while (at != none && walk[at] == none) {
                walk[at] = static_cast<std::uint32_t>(start);
                at = parent_[at];
            }
            if (at == none || walk[at] != start) continue;
            // The cycle, told from its first record in the file.
            std::uint32_t first = at;
            for (std::uint32_t member = parent_[at]; member != at; member = parent_[member]) {
                first = std::min(first, member);
            }
            std::string chain = std::to_string(records_.id(first));
            std::size_t length = 1;
            for (std::uint32_t member = parent_[first]; member != first; member = parent_[member]) {
                if (length++ < 8) chain += " -> " + std::to_string(records_.id(member));
            }
            chain += length > 8 ? " -> ..." : " -> " + std::to_string(records_.id(first));
            report(first, diagnostic_code::parent_cycle,
                   name_of(first) + " is its own ancestor: parents run " + chain +
                       "; one of these nodes must hang from the root");
            damaged_ = true;
        }
    }

    // Too many children is always a problem; too few may only follow from a broken parent
    // link reported already, so it is checked only when every link is sound. In a behavior3
    // file, children a node does not use are a warning, as behavior3-ts warns about them
    // ("no children is required", "exactly 1 children") and never ticks them.
    void check_arity() {
        const bool unused_warn = options_.rules == runtime_rules::behavior3;
        auto too_many = [&](std::size_t i, diagnostic_code code, std::string message,
                            const char* unused) {
            if (unused_warn) message += unused;
            report(i, code, std::move(message),
                   unused_warn ? diagnostic_severity::warning : diagnostic_severity::error);
        };
        child_count_.assign(count_, 0);
        for (std::size_t i = 0; i < count_; ++i) {
            if (parent_[i] != none) ++child_count_[parent_[i]];
        }
        for (std::size_t i = 0; i < count_; ++i) {
            const node_type* type = type_of_record(i);
            if (type == nullptr || !reliable_[i]) continue;
            std::uint32_t children = child_count_[i];
            auto kind = [&] {
                return "'" + word_of(i, *type) + "' is a " + std::string(to_string(type->arity));
            };
            switch (type->arity) {
                case arity::leaf:
                    if (children != 0) {
                        too_many(i, diagnostic_code::leaf_with_children,
                                 kind() + " and takes no children, but " + name_of(i) + " has " +
                                     std::to_string(children),
                                 ": they are never ticked");
                    }
                    break;
                case arity::decorator:
                    if (children > 1) {
                        too_many(i, diagnostic_code::decorator_child_count,
                                 kind() + " and takes exactly one child, but " + name_of(i) +
                                     " has " + std::to_string(children),
                                 ": only the first is ticked");
                    } else if (children == 0 && !damaged_) {
                        report(
                            i, diagnostic_code::decorator_child_count,
                            kind() + " and takes exactly one child, but " + name_of(i) + " has 0");
                    }
                    break;
                case arity::composite:
                    if (children == 0 && !damaged_) {
                        report(i, diagnostic_code::composite_without_children,
                               kind() + " and needs at least one child, but " + name_of(i) +
                                   " has none");
                    }
                    break;
            }
        }
    }

    // Ticking recurses once per level (canopy/run/context.hpp), so a tree's depth is stack its
    // ticks take. Checked on sound parent links only.
    void check_depth() {
        std::vector<std::uint32_t> level(count_, 0);  // 0: not known yet
        std::vector<std::uint32_t> path;
        std::uint32_t deepest = 0;
        for (std::size_t start = 0; start < count_; ++start) {
            auto at = static_cast<std::uint32_t>(start);
            while (at != none && level[at] == 0) {
                path.push_back(at);
                at = parent_[at];
            }
            std::uint32_t below = at == none ? 0 : level[at];
            for (; !path.empty(); path.pop_back()) level[path.back()] = ++below;
            deepest = std::max(deepest, below);
        }
        if (deepest <= options_.max_depth) return;
        const auto first_past = static_cast<std::size_t>(
            std::find(level.begin(), level.end(), options_.max_depth + 1) - level.begin());
        report(first_past, diagnostic_code::limit_exceeded,
               "the tree is " + std::to_string(deepest) + " levels deep and " +
                   name_of(first_past) + " is the first node past the limit of " +
                   std::to_string(options_.max_depth) +
                   " levels (load_options::max_depth): ticking takes stack for every level");
    }

    void check_params_of(std::size_t i, const node_type& type) {
        const record_set::raw_param* first = records_.params_begin(i);
        const record_set::raw_param* last = records_.params_end(i);
        std::vector<std::string> words;  // the parameters as the file's format names them
        for (const param_spec& spec : type.params) words.push_back(param_word(i, spec.name));
        const std::vector<std::string_view> declared(words.begin(), words.end());
        for (const record_set::raw_param* raw = first; raw != last; ++raw) {
            if (spec_of(&type, raw->name) != nullptr || detail::is_script_attribute(raw->name))
                continue;
            std::string accepted;
            for (std::string_view name : declared) {
                accepted += (accepted.empty() ? "" : ", ") + std::string(name);
            }
            std::string hint = detail::did_you_mean(raw->name_as_written(), declared);
            if (hint.empty()) {
                hint = (accepted.empty() ? "; it takes none" : "; it takes: " + accepted) +
                       type_taking(raw->name, type);
            }
            // In a BehaviorTree.CPP file, likely a node of another program that shares the
            // name (Nav2's Wait); in a behavior3 file, a dialect's (behavior3java's Log with
            // `info`): lenient loading learns it as the file's own.
            // Not for a type the loader supplies (one lenient loading learned from a model):
            // it is the file's own already.
            const bool supplied =
                options_.overlay != nullptr && options_.overlay->find(type.name) == &type;
            report_at(raw->where, i, diagnostic_code::unknown_param,
                      "'" + word_of(i, type) + "' has no parameter '" +
                          std::string(raw->name_as_written()) + "'" + hint);
            if (!options_.canopy_names && !supplied &&
                !(options_.rules == runtime_rules::btcpp &&
                  detail::btcpp::is_builtin(word_of(i, type)))) {
                diagnostics_.back().hint = {
                    "if this is another program's node of that name, load_options::lenient "
                    "reads it as the file's own",
                    "if this is another program's node of that name, `--lenient` reads it as "
                    "the file's own"};
            }
        }
        // A key parameter is resolved first: a key-value parameter takes its key's type.
        std::optional<param_type> key_type;
        std::vector<std::optional<param>> values(type.params.size());
        for (int pass = 0; pass < 2; ++pass) {
            for (std::size_t s = 0; s < type.params.size(); ++s) {
                const param_spec& spec = type.params[s];
                if ((spec.type == param_type::key) != (pass == 0)) continue;
                values[s] = checked_value(i, type, spec, first, last, key_type);
            }
        }
        for (std::size_t s = 0; s < type.params.size(); ++s) {
            if (values[s]) params_.push_back(std::move(*values[s]));
        }
    }

    // " (WaitTicks takes 'ticks')": a registered type whose name is near `type`'s (one name
    // starts the other, or a few edits apart) and that has the parameter, where the file
    // likely meant that type.
    std::string type_taking(std::string_view param_name, const node_type& type) const {
        for (const node_type& other : registry_.types()) {
            if (other.name == type.name || other.name.empty()) continue;
            const std::string_view a = type.name;
            const std::string_view b = other.name;
            const bool near = a.substr(0, b.size()) == b || b.substr(0, a.size()) == a ||
                              !detail::nearest(a, {b}).empty();
            const bool takes =
                std::any_of(other.params.begin(), other.params.end(),
                            [&](const param_spec& spec) { return spec.name == param_name; });
            if (near && takes) {
                return " (" + other.name + " takes '" + std::string(param_name) + "')";
            }
        }
        return {};
    }

    // The value of one declared parameter, converted to its type or bound to a blackboard
    // key, or nothing after a report.
    std::optional<param> checked_value(std::size_t i, const node_type& type, const param_spec& spec,
                                       const record_set::raw_param* first,
                                       const record_set::raw_param* last,
                                       std::optional<param_type>& key_type) {
        const auto* raw = std::find_if(
            first, last, [&](const record_set::raw_param& r) { return r.name == spec.name; });
        if (raw == last && spec.output) {
            return param{spec.name, zero_of(spec.type), param::no_key, true};  // unwired
        }
        if (raw == last && (spec.type == param_type::any || spec.omissible) && !spec.default_value)
            return std::nullopt;
        if (raw == last && !spec.default_value) {
            // A misspelt name given instead (`mesc` for `msec`) was reported with the
            // suggestion: one diagnostic per cause.
            const std::string word = param_word(i, spec.name);
            const bool misspelt = std::any_of(first, last, [&](const record_set::raw_param& r) {
                return spec_of(&type, r.name) == nullptr && !detail::is_script_attribute(r.name) &&
                       !detail::nearest(r.name_as_written(), {word}).empty();
            });
            if (misspelt) return std::nullopt;
            report(i, diagnostic_code::missing_param,
                   node_named(i, type) + " needs parameter '" + word + "' (" +
                       detail::with_article(spec.type) + ")");
            return std::nullopt;
        }
        const record_set::raw_param given =
            raw != last ? *raw : record_set::raw_param{spec.name, *spec.default_value, {}, false};
        const source_location where = raw != last ? raw->where : source_location{};
        if (spec.type == param_type::key) return key_slot(i, given, where, key_type);
        if (spec.type == param_type::script) return script_text(i, type, spec, given);
        if (spec.type == param_type::key_value && !key_type) return std::nullopt;  // reported
        const param_type wanted = spec.type == param_type::key_value ? *key_type : spec.type;
        const value_type* custom =
            spec.type == param_type::key_value ? key_custom_.get() : spec.custom.get();
        if (spec.literal_only && key_of(given.value)) {
            report_at(
                where, i, diagnostic_code::invalid_param,
                param_of(i, type, spec.name) + " takes a literal value here, not a blackboard key");
            return std::nullopt;
        }
        if (spec.output || key_of(given.value)) {
            return bound_param(i, type, spec, given, where, wanted, custom);
        }
        if (wanted == param_type::custom)
            return custom_literal(i, type, spec, *custom, given, where);
        std::optional<param_value> value =
            options_.rules == runtime_rules::btcpp && given.from_text &&
                    (wanted == param_type::integer || wanted == param_type::number ||
                     wanted == param_type::boolean)
                ? btcpp_text_as(std::get<std::string>(given.value), wanted,
                                detail::btcpp::is_builtin(type.name) ||
                                    !detail::btcpp::params_of(type.name).empty())
                : convert(given, wanted);
        if (!value) {
            std::string shown = given.from_text ? detail::value_text(given.value)
                                                : detail::with_article(type_of(given.value)) +
                                                      " (" + detail::value_text(given.value) + ")";
            report_at(where, i, diagnostic_code::wrong_param_type,
                      param_of(i, type, spec.name) + " must be " + detail::with_article(wanted) +
                          ", not " + shown);
            return std::nullopt;
        }
        return param{spec.name, std::move(*value)};
    }

    // A parameter the file wired to a key: `"{key}"` for an input, `"{key}"` or the bare key
    // name for an output. The key's type must fit: an input reads it as the parameter's type,
    // an output writes the parameter's type into it.
    std::optional<param> bound_param(std::size_t i, const node_type& type, const param_spec& spec,
                                     const record_set::raw_param& given, source_location where,
                                     param_type wanted, const value_type* custom) {
        std::optional<std::string_view> name = key_of(given.value);
        if (!name && spec.output && std::holds_alternative<std::string>(given.value))
            name = std::get<std::string>(given.value);
        if (!name || name->empty()) {
            report_at(where, i, diagnostic_code::wrong_param_type,
                      param_of(i, type, spec.name) +
                          " is an output: give the blackboard key it writes, as \"{key}\"");
            return std::nullopt;
        }
        const std::uint32_t slot = find_key(i, *name, where);
        if (slot == param::no_key) return std::nullopt;
        const param_type held = keys_[slot].type;
        // A dynamic entry converts when read or written, as BehaviorTree.CPP's does; a
        // registered type's input reads the text one holds with the type's convertFromString
        // (canopy::btcpp's getInput), as BehaviorTree.CPP's SetBlackboard into a typed entry.
        const bool into_entry = detail::is_btcpp_entry(custom);
        if (into_entry || (detail::is_btcpp_entry(keys_[slot].custom.get()) &&
                           (wanted != param_type::custom || (!spec.output && custom->from_text)))) {
            param bound{spec.name, zero_of(wanted), slot, spec.output};
            bound.dynamic = !into_entry;
            bound.key_scale = given.key_scale;
            return bound;
        }
        // A `json` key (a behavior3 file's variable) converts as behavior3-ts's nodes use its
        // value; one not set gives the parameter's default, as an undefined input does there.
        if (keys_[slot].custom != nullptr && keys_[slot].custom->is<dynamic_value>() &&
            (wanted == param_type::integer || wanted == param_type::number ||
             wanted == param_type::boolean || wanted == param_type::string)) {
            param bound{spec.name,
                        spec.default_value && type_of(*spec.default_value) == wanted
                            ? *spec.default_value
                            : zero_of(wanted),
                        slot, spec.output};
            bound.dynamic = true;
            return bound;
        }
        if (!custom_fits(wanted, custom, keys_[slot], spec) ||
            (spec.output ? !fits(wanted, held) : !fits(held, wanted))) {
            report_at(where, i, diagnostic_code::key_type_mismatch,
                      param_of(i, type, spec.name) + " " + (spec.output ? "writes " : "reads ") +
                          type_text(wanted, custom) + ", but blackboard key '" +
                          std::string(*name) + "' holds " +
                          type_text(held, keys_[slot].custom.get()));
            return std::nullopt;
        }
        param bound{spec.name, zero_of(wanted), slot, spec.output};
        bound.key_scale = given.key_scale;
        return bound;
    }

    // Whether a parameter of type `wanted` (of `custom` when a registered type) and a key
    // agree about registered types: both of the same one, or neither (`any` fits all), or an
    // input that converts the key's type.
    static bool custom_fits(param_type wanted, const value_type* custom, const blackboard_key& key,
                            const param_spec& spec) {
        if (wanted == param_type::any || key.type == param_type::any) return true;
        if ((wanted == param_type::custom) != (key.type == param_type::custom)) return false;
        if (wanted != param_type::custom || custom->cpp_type == key.custom->cpp_type) return true;
        return !spec.output &&
               std::any_of(spec.converts_from.begin(), spec.converts_from.end(),
                           [&](type_id from) { return from == key.custom->cpp_type; });
    }
    static std::string type_text(param_type type, const value_type* custom) {
        return custom != nullptr ? "a " + custom->name : detail::with_article(type);
    }

    // A literal of a registered type, read with the type's from_text; what it throws is
    // reported where the parameter stands.
    std::optional<param> custom_literal(std::size_t i, const node_type& type,
                                        const param_spec& spec, const value_type& custom,
                                        const record_set::raw_param& given, source_location where) {
        const std::string text = std::holds_alternative<std::string>(given.value)
                                     ? std::get<std::string>(given.value)
                                     : detail::value_text(given.value);
        param result{spec.name, text};
        try {
            result.object = custom.from_text(text);
            result.object_type = custom.cpp_type;
        } catch (const std::exception& problem) {
            report_at(where, i, diagnostic_code::invalid_param,
                      param_of(i, type, spec.name) + " is a " + custom.name + ", which '" + text +
                          "' is not: " + problem.what());
            return std::nullopt;
        }
        return result;
    }

    // The slot of a key the tree has, or no_key after reporting it.
    std::uint32_t find_key(std::size_t i, std::string_view name, source_location where) {
        for (std::size_t k = 0; k < keys_.size(); ++k) {
            if (keys_[k].name == name) return static_cast<std::uint32_t>(k);
        }
        std::vector<std::string_view> names;
        names.reserve(keys_.size());
        for (const blackboard_key& key : keys_) names.emplace_back(key.name);
        std::string hint = detail::did_you_mean(name, names);
        report_at(where, i, diagnostic_code::unknown_key,
                  "unknown blackboard key '" + std::string(name) + "'" + hint);
        if (hint.empty()) {
            diagnostics_.back().hint = {
                "declare it in the file's blackboard, or in the program with registry::add_key",
                "declare it in the file's blackboard"};
        }
        return param::no_key;
    }

    // A `script` parameter: its text, which scripts_ compiles (a given one was parsed already).
    std::optional<param> script_text(std::size_t i, const node_type& type, const param_spec& spec,
                                     const record_set::raw_param& given) {
        const auto* text = std::get_if<std::string>(&given.value);
        if (text == nullptr || key_of(given.value)) {
            if (text != nullptr) {
                report_at(given.where, i, diagnostic_code::wrong_param_type,
                          param_of(i, type, spec.name) +
                              " is a script, which the file gives as text, not a blackboard key");
            }
            return std::nullopt;  // not text: reported with the scripts
        }
        return param{spec.name, *text};  // its script is compiled with the given ones
    }

    // A `key` parameter: the key's name, bare or as "{key}"; the node gets its slot.
    std::optional<param> key_slot(std::size_t i, const record_set::raw_param& given,
                                  source_location where, std::optional<param_type>& key_type) {
        if (!std::holds_alternative<std::string>(given.value)) {
            report_at(where, i, diagnostic_code::wrong_param_type,
                      "parameter '" + param_word(i, given.name) +
                          "' must name a blackboard key, not " +
                          detail::with_article(type_of(given.value)));
            return std::nullopt;
        }
        const std::string_view name =
            key_of(given.value).value_or(std::get<std::string>(given.value));
        if (name.empty()) {
            report_at(where, i, diagnostic_code::wrong_param_type,
                      "parameter '" + param_word(i, given.name) +
                          "' must name a blackboard key, but it is empty");
            return std::nullopt;
        }
        const std::uint32_t slot = find_key(i, name, where);
        if (slot == param::no_key) return std::nullopt;
        key_type = keys_[slot].type;
        key_custom_ = keys_[slot].custom;
        return param{given.name, static_cast<std::int64_t>(slot), param::no_key, false, true};
    }

    const record_set& records_;
    record_set* owned_;
    const registry& registry_;
    const std::string& path_;
    const build_options& options_;
    const std::size_t count_;
    std::vector<diagnostic> diagnostics_;
    detail::diagnostic_sink sink_{path_, diagnostics_};

    static constexpr std::uint32_t no_slot = 0xFFFFFFFF;     // an unknown or unreadable type
    static constexpr std::uint32_t unresolved = 0xFFFFFFFE;  // not looked up yet
    std::vector<std::uint32_t> slot_;                        // per record: its type's slot
    std::vector<const node_type*> slot_types_;               // per slot
    std::unique_ptr<detail::id_index> ids_;
    std::vector<bool> reliable_;  // false: id unreadable, 0 or a duplicate
    bool ids_unreadable_ = false;
    std::vector<std::uint32_t> parent_;  // per record: the parent record, or none
    std::uint32_t root_ = none;
    bool damaged_ = false;                    // some parent link is broken (and reported)
    std::vector<std::uint32_t> child_count_;  // per record
    std::vector<param> params_;               // checked params, record by record
    std::vector<blackboard_key> keys_;        // the program's, then the file's
    // Keys whose uses give them no type: the registered type one of them gives its own, or
    // null (string, unless a script types it first).
    std::vector<std::pair<std::string, std::shared_ptr<const value_type>>> untyped_keys_;
    std::shared_ptr<const value_type> key_custom_;  // the type of the `key` parameter's key
    std::vector<std::uint32_t> params_begin_;
    detail::script_pass scripts_{records_, registry_, options_,
                                 [this](std::size_t record, source_location where,
                                        std::string message, diagnostic_severity severity) {
                                     report_at(where, record, diagnostic_code::invalid_script,
                                               std::move(message));
                                     diagnostics_.back().severity = severity;
                                 }};
    std::shared_ptr<const tree> tree_;
};

load_result build_tree(const record_set& records, const registry& reg, const std::string& path,
                       const build_options& options) {
    return tree_builder(records, nullptr, reg, path, options).run();
}

load_result build_tree(record_set&& records, const registry& reg, const std::string& path,
                       const build_options& options) {
    return tree_builder(records, &records, reg, path, options).run();
}

}  // namespace canopy
