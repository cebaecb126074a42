#include "builder/scripts.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_set>
#include <variant>

#include "canopy/core/dynamic_value.hpp"
#include "run/btcpp_entry.hpp"
#include "run/script/behavior3_expression.hpp"
#include "run/script/syntax.hpp"

namespace canopy::detail {

std::optional<std::size_t> condition_position(std::string_view name) noexcept {
    if (name.size() < 2 || name.front() != '_') return std::nullopt;
    for (std::size_t i = 0; i < std::size(condition_params); ++i) {
        if (condition_params[i] == name) return i;
    }
    return std::nullopt;
}

namespace {

// The 1-based column of byte `offset` of a text, counting code points.
std::size_t column_of(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
    }
    return column;
}

}  // namespace

// Where a key that starts unset surely holds a value when a script reads it: after a sibling
// that assigned it, under a parent that ticks its children in order (node_type::
// ticks_in_order). Such a sibling is of a type that runs its scripts whole
// (runs_scripts_whole), has no pre-condition that could skip it, and assigns the key in a
// statement of its own; it has succeeded before any later sibling is ticked, and a key once
// written keeps a value unless something unsets it. In a tree whose nodes may unset keys
// (node_type::watches_updates), nothing is sure. A program that unsets a key (canopy::btcpp's
// Blackboard::unset) between ticks of a running Sequence is not seen
// (docs/btcpp-xml.md, "Keys that start unset").
class script_pass::surely_written {
public:
    surely_written(const script_pass& pass, const tree_shape& shape) : shape_(shape) {
        const std::size_t count = shape.parent.size();
        for (std::size_t r = 0; r < count; ++r) {
            const node_type* type = shape.type(r);
            if (type != nullptr && type->watches_updates) return;
        }
        std::vector<bool> preconditioned(count, false);
        for (const entry& e : pass.entries_) {
            const std::optional<std::size_t> at = condition_position(e.name);
            if (at && *at < node_conditions::pre_count) preconditioned[e.record] = true;
        }
        for (const entry& e : pass.entries_) {
            const std::uint32_t parent = shape.parent[e.record];
            if (preconditioned[e.record] || parent == none || condition_position(e.name) ||
                e.dialect != script_dialect::btcpp)
                continue;
            const node_type* type = shape.type(e.record);
            const node_type* parent_type = shape.type(parent);
            if (type == nullptr || !type->runs_scripts_whole || parent_type == nullptr ||
                !parent_type->ticks_in_order)
                continue;
            for (const script_assignment& a : e.parsed.assignments()) {
                if (a.statement) writes_[parent].push_back({e.record, pass.whole_name(e, a.name)});
            }
        }
    }

    /// Whether key `name` (as the whole tree calls it) holds a value whenever record
    /// `record`'s scripts run.
    bool before(std::size_t record, const std::string& name) const {
        if (writes_.empty()) return false;
        for (std::size_t child = record; shape_.parent[child] != none;
             child = shape_.parent[child]) {
            auto found = writes_.find(shape_.parent[child]);
            if (found == writes_.end()) continue;
            for (const write& w : found->second) {
                if (w.record < child && w.key == name) return true;
            }
        }
        return false;
    }

private:
    struct write {
        std::size_t record;  // siblings are in record order
        std::string key;
    };
    const tree_shape& shape_;
    std::unordered_map<std::uint32_t, std::vector<write>> writes_;  // by parent record
};

// What a script's names mean: the tree's keys (through the expander's name map where the
// record has one) and the registry's enums.
class script_pass::scope final : public script_scope {
public:
    scope(const script_pass& pass, const entry& e,
          const std::unordered_map<std::string, std::uint32_t>& slots,
          const std::vector<blackboard_key>& keys, const surely_written* written = nullptr)
        : pass_(pass), entry_(e), slots_(slots), keys_(keys), written_(written) {}

    std::optional<key> find_key(std::string_view name) const override {
        const std::string whole = pass_.whole_name(entry_, name);
        auto found = slots_.find(whole);
        if (found == slots_.end()) return std::nullopt;
        const blackboard_key& k = keys_[found->second];
        const bool may_be_unset =
            k.starts_unset && (written_ == nullptr || !written_->before(entry_.record, whole));
        return key{found->second, k.type, k.custom.get(), may_be_unset,
                   may_be_unset && k.made_by_script};
    }
    std::optional<std::int64_t> find_enum(std::string_view name) const override {
        return pass_.find_enum(entry_, name);
    }
    bool btcpp_values() const override { return pass_.defers(); }

private:
    const script_pass& pass_;
    const entry& entry_;
    const std::unordered_map<std::string, std::uint32_t>& slots_;
    const std::vector<blackboard_key>& keys_;
    const surely_written* written_;
};

std::size_t script_pass::aliases_of(std::size_t record) {
    if (record == aliases_record_) return aliases_index_;
    aliases_record_ = record;
    aliases_index_ = 0;
    for (const auto* p = records_.params_begin(record); p != records_.params_end(record); ++p) {
        if (p->name != script_names_param || !std::holds_alternative<std::string>(p->value))
            continue;
        const std::string_view text = std::get<std::string>(p->value);
        std::unordered_map<std::string, std::string> names;
        std::size_t at = 0;
        while (at < text.size()) {
            const std::size_t name_end = text.find('\n', at);
            if (name_end == std::string_view::npos) break;
            std::size_t whole_end = text.find('\n', name_end + 1);
            if (whole_end == std::string_view::npos) whole_end = text.size();
            names.emplace(text.substr(at, name_end - at),
                          text.substr(name_end + 1, whole_end - name_end - 1));
            at = whole_end + 1;
        }
        aliases_.push_back(std::move(names));
        aliases_index_ = aliases_.size() - 1;
    }
    return aliases_index_;
}

std::string script_pass::whole_name(const entry& e, std::string_view written) const {
    const auto& names = aliases_[e.aliases];
    if (!names.empty()) {
        auto found = names.find(std::string(written));
        if (found != names.end()) return found->second;
    }
    // `@name`, BehaviorTree.CPP's key of the main tree: in a whole tree the key `name`; a tree
    // checked alone keeps the mark, as for "{@name}" (build_options::main_keys_outside).
    if (!options_.main_keys_outside && written.size() > 1 && written.front() == '@')
        written.remove_prefix(1);
    return std::string(written);
}

// A tree checked alone cannot know the type of a main tree's key that a script reads: such a
// script is compiled only when the whole tree is built.
bool script_pass::compilable_alone(const entry& e) const {
    if (!options_.main_keys_outside) return true;
    const std::vector<std::string_view> names = e.parsed.names();
    return std::none_of(names.begin(), names.end(),
                        [](std::string_view name) { return name.front() == '@'; });
}

void script_pass::report_at(const entry& e, std::size_t offset, const std::string& message,
                            diagnostic_severity severity, std::string_view after) {
    // A tree checked alone does not know the keys its user maps into it; the whole tree,
    // built next, warns of what is still unknown there.
    if (severity == diagnostic_severity::warning && options_.main_keys_outside) return;
    report_(e.record, e.where,
            "script of '" + e.name + "': " + message + " (at column " +
                std::to_string(column_of(e.parsed.text(), offset)) + " of the script)" +
                std::string(after),
            severity);
}

void script_pass::report_deferrable(const entry& e, std::size_t offset,
                                    const std::string& message) {
    if (defers()) {
        report_at(e, offset, message, diagnostic_severity::warning,
                  "; it fails there when it runs");
    } else {
        report_at(e, offset, message);
    }
}

void script_pass::add(std::size_t record, const record_set::raw_param& raw,
                      script_dialect dialect) {
    const auto* text = std::get_if<std::string>(&raw.value);
    if (text == nullptr) {
        report_(record, raw.where,
                "'" + raw.name + "' must be a script, as text, not " +
                    std::string(to_string(type_of(raw.value))),
                diagnostic_severity::error);
        return;
    }
    std::variant<parsed_script, script_problem> parsed = parsed_script::parse(*text, dialect);
    // What Canopy's language takes beyond BehaviorTree.CPP 4.10's tokens, refused in its
    // files as it refuses them.
    if (std::optional<script_problem> refused =
            defers() && dialect == script_dialect::btcpp &&
                    std::holds_alternative<parsed_script>(parsed)
                ? detail::script_syntax::btcpp_refused_token(*text)
                : std::nullopt) {
        parsed = std::move(*refused);
    }
    if (auto* problem = std::get_if<script_problem>(&parsed)) {
        report_(record, raw.where,
                "script of '" + raw.name + "': " + problem->message + " (at column " +
                    std::to_string(column_of(*text, problem->offset)) + " of the script)",
                diagnostic_severity::error);
        return;
    }
    entries_.push_back({record, raw.name, raw.where, std::get<parsed_script>(std::move(parsed)),
                        aliases_of(record), dialect});
}

std::optional<std::int64_t> script_pass::find_enum(const entry& e, std::string_view name) const {
    if (e.name == test_status_script_param) {
        // BehaviorTree.CPP's TestNode gives its status script the statuses, first.
        static constexpr std::pair<std::string_view, std::int64_t> statuses[] = {
            {"IDLE", 0}, {"RUNNING", 1}, {"SUCCESS", 2}, {"FAILURE", 3}, {"SKIPPED", 4}};
        for (const auto& [status_name, value] : statuses) {
            if (name == status_name) return value;
        }
    }
    return registry_.find_enum(name);
}

// BehaviorTree.CPP looks a name up when the script runs: a key or enum that neither the file
// nor the program declares may be one the program writes before then (`temp` in
// `temp > LIMIT`). Each becomes a dynamic entry, which takes whatever the program writes
// (a number, a boolean, a string) and holds nothing until then (the builder makes it start
// unset), with a warning: reading it before a write fails the tick, as there.
// A name a script assigns with `=` or `+=` too (`_onHalted="B=69"` with `B` the program's):
// BehaviorTree.CPP's assignment fails on a missing entry, and so does the entry's.
void script_pass::declare_provided_keys(std::vector<blackboard_key>& keys,
                                        std::unordered_map<std::string, std::uint32_t>& slots) {
    for (const entry& e : entries_) {
        if (e.dialect != script_dialect::btcpp || !compilable_alone(e)) continue;
        for (const std::string_view written : e.parsed.names()) {
            if (find_enum(e, written)) continue;
            std::string key = whole_name(e, written);
            if (slots.count(key) != 0) continue;
            slots.emplace(key, static_cast<std::uint32_t>(keys.size()));
            keys.push_back({key, param_type::custom, std::nullopt, false});
            keys.back().custom = btcpp_entry_type();
            keys.back().initial_object = std::make_shared<const btcpp_entry>();
            keys.back().provided = true;
            report_at(e, static_cast<std::size_t>(written.data() - e.parsed.text().data()),
                      "'" + std::string(written) +
                          "' is no key of the tree nor an enum: a key the program "
                          "provides, which holds no value until it writes it",
                      diagnostic_severity::warning,
                      "; a script that reads it before then fails there");
        }
    }
}

// A script that names a dynamic entry computes values whose type only the run tells, and
// BehaviorTree.CPP's entries take what is written first: each key it assigns (but the
// program's) is a dynamic entry too, and so on, for the scripts that name those.
void script_pass::spread_entries(std::vector<blackboard_key>& keys,
                                 const std::unordered_map<std::string, std::uint32_t>& slots) {
    // A text port's entry that a script gives a number holds the number, as BehaviorTree.CPP's
    // empty entry takes the first value written whatever its port declared, and the port
    // reads it as text: such a key is a dynamic entry.
    for (const entry& e : entries_) {
        if (e.dialect != script_dialect::btcpp) continue;
        const scope names(*this, e, slots, keys);
        for (const script_assignment& a : e.parsed.assignments()) {
            const auto found = slots.find(whole_name(e, a.name));
            if (found == slots.end() || found->second < registry_.keys().size()) continue;
            blackboard_key& key = keys[found->second];
            if (key.type != param_type::string || key.from_file) continue;
            const std::optional<param_type> value = e.parsed.value_type(a.index, names);
            if (!value || *value == param_type::string) continue;
            key.type = param_type::custom;
            key.custom = btcpp_entry_type();
            key.initial_object = std::make_shared<const btcpp_entry>();
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (const entry& e : entries_) {
            if (!names_entry(e, scope(*this, e, slots, keys))) continue;
            for (const script_assignment& a : e.parsed.assignments()) {
                const auto found = slots.find(whole_name(e, a.name));
                if (found == slots.end() || found->second < registry_.keys().size()) continue;
                blackboard_key& key = keys[found->second];
                if (key.type == param_type::custom) continue;  // an entry, or a program's type
                key.type = param_type::custom;
                key.custom = btcpp_entry_type();
                key.initial_object = std::make_shared<const btcpp_entry>();
                changed = true;
            }
        }
    }
}

bool script_pass::names_entry(const entry& e, const script_scope& names) {
    if (e.dialect != script_dialect::btcpp) return false;
    const std::vector<std::string_view> written = e.parsed.names();
    return std::any_of(written.begin(), written.end(), [&](std::string_view name) {
        const auto key = names.find_key(name);
        return key && is_btcpp_entry(key->custom);
    });
}

std::unordered_set<std::string> script_pass::whole_names(
    std::vector<std::string_view> (parsed_script::*which)() const) const {
    std::unordered_set<std::string> names;
    for (const entry& e : entries_) {
        for (const std::string_view written : (e.parsed.*which)())
            names.insert(whole_name(e, written));
    }
    return names;
}

std::unordered_set<std::string> script_pass::names_used() const {
    return whole_names(&parsed_script::names);
}

std::unordered_set<std::string> script_pass::object_names() const {
    return whole_names(&parsed_script::object_names);
}

std::unordered_map<std::size_t, behavior3_expression::expression>
script_pass::behavior3_expressions(std::string_view param,
                                   const std::unordered_set<std::size_t>& records) const {
    std::unordered_map<std::size_t, behavior3_expression::expression> found;
    for (const entry& e : entries_) {
        if (e.name != param || e.dialect != script_dialect::behavior3 ||
            records.count(e.record) == 0)
            continue;
        auto parsed = behavior3_expression::parse(e.parsed.text());
        auto* expression = std::get_if<behavior3_expression::expression>(&parsed);
        if (expression == nullptr) continue;  // reported when it was added
        for (behavior3_expression::item& i : expression->postfix) {
            if (i.kind == behavior3_expression::op::word) i.text = whole_name(e, i.text);
        }
        found.emplace(e.record, std::move(*expression));
    }
    return found;
}

void script_pass::declare_keys(std::vector<blackboard_key>& keys) {
    std::unordered_map<std::string, std::uint32_t> slots;
    for (std::size_t k = 0; k < keys.size(); ++k)
        slots.emplace(keys[k].name, static_cast<std::uint32_t>(k));
    struct creation {
        const entry* in;
        const script_assignment* assignment;
        std::string key;
    };
    std::vector<creation> pending;
    std::unordered_set<std::string> created;  // whether or not their type is known
    for (const entry& e : entries_) {
        for (const script_assignment& a : e.parsed.assignments()) {
            if (!a.creates) continue;
            std::string key = whole_name(e, a.name);
            created.insert(key);
            if (slots.count(key) == 0) pending.push_back({&e, &a, std::move(key)});
        }
    }
    // In file order, again while a pass types a key a later value needs: `b := a + 1` before
    // `a := 2` types `b` on the second pass.
    for (bool progress = true; progress && !pending.empty();) {
        progress = false;
        for (auto c = pending.begin(); c != pending.end();) {
            if (slots.count(c->key) == 0) {
                const scope names(*this, *c->in, slots, keys);
                // A script that reads a dynamic entry computes values whose type only the
                // run tells: what it creates is a dynamic entry too; and so is a key the
                // program writes first, whose type is the program's.
                if (defers() && (names_entry(*c->in, names) || program_writes(c->key))) {
                    slots.emplace(c->key, static_cast<std::uint32_t>(keys.size()));
                    blackboard_key made{c->key, param_type::custom, std::nullopt, false};
                    made.custom = btcpp_entry_type();
                    made.initial_object = std::make_shared<const btcpp_entry>();
                    keys.push_back(std::move(made));
                    progress = true;
                    c = pending.erase(c);
                    continue;
                }
                const std::optional<param_type> type =
                    c->in->parsed.value_type(c->assignment->index, names);
                if (!type) {
                    ++c;
                    continue;
                }
                slots.emplace(c->key, static_cast<std::uint32_t>(keys.size()));
                keys.push_back({c->key, *type, std::nullopt, false});
                progress = true;
            }
            c = pending.erase(c);
        }
    }
    // A value that never gets a type uses an unknown name or types that cannot work: its key
    // stands in as an integer so that compiling reports that problem, not the key's absence.
    // (In a tree checked alone, a value that names the main tree's keys is typed when the
    // whole tree is built.)
    // Under BehaviorTree.CPP's rules a key whose value reads the key itself (`t := t + 1`,
    // with `t` the program's) is a dynamic entry: its value's type is the run's to tell, as
    // there.
    for (creation& c : pending) {
        if (slots.count(c.key) != 0 || !compilable_alone(*c.in)) continue;
        slots.emplace(c.key, static_cast<std::uint32_t>(keys.size()));
        if (defers() && c.in->parsed.value_reads(c.assignment->index, c.assignment->name)) {
            blackboard_key made{c.key, param_type::custom, std::nullopt, false};
            made.custom = btcpp_entry_type();
            made.initial_object = std::make_shared<const btcpp_entry>();
            keys.push_back(std::move(made));
            continue;
        }
        keys.push_back({c.key, param_type::integer, std::nullopt, false});
        untyped_.push_back({static_cast<std::size_t>(c.in - entries_.data()), c.assignment->offset,
                            c.assignment->name});
    }
    if (defers()) {
        declare_provided_keys(keys, slots);
        spread_entries(keys, slots);
    }
    // behavior3 expressions read variables their tree never declares (implicit keys).
    if (options_.implicit_keys) {
        for (const entry& e : entries_) {
            if (e.dialect != script_dialect::behavior3) continue;
            // A variable whose fields or elements it reads holds an object or array: json.
            for (const std::string_view written : e.parsed.object_names()) {
                std::string key = whole_name(e, written);
                if (slots.count(key) != 0) continue;
                slots.emplace(key, static_cast<std::uint32_t>(keys.size()));
                blackboard_key made{std::move(key), param_type::custom, std::nullopt, false};
                made.custom = dynamic_value_type();
                keys.push_back(std::move(made));
            }
            for (const std::string_view written : e.parsed.names()) {
                std::string key = whole_name(e, written);
                if (slots.count(key) != 0) continue;
                slots.emplace(key, static_cast<std::uint32_t>(keys.size()));
                keys.push_back({std::move(key), param_type::number, std::nullopt, false});
            }
        }
    }
    for (const entry& e : entries_) {
        for (const script_assignment& a : e.parsed.assignments()) {
            if (a.creates) continue;
            const std::string key = whole_name(e, a.name);
            if (slots.count(key) != 0 || created.count(key) != 0) continue;
            if (options_.main_keys_outside && key.front() == '@') continue;  // the main tree's
            // Deferred, compiling finds it: the script then fails at that statement.
            if (defers()) continue;
            report_at(e, a.offset,
                      "'" + a.name +
                          "' is assigned with '=' but nothing creates it (create it with ':=', "
                          "or declare the key)");
        }
    }
}

void script_pass::compile(const std::vector<blackboard_key>& keys, std::vector<param>& params,
                          const std::vector<std::uint32_t>& params_begin, const tree_shape& shape) {
    const surely_written written(*this, shape);
    std::unordered_map<std::string, std::uint32_t> slots;
    for (std::size_t k = 0; k < keys.size(); ++k)
        slots.emplace(keys[k].name, static_cast<std::uint32_t>(k));
    condition_of_record.assign(records_.size(), none);
    std::shared_ptr<const script> stand_in;  // see below
    std::vector<std::size_t> failed;         // entries
    std::vector<script_problem> deferred;    // the problems of the entry being compiled
    for (const entry& e : entries_) {
        const scope names(*this, e, slots, keys, &written);
        std::variant<std::shared_ptr<const script>, script_problem> compiled;
        if (compilable_alone(e)) {
            compiled = script::compile(e.parsed, names, defers() ? &deferred : nullptr);
        } else {
            // The tree is only checked; the whole tree, built next, compiles the script. Its
            // node still needs a script to be made: one that is never run.
            if (!stand_in) {
                auto parsed = parsed_script::parse("false");
                auto made = script::compile(std::get<parsed_script>(parsed), names);
                stand_in = std::get<std::shared_ptr<const script>>(std::move(made));
            }
            compiled = stand_in;
        }
        if (auto* problem = std::get_if<script_problem>(&compiled)) {
            report_at(e, problem->offset, problem->message);
            failed.push_back(static_cast<std::size_t>(&e - entries_.data()));
            continue;
        }
        for (const script_problem& problem : deferred)
            report_deferrable(e, problem.offset, problem.message);
        if (!deferred.empty()) failed.push_back(static_cast<std::size_t>(&e - entries_.data()));
        deferred.clear();
        const script* made = std::get<std::shared_ptr<const script>>(compiled).get();
        owned.push_back(std::get<std::shared_ptr<const script>>(std::move(compiled)));
        if (const std::optional<std::size_t> at = condition_position(e.name)) {
            std::uint32_t& index = condition_of_record[e.record];
            if (index == none) {
                index = static_cast<std::uint32_t>(conditions.size());
                conditions.emplace_back();
            }
            node_conditions& node = conditions[index];
            if (*at < node_conditions::pre_count) {
                node.pre[*at] = made;
            } else {
                node.post[*at - node_conditions::pre_count] = made;
            }
            continue;
        }
        for (std::uint32_t p = params_begin[e.record]; p < params_begin[e.record + 1]; ++p) {
            if (params[p].name == e.name) params[p].compiled = made;
        }
    }
    // Should a value's type stay unknown though its script compiles (`a := b; b := a`).
    for (const untyped& u : untyped_) {
        if (std::find(failed.begin(), failed.end(), u.entry) != failed.end()) continue;
        report_deferrable(entries_[u.entry], u.offset,
                          "the type of '" + u.name +
                              "' cannot be told from its value; declare the key with its type");
    }
}

}  // namespace canopy::detail
