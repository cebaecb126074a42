#include "load/expand.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "build/subtree_node.hpp"
#include "canopy/run/tree.hpp"
#include "core/suggest.hpp"

namespace canopy::detail {
namespace {

// `{name}`: a key reference; as the builder reads them.
std::optional<std::string> key_named(const param_value& value) {
    if (!std::holds_alternative<std::string>(value)) return std::nullopt;
    const auto& text = std::get<std::string>(value);
    if (text.size() < 3 || text.front() != '{' || text.back() != '}') return std::nullopt;
    return text.substr(1, text.size() - 2);
}

std::optional<std::string> text_param(const record_set& records, std::size_t i,
                                      std::string_view name) {
    for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
        if (p->name == name && std::holds_alternative<std::string>(p->value))
            return std::get<std::string>(p->value);
    }
    return std::nullopt;
}

bool is_true(const param_value& value) {
    if (std::holds_alternative<bool>(value)) return std::get<bool>(value);
    return std::holds_alternative<std::string>(value) && std::get<std::string>(value) == "true";
}

// A literal remapped onto a subtree's key, as the key's type.
std::optional<param_value> literal_as(const record_set::raw_param& raw, param_type type) {
    const param_value& value = raw.value;
    // A string is read as text where the key is not a string: "4" from a format that wrote
    // XML's text as JSON strings.
    if (!raw.from_text &&
        !(std::holds_alternative<std::string>(value) && type != param_type::string)) {
        if (type_of(value) == type) return value;
        if (type == param_type::number && std::holds_alternative<std::int64_t>(value)) {
            return static_cast<double>(std::get<std::int64_t>(value));
        }
        return std::nullopt;
    }
    const auto& text = std::get<std::string>(value);
    const char* first = text.data();
    const char* last = first + text.size();
    switch (type) {
        case param_type::string: return value;
        case param_type::boolean:
            if (text == "true" || text == "false") return text == "true";
            return std::nullopt;
        case param_type::integer: {
            std::int64_t number = 0;
            auto [end, error] = std::from_chars(first, last, number);
            if (text.empty() || error != std::errc() || end != last) return std::nullopt;
            return number;
        }
        case param_type::number: {
            double number = 0;
            auto [end, error] = std::from_chars(first, last, number);
            if (text.empty() || error != std::errc() || end != last || !std::isfinite(number)) {
                return std::nullopt;
            }
            return number;
        }
        default: return std::nullopt;
    }
}

}  // namespace

std::shared_ptr<const tree> subtree_expander::checked(tree_ref ref) {
    return checked_tree(ref);
}

std::shared_ptr<const tree> subtree_expander::checked_tree(tree_ref ref) {
    auto [at, added] = checked_.try_emplace({ref.file, ref.tree});
    if (!added) return at->second;
    const loaded_file& file = files_.file(ref.file);
    build_options options;
    options.implicit_keys = file.document.implicit_keys || foreign_ != nullptr;
    options.foreign = foreign_;
    options.subtree_placeholders = true;
    load_result built = build_tree(records(ref), registry_, file.name, options);
    out_.insert(out_.end(), built.diagnostics.begin(), built.diagnostics.end());
    if (files_.clean(ref.file)) at->second = std::move(built.tree);
    return at->second;
}

// The state of one expansion.
struct subtree_expander::scope {
    tree_ref ref;
    std::shared_ptr<const tree> checked;
    std::size_t parent;  // index of the enclosing scope; the main tree's is its own
    std::string prefix;  // of the keys private to this use
    bool implicit_keys;
    std::unordered_map<std::string, std::string> names;  // its key -> the whole tree's
};

struct subtree_expander::job {
    std::size_t scope;
    std::int64_t parent_id;   // of the root's record; 0 for the main tree
    source_location used_at;  // the SubTree record, in the user scope's file
};

class subtree_expander::run {
public:
    run(subtree_expander& owner) : owner_(owner) {}

    std::optional<record_set> expand(tree_ref main) {
        std::shared_ptr<const tree> checked = owner_.checked_tree(main);
        if (!checked) return std::nullopt;
        const loaded_file& file = owner_.files_.file(main.file);
        out_.set_name(checked->name());
        scopes_.push_back(
            {main, checked, 0, "", file.document.implicit_keys || owner_.foreign_ != nullptr, {}});
        const std::vector<blackboard_key>& keys = checked->keys();
        for (std::size_t k = 0; k < keys.size(); ++k) {
            if (k < program_keys() && !keys[k].from_file) continue;
            scopes_[0].names[keys[k].name] = keys[k].name;
            declare(keys[k].name, keys[k].type, keys[k].initial);
        }
        // The main tree keeps its ids; subtree nodes are numbered after its largest.
        for (std::size_t i = 0; i < checked->size(); ++i) {
            next_id_ = std::max(next_id_, checked->record_id(static_cast<tree::index>(i)));
        }
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
    std::size_t program_keys() const { return owner_.registry_.keys().size(); }

    void declare(const std::string& name, param_type type,
                 const std::optional<param_value>& initial) {
        if (!declared_.emplace(name).second) return;
        record_set::key_declaration key;
        key.name = name;
        key.type = std::string(to_string(type));
        if (initial) key.initial = record_set::raw_param{name, *initial, {}, false};
        out_.declare_key(std::move(key));
    }

    void report(std::size_t file, source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record) {
        owner_.files_.report(file, where, code, std::move(message), record);
        ok_ = false;
    }

    // Copies one use of a tree (the main tree, or a subtree under its SubTree node).
    void copy(const job& current, std::vector<job>& jobs) {
        const scope& here = scopes_[current.scope];
        const std::shared_ptr<const tree> t = here.checked;
        const bool main = current.parent_id == 0;
        const std::int64_t base = next_id_;
        if (!main) {
            added_ += t->size();
            if (added_ > max_expanded_nodes) {
                report(scopes_[here.parent].ref.file, current.used_at,
                       diagnostic_code::limit_exceeded,
                       "subtrees add more than " + std::to_string(max_expanded_nodes) +
                           " nodes to the tree; Canopy expands no more (is a subtree used "
                           "many times at many levels?)",
                       std::nullopt);
                return;
            }
            next_id_ += static_cast<std::int64_t>(t->size());
            owner_.blocks_.push_back({base, t, here.ref.file});
        }
        auto id_of = [&](tree::index i) { return main ? t->record_id(i) : base + i; };
        const std::vector<blackboard_key>& keys = t->keys();
        auto key_name = [&](std::size_t slot) -> const std::string& {
            if (slot < program_keys()) return keys[slot].name;
            return scopes_[current.scope].names.at(keys[slot].name);
        };
        for (tree::index i = 0; i < t->size(); ++i) {
            const tree::index parent = t->parent(i);
            const std::int64_t parent_id =
                parent == tree::no_parent ? current.parent_id : id_of(parent);
            out_.add(id_of(i), parent_id, t->type_name(i), t->describe(i), t->where(i));
            if (t->type_name(i) == subtree_type_name) {
                use_subtree(current.scope, t->record_id(i), id_of(i), jobs);
                if (!ok_) return;
                continue;
            }
            for (const param& p : t->params(i)) {
                if (p.names_key) {
                    out_.add_param(
                        p.name,
                        key_name(static_cast<std::size_t>(std::get<std::int64_t>(p.value))));
                } else if (p.key != param::no_key) {
                    out_.add_param(p.name, "{" + key_name(p.key) + "}");
                } else if (!p.output) {
                    out_.add_param(p.name, p.value);
                }
            }
        }
    }

    // A SubTree node: its parameters say which tree and how its keys map to the user's.
    void use_subtree(std::size_t user, std::int64_t record_id, std::int64_t out_id,
                     std::vector<job>& jobs) {
        const tree_ref from = scopes_[user].ref;
        std::size_t r = 0;
        while (owner_.records(from).id(r) != record_id) ++r;  // checked: the id is there, once
        const source_location where = owner_.records(from).where(r);
        auto fail = [&](diagnostic_code code, std::string message) {
            report(from.file, where, code, std::move(message), record_id);
        };
        const std::optional<std::string> tree_name = text_param(owner_.records(from), r, "tree");
        const std::optional<std::string> file_name = text_param(owner_.records(from), r, "file");
        if (tree_name) out_.add_param("tree", *tree_name);
        if (file_name) out_.add_param("file", *file_name);
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
            const std::optional<std::size_t> opened = owner_.files_.open(path);
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
        std::shared_ptr<const tree> used = owner_.checked_tree(*target);
        if (!used) {
            ok_ = false;  // its problems are reported where they are
            return;
        }
        const std::size_t index = scopes_.size();
        const std::string label = used->name().empty() ? "subtree" : used->name();
        scopes_.push_back(
            {*target,
             used,
             user,
             label + "#" + std::to_string(++uses_) + "/",
             owner_.files_.file(target->file).document.implicit_keys || owner_.foreign_ != nullptr,
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
        const std::vector<blackboard_key>& keys = scopes_[index].checked->keys();
        bool autoremap = false;
        std::vector<const record_set::raw_param*> remaps;
        for (const auto* p = records.params_begin(r); p != records.params_end(r); ++p) {
            if (p->name == "_autoremap") {
                autoremap = is_true(p->value);
            } else if (p->name != "tree" && p->name != "file") {
                remaps.push_back(p);
            }
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
                if (std::optional<std::string> outer = key_named(given.value)) {
                    name = outer_key(user, *outer, key);
                } else {
                    std::optional<param_value> value = literal_as(given, key.type);
                    if (!value) {
                        report(file, given.where.line != 0 ? given.where : where,
                               diagnostic_code::wrong_param_type,
                               "subtree key '" + key.name + "' is " +
                                   std::string(to_string(key.type)) + ", so '" +
                                   std::string(std::holds_alternative<std::string>(given.value)
                                                   ? std::get<std::string>(given.value)
                                                   : "this value") +
                                   "' cannot be its value",
                               std::nullopt);
                        return;
                    }
                    name = scopes_[index].prefix + key.name;
                    declare(name, key.type, value);
                }
            } else if (autoremap) {
                name = outer_key(user, key.name, key);
            } else {
                name = scopes_[index].prefix + key.name;
                declare(name, key.type, key.initial);
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
        auto found = scopes_[in].names.find(name);
        if (found != scopes_[in].names.end()) return found->second;
        for (std::size_t k = 0; k < program_keys(); ++k) {
            if (owner_.registry_.keys()[k].name == name) return name;
        }
        std::string made = scopes_[in].prefix + name;
        scopes_[in].names[name] = made;
        declare(made, like.type, like.initial);
        return made;
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

    subtree_expander& owner_;
    record_set out_;
    std::vector<scope> scopes_;
    std::unordered_set<std::string> declared_;
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
    if (offset >= static_cast<std::int64_t>(in.origin->size())) return;
    problem.record_id = in.origin->record_id(static_cast<tree::index>(offset));
    problem.path = files_.file(in.file).name;
}

}  // namespace canopy::detail
