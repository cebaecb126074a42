#include "load/expand.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include "builder/scripts.hpp"
#include "canopy/builder/build.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/tree.hpp"
#include "core/param_read.hpp"
#include "core/suggest.hpp"
#include "load/subtree_node.hpp"
#include "run/btcpp_entry.hpp"

namespace canopy::detail {
namespace {

// A copy: opening a subtree's file can move the records the parameter lives in.
std::optional<std::string> text_param(const record_set& records, std::size_t i,
                                      std::string_view name) {
    const std::string* text = records.text_param(i, name);
    return text ? std::optional<std::string>(*text) : std::nullopt;
}

bool is_true(const param_value& value) {
    if (std::holds_alternative<bool>(value)) return std::get<bool>(value);
    return std::holds_alternative<std::string>(value) && std::get<std::string>(value) == "true";
}

// A literal remapped onto a subtree's key, as the key's type. A string is read as text where
// the key is not a string: "4" from a format that wrote XML's text as JSON strings.
std::optional<param_value> literal_as(const record_set::raw_param& raw, param_type type) {
    const bool as_text = raw.from_text || (std::holds_alternative<std::string>(raw.value) &&
                                           type != param_type::string);
    if (!as_text) return typed_as(raw.value, type);
    return text_as(std::get<std::string>(raw.value), type);
}

// A copy of the records whose SubTree records hold no parameters: while a tree is checked
// alone, what they say (which tree, which remaps) is the expander's to check.
record_set without_subtree_params(const record_set& records) {
    record_set copy;
    copy.set_name(records.name());
    copy.set_tree_metadata(records.tree_metadata());
    copy.copy_declarations(records);
    copy.reserve(records.size(), 0);
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records.has_type_id(i)) {
            copy.add_with_type_id(records.id(i), records.parent_id(i), records.type_id(i),
                                  records.describe(i), records.where(i));
        } else {
            copy.add(records.id(i), records.parent_id(i), records.type_name(i), records.describe(i),
                     records.where(i));
            copy.copy_written_type(records, i);
        }
        copy.copy_metadata(records, i);
        if (records.problems(i) != 0) copy.mark_problem(records.problems(i));
        if (!records.has_type_id(i) && records.type_name(i) == subtree_type_name) continue;
        for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p)
            copy.add_param(*p);
    }
    return copy;
}

// A tree's records in preorder, siblings in record order, as the builder lays a tree out, each
// with its parent's position. The records were checked to make one tree.
void in_preorder(const record_set& records, std::vector<std::uint32_t>& preorder,
                 std::vector<std::uint32_t>& parent, std::uint32_t none) {
    const std::size_t count = records.size();
    std::unordered_map<std::int64_t, std::uint32_t> index_of;
    index_of.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        index_of.emplace(records.id(i), static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> first_child(count + 1, 0);  // children grouped by parent
    std::uint32_t root = none;
    std::vector<std::uint32_t> parent_of(count, none);
    for (std::size_t i = 0; i < count; ++i) {
        if (records.parent_id(i) == 0) {
            root = static_cast<std::uint32_t>(i);
            continue;
        }
        parent_of[i] = index_of.at(records.parent_id(i));
        ++first_child[parent_of[i] + 1];
    }
    for (std::size_t i = 0; i < count; ++i) first_child[i + 1] += first_child[i];
    std::vector<std::uint32_t> children(count, 0);
    std::vector<std::uint32_t> filled(first_child.begin(), first_child.end() - 1);
    for (std::size_t i = 0; i < count; ++i) {
        if (parent_of[i] != none) children[filled[parent_of[i]]++] = static_cast<std::uint32_t>(i);
    }
    preorder.reserve(count);
    parent.reserve(count);
    std::vector<std::uint32_t> position(count, none);
    std::vector<std::uint32_t> stack{root};
    while (!stack.empty()) {
        const std::uint32_t r = stack.back();
        stack.pop_back();
        position[r] = static_cast<std::uint32_t>(preorder.size());
        preorder.push_back(r);
        parent.push_back(parent_of[r] == none ? none : position[parent_of[r]]);
        for (std::uint32_t c = first_child[r + 1]; c-- > first_child[r];)
            stack.push_back(children[c]);
    }
}

bool has_subtree_records(const record_set& records) {
    const std::vector<std::string>& names = records.type_names();
    return std::find(names.begin(), names.end(), subtree_type_name) != names.end();
}

}  // namespace

const subtree_expander::checked_tree* subtree_expander::checked(tree_ref ref) {
    auto [at, added] = checked_.try_emplace({ref.file, ref.tree});
    if (!added) return at->second.get();
    const loaded_file& file = files_.file(ref.file);
    const record_set& records = this->records(ref);
    build_options options;
    options.implicit_keys = file.document.implicit_keys || lenient_;
    options.rules = file.document.rules;
    options.canopy_names = file.document.canopy_names;
    options.words = file.document.words;
    options.overlay = &placeholders_;
    options.main_keys_outside = true;
    // Depth is the whole tree's: checked once the subtrees are in place.
    options.max_depth = std::numeric_limits<std::uint32_t>::max();
    load_result built =
        has_subtree_records(records)
            ? build_tree(without_subtree_params(records), registry_, file.name, options)
            : build_tree(records, registry_, file.name, options);
    out_.insert(out_.end(), built.diagnostics.begin(), built.diagnostics.end());
    if (!built || !files_.clean(ref.file)) return nullptr;

    auto made = std::make_unique<checked_tree>();
    made->keys = built.tree->keys();
    in_preorder(records, made->preorder, made->parent, checked_tree::no_parent);
    made->types.reserve(made->preorder.size());
    for (std::uint32_t r : made->preorder) {
        const node_type* type = nullptr;
        if (records.has_type_id(r)) {
            type = registry_.find(records.type_id(r));
        } else {
            type = placeholders_.find(records.type_name(r));
            if (type == nullptr) type = registry_.find(records.type_name(r));
        }
        made->types.push_back(type);
    }
    at->second = std::move(made);
    return at->second.get();
}

class subtree_expander::run {
public:
    explicit run(subtree_expander& owner) : owner_(owner) {
        for (const blackboard_key& key : owner_.registry_.keys())
            program_key_names_.insert(key.name);
    }

    std::optional<record_set> expand(tree_ref main) {
        const checked_tree* checked = owner_.checked(main);
        if (!checked) return std::nullopt;
        const loaded_file& file = owner_.files_.file(main.file);
        const record_set& records = owner_.records(main);
        out_.set_name(records.name());
        out_.set_tree_metadata(records.tree_metadata());
        out_.reserve(records.size(), 0);
        scopes_.push_back(
            {main, checked, 0, "", file.document.implicit_keys || owner_.lenient_, {}, {}});
        const std::vector<blackboard_key>& keys = checked->keys;
        // In the main tree `@x` is its own key `x` (the main tree's blackboard is the root):
        // named after `x`, declared once.
        std::unordered_set<std::string> plain;
        for (const blackboard_key& key : keys) plain.insert(key.name);
        for (std::size_t k = 0; k < keys.size(); ++k) {
            if (k < program_keys() && !keys[k].from_file) continue;
            if (keys[k].name.size() > 1 && keys[k].name.front() == '@') {
                std::string name = keys[k].name.substr(1);
                scopes_[0].names[keys[k].name] = name;
                if (!plain.insert(name).second) continue;  // `x` is declared as itself
                scopes_[0].names[name] = name;
                declare(name, keys[k].type_name(), keys[k].initial, &keys[k]);
                continue;
            }
            scopes_[0].names[keys[k].name] = keys[k].name;
            // A name the main tree's scripts read and nothing there declares (a provided
            // key) may be a key a subtree writes: its remap declares it with its type.
            if (keys[k].provided) {
                guessed_.insert(keys[k].name);
                continue;
            }
            declare(keys[k].name, keys[k].type_name(), keys[k].initial, &keys[k]);
        }
        // The main tree keeps its ids; subtree nodes are numbered after its largest.
        for (std::size_t i = 0; i < records.size(); ++i)
            next_id_ = std::max(next_id_, records.id(i));
        // Room for every node subtrees may add, within 64 bits.
        constexpr std::int64_t room = static_cast<std::int64_t>(max_expanded_nodes) + 1;
        if (next_id_ > std::numeric_limits<std::int64_t>::max() - room) {
            report(main.file, {}, diagnostic_code::limit_exceeded,
                   "node id " + std::to_string(next_id_) +
                       " leaves no room to number the nodes of its subtrees after it; use ids "
                       "below " +
                       std::to_string(std::numeric_limits<std::int64_t>::max() - room),
                   std::nullopt);
            return std::nullopt;
        }
        ++next_id_;
        // First come, first copied: subtree nodes are numbered in the order they are used.
        std::vector<job> jobs{{0, 0, {}}};
        for (std::size_t j = 0; j < jobs.size() && ok_; ++j) {
            const job next = jobs[j];
            copy(next, jobs);
        }
        if (!ok_) return std::nullopt;
        return std::move(out_);
    }

private:
    // One use of a tree: the main tree, or a subtree under one SubTree record.
    struct scope {
        tree_ref ref;
        const checked_tree* checked;
        std::size_t parent;  // index of the enclosing scope; the main tree's is its own
        std::string prefix;  // of the keys private to this use
        bool implicit_keys;
        std::unordered_map<std::string, std::string> names;  // its key -> the whole tree's
        std::unordered_set<std::string> subtree_names;       // its SubTree records' names, so far
        bool autoremapped = false;                           // its SubTree record says `_autoremap`
    };

    struct job {
        std::size_t scope;
        std::int64_t parent_id;   // of the root's record; 0 for the main tree
        source_location used_at;  // the SubTree record, in the user scope's file
    };

    // `type` by its name: a built-in one's or a registered one's.
    // `like`: the key of a tree's own check it stands for, whose starting without a value
    // it keeps; none for a key a literal fills.
    void declare(const std::string& name, std::string_view type,
                 const std::optional<param_value>& initial, const blackboard_key* like = nullptr) {
        if (!declared_.emplace(name).second) return;
        declared_types_.emplace(name, type);
        record_set::key_declaration key;
        key.name = name;
        key.type = std::string(type);
        if (initial) key.initial = record_set::raw_param{name, *initial, {}, false};
        if (like != nullptr) {
            key.starts_unset = like->starts_unset;
            key.made_by_script = like->made_by_script;
        }
        out_.declare_key(std::move(key));
    }

    void report(std::size_t file, source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record) {
        owner_.files_.report(file, where, code, std::move(message), record);
        ok_ = false;
    }

    // The whole tree's name for a key a scope's records name.
    std::string key_name(std::size_t in, const std::string& name) const {
        if (program_key_names_.count(name) != 0) return name;
        auto found = scopes_[in].names.find(name);
        return found != scopes_[in].names.end() ? found->second : name;
    }

    // A parameter's value with the key it names renamed for the whole tree: `{key}`, or the
    // bare name a key or output parameter may give. Anything else is a literal, kept.
    std::optional<std::string> renamed(std::size_t in, const param_value& value,
                                       const param_spec* spec) const {
        if (!std::holds_alternative<std::string>(value)) return std::nullopt;
        const auto& text = std::get<std::string>(value);
        if (std::optional<std::string_view> key = key_reference(value))
            return "{" + key_name(in, std::string(*key)) + "}";
        if (spec != nullptr && (spec->type == param_type::key || spec->output) && !text.empty())
            return key_name(in, text);
        return std::nullopt;
    }

    // Copies one use of a tree (the main tree, or a subtree under its SubTree record).
    void copy(const job& current, std::vector<job>& jobs) {
        const std::size_t in = current.scope;
        const checked_tree& t = *scopes_[in].checked;
        const tree_ref ref = scopes_[in].ref;
        const bool main = current.parent_id == 0;
        const std::int64_t base = next_id_;
        const std::size_t size = t.preorder.size();
        if (!main) {
            added_ += size;
            if (added_ > max_expanded_nodes) {
                report(scopes_[scopes_[in].parent].ref.file, current.used_at,
                       diagnostic_code::limit_exceeded,
                       "subtrees add more than " + std::to_string(max_expanded_nodes) +
                           " nodes to the tree; Canopy expands no more (is a subtree used "
                           "many times at many levels?)",
                       std::nullopt);
                return;
            }
            next_id_ += static_cast<std::int64_t>(size);
            owner_.blocks_.push_back({base, &t, ref});
        }
        for (std::size_t k = 0; k < size; ++k) {
            // Read again each time: opening a subtree file may have moved the files' records.
            const record_set& records = owner_.records(ref);
            const std::size_t r = t.preorder[k];
            auto id_at = [&](std::size_t position) {
                return main ? records.id(t.preorder[position])
                            : base + static_cast<std::int64_t>(position);
            };
            const std::int64_t id = id_at(k);
            const std::int64_t parent_id =
                t.parent[k] == checked_tree::no_parent ? current.parent_id : id_at(t.parent[k]);
            if (records.has_type_id(r)) {
                out_.add_with_type_id(id, parent_id, records.type_id(r), records.describe(r),
                                      records.where(r));
                out_.copy_metadata(records, r);
            } else {
                out_.add(id, parent_id, records.type_name(r), records.describe(r),
                         records.where(r));
                out_.copy_written_type(records, r);
                out_.copy_metadata(records, r);
                if (records.type_name(r) == subtree_type_name) {
                    use_subtree(in, r, id, jobs);
                    if (!ok_) return;
                    continue;
                }
            }
            copy_params(in, records, r, t.types[k]);
        }
    }

    void copy_params(std::size_t in, const record_set& records, std::size_t r,
                     const node_type* type) {
        auto spec_named = [&](std::string_view name) -> const param_spec* {
            if (type == nullptr) return nullptr;
            for (const param_spec& spec : type->params) {
                if (spec.name == name) return &spec;
            }
            return nullptr;
        };
        const auto* first = records.params_begin(r);
        const auto* last = records.params_end(r);
        std::vector<const record_set::raw_param*> scripts;
        for (const auto* p = first; p != last; ++p) {
            const param_spec* spec = spec_named(p->name);
            if (is_script_attribute(p->name) || (spec && spec->type == param_type::script)) {
                if (p->name != script_names_param) scripts.push_back(p);
                continue;
            }
            record_set::raw_param copy = *p;
            if (std::optional<std::string> key = renamed(in, p->value, spec)) {
                if (!copy.written || !copy.written->value)  // the file's value, kept
                    copy.write_as(copy.written ? copy.written->name : std::string(), copy.value);
                copy.value = std::move(*key);  // the whole tree's name; the file's is written
            }
            out_.add_param(std::move(copy));
        }
        copy_scripts(in, scripts);
        if (type == nullptr) return;
        // A default that names a key names it in this tree: given, renamed, as the file would.
        for (const param_spec& spec : type->params) {
            if (spec.output || !spec.default_value) continue;
            if (std::any_of(first, last, [&](const auto& p) { return p.name == spec.name; }))
                continue;
            if (std::optional<std::string> key = renamed(in, *spec.default_value, &spec)) {
                record_set::raw_param made{spec.name, std::move(*key)};
                made.unwritten = true;
                out_.add_param(std::move(made));
            }
        }
    }

    // Scripts name keys as their tree does, which is not always as the whole tree does: the
    // names that differ go with the record, in the parameter the builder reads them from.
    void copy_scripts(std::size_t in, const std::vector<const record_set::raw_param*>& scripts) {
        std::string names;
        std::unordered_set<std::string> seen;
        for (const record_set::raw_param* p : scripts) {
            out_.add_param(*p);
            const auto* text = std::get_if<std::string>(&p->value);
            if (text == nullptr) continue;
            // A script that does not parse names nothing; the builder reports it.
            auto parsed = parsed_script::parse(*text);
            if (!std::holds_alternative<parsed_script>(parsed)) continue;
            for (std::string_view name : std::get<parsed_script>(parsed).names()) {
                if (!seen.insert(std::string(name)).second) continue;
                const std::string whole = key_name(in, std::string(name));
                if (whole != name) names += std::string(name) + "\n" + whole + "\n";
            }
        }
        if (!names.empty()) {
            names.pop_back();
            record_set::raw_param made{std::string(script_names_param), std::move(names)};
            made.unwritten = true;
            out_.add_param(std::move(made));
        }
    }

    // The overrides that apply to the nodes of a subtree file a scope uses: those of every
    // file from the scope out to the main tree, the outermost last, so that it wins (as
    // behavior3editor applies them).
    std::vector<subtree_override> overrides_over(std::size_t user) const {
        std::vector<subtree_override> chain;
        for (std::size_t s = user;; s = scopes_[s].parent) {
            const auto& own = owner_.files_.file(scopes_[s].ref.file).document.overrides;
            chain.insert(chain.end(), own.begin(), own.end());
            if (scopes_[s].parent == s) break;
        }
        return chain;
    }

    // A SubTree record: its parameters say which tree and how its keys map to the user's.
    void use_subtree(std::size_t user, std::size_t r, std::int64_t out_id, std::vector<job>& jobs) {
        const tree_ref from = scopes_[user].ref;
        const std::int64_t record_id = owner_.records(from).id(r);
        const source_location where = owner_.records(from).where(r);
        auto fail = [&](diagnostic_code code, std::string message) {
            report(from.file, where, code, std::move(message), record_id);
        };
        // BehaviorTree.CPP names a subtree's nodes by the SubTree's `name` under its user's
        // path, and refuses two uses of one path when it makes the tree.
        const std::string_view used_name = owner_.records(from).describe(r);
        if (owner_.files_.file(from.file).document.rules == runtime_rules::btcpp &&
            !used_name.empty() && !scopes_[user].subtree_names.emplace(used_name).second) {
            return fail(diagnostic_code::invalid_param,
                        "a second SubTree named '" + std::string(used_name) +
                            "' in this tree: BehaviorTree.CPP refuses two SubTrees of one name "
                            "under one tree (\"Duplicate SubTree path\"); give each its own "
                            "name, or none");
        }
        const std::optional<std::string> tree_name = text_param(owner_.records(from), r, "tree");
        const std::optional<std::string> file_name = text_param(owner_.records(from), r, "file");
        {
            const record_set& records = owner_.records(from);
            std::string written;
            record_set::append_written(written, records.params_begin(r), records.params_end(r));
            out_.set_written_params(std::move(written));
            for (const std::string_view name : {"tree", "file"}) {
                const auto* p = std::find_if(
                    records.params_begin(r), records.params_end(r), [&](const auto& given) {
                        return given.name == name &&
                               std::holds_alternative<std::string>(given.value);
                    });
                if (p != records.params_end(r)) out_.add_param(*p);
            }
            std::vector<const record_set::raw_param*> conditions;
            for (const auto* p = records.params_begin(r); p != records.params_end(r); ++p) {
                if (condition_position(p->name)) conditions.push_back(p);
            }
            copy_scripts(user, conditions);
        }
        std::optional<tree_ref> target;
        if (file_name) {
            const std::filesystem::path path = owner_.files_.resolve(from.file, *file_name);
            if (path.empty()) {
                return fail(diagnostic_code::io_error,
                            "subtree file '" + *file_name + "' not found" +
                                (owner_.files_.file(from.file).document.subtree_paths ==
                                         tree_document::path_base::workspace
                                     ? " (looked in the workspace root and the folders above "
                                       "this file)"
                                     : " beside this file"));
            }
            const std::optional<std::size_t> opened =
                owner_.files_.open_changed(path, overrides_over(user));
            if (!opened)
                return fail(diagnostic_code::io_error,
                            "subtree file '" + *file_name + "' cannot be read");
            const tree_document& document = owner_.files_.file(*opened).document;
            std::string wanted = tree_name.value_or(document.main_tree);
            if (wanted.empty() && document.trees.size() == 1) wanted = document.trees[0].name();
            target = owner_.files_.find_tree(*opened, wanted);
            if (!target && !tree_name && document.trees.size() == 1) target = tree_ref{*opened, 0};
            if (!target) {
                return fail(diagnostic_code::unknown_tree,
                            "subtree file '" + *file_name + "' holds no tree '" + wanted + "'");
            }
        } else if (tree_name) {
            target = owner_.files_.find_tree(from.file, *tree_name);
            if (!target) {
                return fail(diagnostic_code::unknown_tree, "no tree named '" + *tree_name +
                                                               "' in this file or the files it "
                                                               "includes" +
                                                               nearest_tree(from.file, *tree_name));
            }
        } else {
            return fail(diagnostic_code::missing_param,
                        "a SubTree names the tree it uses: give 'tree' (a tree's name) or "
                        "'file' (a tree file)");
        }
        for (std::size_t s = user;; s = scopes_[s].parent) {
            if (scopes_[s].ref == *target) {
                std::vector<std::string> labels{tree_label(*target)};
                for (std::size_t c = user;; c = scopes_[c].parent) {
                    labels.push_back(tree_label(scopes_[c].ref));
                    if (c == s) break;
                }
                std::string chain;
                for (auto label = labels.rbegin(); label != labels.rend(); ++label) {
                    if (!chain.empty()) chain += " -> ";
                    chain += *label;
                }
                return fail(diagnostic_code::subtree_cycle,
                            "trees use each other as subtrees in a loop: " + chain);
            }
            if (s == 0) break;
        }
        const checked_tree* used = owner_.checked(*target);
        if (!used) {
            ok_ = false;  // its problems are reported where they are
            return;
        }
        const std::size_t index = scopes_.size();
        const std::string& name = owner_.records(*target).name();
        const std::string label = name.empty() ? "subtree" : name;
        scopes_.push_back(
            {*target,
             used,
             user,
             label + "#" + std::to_string(++uses_) + "/",
             owner_.files_.file(target->file).document.implicit_keys || owner_.lenient_,
             {},
             {}});
        // Read again: opening a subtree file may have moved the files' records.
        map_keys(index, owner_.records(from), r, where);
        if (ok_) jobs.push_back({index, out_id, where});
    }

    // The subtree's keys as the whole tree names them: remapped to the user's keys, to
    // private keys holding a literal, or private.
    void map_keys(std::size_t index, const record_set& records, std::size_t r,
                  source_location where) {
        const std::size_t user = scopes_[index].parent;
        const std::size_t file = scopes_[user].ref.file;
        const std::vector<blackboard_key>& keys = scopes_[index].checked->keys;
        bool autoremap = false;
        std::vector<const record_set::raw_param*> remaps;
        for (const auto* p = records.params_begin(r); p != records.params_end(r); ++p) {
            if (p->name == "_autoremap") {
                autoremap = is_true(p->value);
            } else if (p->name != "tree" && p->name != "file" && !is_script_attribute(p->name)) {
                remaps.push_back(p);
            }
        }
        scopes_[index].autoremapped = autoremap;
        // The subtree's model's defaults, for the ports this use leaves out.
        for (const record_set::raw_param& fallback :
             owner_.records(scopes_[index].ref).port_defaults()) {
            if (std::none_of(remaps.begin(), remaps.end(),
                             [&](const auto* p) { return p->name == fallback.name; }))
                remaps.push_back(&fallback);
        }
        for (std::size_t k = program_keys(); k < keys.size(); ++k) {
            const blackboard_key& key = keys[k];
            if (key.name.front() == '@') {  // the main tree's key
                scopes_[index].names[key.name] = outer_key(0, key.name.substr(1), key);
                continue;
            }
            auto remap = std::find_if(remaps.begin(), remaps.end(),
                                      [&](const auto* p) { return p->name == key.name; });
            std::string name;
            if (remap != remaps.end()) {
                const record_set::raw_param& given = **remap;
                remaps.erase(remap);
                if (std::optional<std::string_view> outer = key_reference(given.value)) {
                    name = outer_key(user, std::string(*outer), key);
                } else {
                    // A registered type's text is read when the whole tree is built.
                    std::optional<param_value> value = key.type == param_type::custom
                                                           ? std::optional<param_value>(given.value)
                                                           : literal_as(given, key.type);
                    if (!value) {
                        report(file, given.where.line != 0 ? given.where : where,
                               diagnostic_code::wrong_param_type,
                               "subtree key '" + key.name + "' is " + std::string(key.type_name()) +
                                   ", so '" +
                                   std::string(std::holds_alternative<std::string>(given.value)
                                                   ? std::get<std::string>(given.value)
                                                   : "this value") +
                                   "' cannot be its value",
                               std::nullopt);
                        return;
                    }
                    name = scopes_[index].prefix + key.name;
                    declare(name, key.type_name(), value);
                }
            } else if (autoremap) {
                name = outer_key(user, key.name, key);
            } else {
                name = scopes_[index].prefix + key.name;
                declare(name, key.type_name(), key.initial, &key);
            }
            scopes_[index].names[key.name] = name;
        }
        // A remap of a key the subtree never uses: a typo where keys are declared.
        if (!scopes_[index].implicit_keys) {
            for (const auto* stray : remaps) {
                std::vector<std::string_view> names;
                for (std::size_t k = program_keys(); k < keys.size(); ++k)
                    names.emplace_back(keys[k].name);
                report(file, stray->where.line != 0 ? stray->where : where,
                       diagnostic_code::unknown_key,
                       "the subtree has no blackboard key '" + stray->name + "' to remap" +
                           did_you_mean(stray->name, names),
                       std::nullopt);
            }
        }
    }

    // The whole tree's name for a key the user scope names `name`, made there if it has none.
    std::string outer_key(std::size_t user, std::string name, const blackboard_key& like) {
        std::size_t in = user;
        if (name.size() > 1 && name.front() == '@') {  // the main tree's key
            name.erase(0, 1);
            in = 0;
        }
        // A name an autoremapped scope does not hold is its user's, and so on up, as
        // BehaviorTree.CPP's autoremapped blackboard looks up (and creates) an entry in its
        // parent's; a private name (`_x`) stays where it is.
        while (in != 0 && scopes_[in].autoremapped && !name.empty() && name.front() != '_' &&
               scopes_[in].names.count(name) == 0)
            in = scopes_[in].parent;
        auto found = scopes_[in].names.find(name);
        if (found != scopes_[in].names.end()) {
            if (guessed_.erase(found->second) != 0)
                declare(found->second, like.type_name(), like.initial, &like);
            entry_where_types_differ(found->second, like);
            return found->second;
        }
        if (program_key_names_.count(name) != 0) return name;
        std::string made = scopes_[in].prefix + name;
        scopes_[in].names[name] = made;
        declare(made, like.type_name(), like.initial, &like);
        return made;
    }

    // Under BehaviorTree.CPP's rules a key the user's tree and its subtree type apart (a
    // number its script writes, which a text port of the subtree reads) is a dynamic entry,
    // as BehaviorTree.CPP's entry holds what is written and converts when read.
    void entry_where_types_differ(const std::string& name, const blackboard_key& like) {
        auto declared = declared_types_.find(name);
        if (declared == declared_types_.end() || declared->second == like.type_name() ||
            program_key_names_.count(name) != 0)
            return;
        const tree_document& main = owner_.files_.file(scopes_[0].ref.file).document;
        if (main.rules != runtime_rules::btcpp) return;
        const std::string entry = detail::btcpp_entry_type()->name;
        declared->second = entry;
        out_.retype_key(name, entry);
    }

    std::string tree_label(tree_ref ref) const {
        const std::string& name = owner_.records(ref).name();
        return "'" + (name.empty() ? owner_.files_.file(ref.file).name : name) + "'";
    }

    std::string nearest_tree(std::size_t file, const std::string& name) const {
        std::vector<std::string_view> names;
        for (std::size_t f = 0; f < owner_.files_.size(); ++f) {
            for (const record_set& t : owner_.files_.file(f).document.trees)
                names.emplace_back(t.name());
        }
        (void)file;
        return did_you_mean(name, names);
    }

    std::size_t program_keys() const { return owner_.registry_.keys().size(); }

    subtree_expander& owner_;
    std::unordered_set<std::string> program_key_names_;
    record_set out_;
    std::vector<scope> scopes_;
    std::unordered_set<std::string> guessed_;  // the main tree's provided keys, undeclared
    std::unordered_set<std::string> declared_;
    std::unordered_map<std::string, std::string> declared_types_;
    std::int64_t next_id_ = 0;
    std::size_t uses_ = 0;
    std::size_t added_ = 0;  // nodes subtrees added
    bool ok_ = true;
};

std::optional<record_set> subtree_expander::expand(tree_ref main) {
    return run(*this).expand(main);
}

void subtree_expander::relocate(diagnostic& problem) const {
    if (!problem.record_id || blocks_.empty()) return;
    const std::int64_t id = *problem.record_id;
    auto after =
        std::upper_bound(blocks_.begin(), blocks_.end(), id,
                         [](std::int64_t value, const block& b) { return value < b.first_id; });
    if (after == blocks_.begin()) return;
    const block& in = *(after - 1);
    const std::int64_t offset = id - in.first_id;
    if (offset >= static_cast<std::int64_t>(in.origin->preorder.size())) return;
    problem.record_id = records(in.ref).id(in.origin->preorder[static_cast<std::size_t>(offset)]);
    problem.path = files_.file(in.ref.file).name;
}

}  // namespace canopy::detail
