// Reads behavior3 JSON (docs/behavior3.md): the classic export (a tree whose `nodes` is a map
// keyed by id, or a project of such trees, or behavior3delphi's `.b3` wrapper), the nested
// form of zhandouxiaojiji/behavior3editor and the behavior3 Lua/TS runtimes (`root` with
// `children`), and `.b3-setting` node definitions.
//
// nlohmann's SAX parser (iterative) fills a flat, located copy of the JSON: one vector of
// values linked by index, so that neither building it, reading it nor freeing it recurses,
// whatever the depth. A classic tree links its nodes by id in any order, and a project's
// subtrees name trees that may come later, so the reader needs the whole text before it can
// make records: a copy with locations is the simplest way to have it.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "canopy/core/dynamic_value.hpp"
#include "core/diagnostic_sink.hpp"
#include "core/json_text.hpp"
#include "core/param_read.hpp"
#include "core/suggest.hpp"
#include "formats/behavior3_names.hpp"
#include "formats/located_json.hpp"
#include "formats/readers.hpp"
#include "formats/text_position.hpp"

namespace canopy::detail {
namespace {

using json = nlohmann::json;
namespace b3 = behavior3;

using json_copy::jvalue;
using json_copy::kind;
using json_copy::kind_name;
using json_copy::no_value;

// ---- reading the copy ---------------------------------------------------------------------

// One argument of a node as the file gives it.
struct arg_entry {
    std::string_view name;
    std::uint32_t value;
    source_location where;  // its key
};

// A variable wired to an input or output slot ("" for a slot left unwired).
struct slot_entry {
    std::string_view name;
    source_location where;
};

class behavior3_reader {
public:
    behavior3_reader(std::string_view text, const std::string& path, read_result& result,
                     const std::vector<subtree_override>& overrides)
        : text_(text),
          path_(path),
          result_(result),
          sink_(path_, result_.diagnostics),
          overrides_(overrides) {}

    void run() {
        result_.complete = json_copy::copy_json(text_, values_, sink_);
        if (!result_.complete || values_.empty()) return;
        copy_patches();
        read_top(0);
        add_builtin_models();
        // A file refused before any tree still gives one, empty, as the flat reader does: the
        // loader builds a document's trees and expects one.
        if (result_.document.trees.empty() && !result_.diagnostics.empty()) new_tree({});
    }

private:
    // ---- the changes a using tree makes to this file's nodes ----

    // Each override's patch joins the located copy, after the file's own values, so that a
    // node reads it as it reads its own fields. The patches come checked from the using
    // tree's reader (read_overrides), as JSON text it wrote.
    void copy_patches() {
        for (const subtree_override& change : overrides_) {
            const auto start = static_cast<std::uint32_t>(values_.size());
            std::vector<diagnostic> ignored;
            diagnostic_sink sink(path_, ignored);
            const bool complete = json_copy::copy_json(change.patch, values_, sink);
            if (!complete || values_.size() == start || at(start).type != kind::object) {
                values_.resize(start);
                continue;
            }
            patches_[change.node].push_back({start, static_cast<std::uint32_t>(values_.size())});
        }
    }

    // A changed value is reported at the node it changes: its text is in another file.
    void locate_patch(std::pair<std::uint32_t, std::uint32_t> patch, source_location where) {
        for (std::uint32_t i = patch.first; i < patch.second; ++i) {
            values_[i].where = where;
            values_[i].key_where = where;
        }
    }

    // ---- helpers ----

    const jvalue& at(std::uint32_t index) const { return values_[index]; }

    void report(source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record_id = std::nullopt) {
        sink_.report(where, code, std::move(message), record_id);
    }

    // The members of an object by name. A name the format does not know, or one given twice,
    // is reported; `what` names the object in messages ("a node").
    class members {
    public:
        std::uint32_t operator[](std::string_view name) const {
            for (const auto& [key, value] : found_) {
                if (key == name) return value;
            }
            return no_value;
        }
        std::vector<std::pair<std::string_view, std::uint32_t>> found_;
    };

    members read_members(std::uint32_t object, std::initializer_list<std::string_view> known,
                         std::string_view what) {
        members m;
        for (std::uint32_t i = at(object).first; i != no_value; i = at(i).next) {
            const jvalue& member = at(i);
            if (std::find(known.begin(), known.end(), member.key) == known.end()) {
                report(member.key_where, diagnostic_code::unknown_field,
                       "unknown key '" + member.key + "' in " + std::string(what) +
                           did_you_mean(member.key, std::vector<std::string_view>(known)));
                continue;
            }
            if (m[member.key] != no_value) {
                report(member.key_where, diagnostic_code::duplicate_field,
                       "key '" + member.key + "' appears twice in " + std::string(what));
                continue;
            }
            m.found_.emplace_back(member.key, i);
        }
        return m;
    }

    void wrong_type(std::uint32_t value, std::string_view field, std::string_view expected) {
        report(at(value).where, diagnostic_code::wrong_field_type,
               "'" + std::string(field) + "' must be " + std::string(expected) + ", not " +
                   std::string(kind_name(at(value))));
    }

    // A text field: a string, or null and absent for none. Reports anything else.
    std::string_view text_field(std::uint32_t value, std::string_view field) {
        if (value == no_value || at(value).type == kind::null) return {};
        if (at(value).type == kind::string) return at(value).text;
        wrong_type(value, field, "a string");
        return {};
    }

    bool boolean_field(std::uint32_t value, std::string_view field) {
        if (value == no_value || at(value).type == kind::null) return false;
        if (at(value).type == kind::boolean) return at(value).boolean;
        wrong_type(value, field, "true or false");
        return false;
    }

    bool is_object(std::uint32_t value, std::string_view field) {
        if (value == no_value) return false;
        if (at(value).type == kind::object) return true;
        wrong_type(value, field, "an object");
        return false;
    }

    bool is_array(std::uint32_t value, std::string_view field) {
        if (value == no_value) return false;
        if (at(value).type == kind::array) return true;
        wrong_type(value, field, "an array");
        return false;
    }

    // `input` or `output`: an array of variable names, "" (or null) for a slot not wired.
    std::vector<slot_entry> slots(std::uint32_t value, std::string_view field) {
        std::vector<slot_entry> out;
        if (value == no_value || at(value).type == kind::null || !is_array(value, field))
            return out;
        for (std::uint32_t i = at(value).first; i != no_value; i = at(i).next) {
            if (at(i).type == kind::string) {
                out.push_back({at(i).text, at(i).where});
            } else if (at(i).type == kind::null) {
                out.push_back({{}, at(i).where});
            } else {
                report(at(i).where, diagnostic_code::wrong_field_type,
                       "each '" + std::string(field) + "' entry must be a variable name, not " +
                           std::string(kind_name(at(i))));
                out.push_back({{}, at(i).where});
            }
        }
        return out;
    }

    // An argument that lists variables (node_rule::variables_arg): a parameter wired to each,
    // named after the argument and the variable's place from 1.
    void wire_variables(const arg_entry& a, std::vector<record_set::raw_param>& params,
                        std::optional<std::int64_t> record_id) {
        const std::string field(a.name);
        if (at(a.value).type == kind::null || !is_array(a.value, field)) return;
        int place = 0;
        for (std::uint32_t i = at(a.value).first; i != no_value; i = at(i).next) {
            ++place;
            if (at(i).type != kind::string || at(i).text.empty()) {
                report(at(i).where, diagnostic_code::wrong_param_type,
                       "argument '" + field + "' lists variable names; entry " +
                           std::to_string(place) + " is " + std::string(kind_name(at(i))),
                       record_id);
                continue;
            }
            params.emplace_back(field + std::to_string(place), "{" + at(i).text + "}", at(i).where,
                                false);
        }
    }

    // The arguments of a node: an object of values, in file order.
    void collect_args(std::uint32_t value, std::string_view field, std::vector<arg_entry>& out) {
        if (value == no_value || at(value).type == kind::null || !is_object(value, field)) return;
        for (std::uint32_t i = at(value).first; i != no_value; i = at(i).next) {
            auto same = [&](const arg_entry& a) { return a.name == at(i).key; };
            if (std::find_if(out.begin(), out.end(), same) != out.end()) {
                report(at(i).key_where, diagnostic_code::duplicate_field,
                       "argument '" + at(i).key + "' appears twice in one node");
                continue;
            }
            out.push_back({at(i).key, i, at(i).key_where});
        }
    }

    // A JSON value as Canopy's parameter value: numbers, strings and booleans only.
    std::optional<param_value> scalar(std::uint32_t value, std::string_view name,
                                      std::optional<std::int64_t> record_id) {
        const jvalue& v = at(value);
        switch (v.type) {
            case kind::boolean: return v.boolean;
            case kind::integer: return v.integer;
            case kind::number:
                if (!v.big_integer) return v.number;
                break;
            case kind::string: return v.text;
            case kind::array:
            case kind::object:
                // As its JSON text, which the writer writes back as the array or object
                // (docs/behavior3.md).
                return json_text(value);
            default: break;
        }
        report(v.where, diagnostic_code::wrong_param_type,
               "argument '" + std::string(name) +
                   "' must be a number, a string or a boolean, not " + std::string(kind_name(v)),
               record_id);
        return std::nullopt;
    }

    // JSON text of a value (a model's default).
    std::string json_text(std::uint32_t value) const {
        return json_copy::json_text(values_, value);
    }

    record_set& new_tree(std::string name) {
        result_.document.trees.emplace_back();
        result_.document.trees.back().set_name(std::move(name));
        return result_.document.trees.back();
    }

    // ---- the top level ----

    void read_top(std::uint32_t top) {
        const jvalue& v = at(top);
        if (v.type == kind::array) {
            read_settings(top);
            return;
        }
        if (v.type != kind::object) {
            report(v.where, diagnostic_code::unexpected_element,
                   "a behavior3 file must be a JSON object (a tree or a project) or an array of "
                   "node definitions, not " +
                       std::string(kind_name(v)));
            return;
        }
        read_object(top);
    }

    // A tree, a project, or the `.b3` wrapper around one.
    void read_object(std::uint32_t object, bool wrapped = false) {
        auto has = [&](std::string_view name) {
            for (std::uint32_t i = at(object).first; i != no_value; i = at(i).next) {
                if (at(i).key == name) return i;
            }
            return no_value;
        };
        const std::uint32_t root = has("root");
        const std::uint32_t nodes = has("nodes");
        if (has("trees") != no_value) {
            read_classic_project(object);
        } else if (root != no_value && at(root).type == kind::object) {
            read_nested_tree(object);
        } else if (root != no_value || nodes != no_value) {
            classic_tree_names_.clear();
            read_classic_trees({object});
        } else if (const std::uint32_t data = has("data");
                   !wrapped && data != no_value && at(data).type == kind::object) {
            // behavior3delphi's .b3: {"name", "description", "data": {...}, "path"}; one level
            // only, so that this recursion is bounded.
            read_members(object, {"name", "description", "data", "path"}, "the .b3 file object");
            read_object(data, true);
        } else if (has("files") != no_value) {
            report(at(object).where, diagnostic_code::unexpected_element,
                   "this is a behavior3editor workspace, which lists tree files and holds no "
                   "tree; open one of the files it lists");
        } else {
            report(at(object).where, diagnostic_code::missing_field,
                   "a behavior3 tree needs a 'root' (a node object, or the id of one of its "
                   "'nodes'), and a project its 'trees'");
        }
    }

    // ---- the classic flavour ----

    // {"scope": "project", "trees": [...], "custom_nodes": [...]}
    void read_classic_project(std::uint32_t object) {
        members m = read_members(
            object,
            {"version", "scope", "selectedTree", "trees", "custom_nodes", "custom_folders",
             "display", "name", "description", "path", "id", "title"},
            "a behavior3 project");
        read_custom_nodes(m["custom_nodes"]);
        // The editor's folders for its palette and tree list: nothing that runs.
        if (const std::uint32_t folders = m["custom_folders"];
            folders != no_value && at(folders).type != kind::null) {
            is_array(folders, "custom_folders");
        }
        const std::uint32_t trees = m["trees"];
        if (!is_array(trees, "trees")) return;
        std::vector<std::uint32_t> tree_objects;
        for (std::uint32_t i = at(trees).first; i != no_value; i = at(i).next) {
            if (at(i).type != kind::object) {
                report(at(i).where, diagnostic_code::unexpected_element,
                       "each of a project's 'trees' must be a tree object, not " +
                           std::string(kind_name(at(i))));
                continue;
            }
            // A tree the editor made and left empty (no root, no nodes) holds nothing to run:
            // left out of a project that has others, remembered for a node that uses it.
            if (at(trees).size > 1 && empty_tree(i)) {
                for (std::uint32_t k = at(i).first; k != no_value; k = at(k).next) {
                    if (at(k).key == "id" && at(k).type == kind::string)
                        empty_trees_.insert(at(k).text);
                }
                continue;
            }
            tree_objects.push_back(i);
        }
        read_classic_trees(tree_objects);
    }

    // A tree whose root names nothing and whose `nodes` are empty or absent.
    bool empty_tree(std::uint32_t tree) const {
        for (std::uint32_t i = at(tree).first; i != no_value; i = at(i).next) {
            const jvalue& v = at(i);
            if (v.key == "root" &&
                !(v.type == kind::null || (v.type == kind::string && v.text.empty())))
                return false;
            if (v.key == "nodes" &&
                !(v.type == kind::null || (v.type == kind::object && v.size == 0)))
                return false;
        }
        return true;
    }

    // Names every tree (titles, made unique), then reads them: a node may use a tree that
    // comes later as its subtree.
    void read_classic_trees(const std::vector<std::uint32_t>& trees) {
        result_.document.implicit_keys = true;
        result_.document.canopy_names = false;
        result_.document.words = &b3::classic_words;
        std::unordered_set<std::string> taken;
        std::vector<std::string> names;
        for (std::size_t t = 0; t < trees.size(); ++t) {
            std::string_view id;
            std::string_view title;
            for (std::uint32_t i = at(trees[t]).first; i != no_value; i = at(i).next) {
                if (at(i).type != kind::string) continue;
                if (at(i).key == "id") id = at(i).text;
                if (at(i).key == "title") title = at(i).text;
            }
            // The title, as the editor shows it; else the id; a title used already gets its
            // id (or its position) after it.
            std::string name(title.empty() ? id : title);
            if (name.empty()) name = "Tree " + std::to_string(t + 1);
            if (taken.count(name) != 0) {
                name += " (" +
                        (id.empty() || id == name ? std::to_string(t + 1) : std::string(id)) + ")";
                while (taken.count(name) != 0) name += "'";
            }
            taken.insert(name);
            if (!id.empty()) classic_tree_names_.emplace(std::string(id), name);
            names.push_back(name);
        }
        for (const std::uint32_t tree : trees) find_programs_own(tree);
        for (std::size_t t = 0; t < trees.size(); ++t) read_classic_tree(trees[t], names[t]);
        choose_classic_main_tree();
        for (std::size_t t = 0; t < trees.size(); ++t) {
            if (names[t] == result_.document.main_tree) {
                result_.document.main_tree_where = at(trees[t]).where;
            }
        }
    }

    // The main tree: the only one, else the only one no other tree uses as a subtree. A
    // project of several top-level trees names none (the editor's `selectedTree` is only the
    // one it last showed).
    void choose_classic_main_tree() {
        tree_document& doc = result_.document;
        if (doc.trees.size() == 1) {
            doc.main_tree = doc.trees.front().name();
            return;
        }
        std::string only;
        int candidates = 0;
        for (const record_set& tree : doc.trees) {
            if (used_as_subtree_.count(tree.name()) == 0) {
                only = tree.name();
                ++candidates;
            }
        }
        if (candidates == 1) doc.main_tree = only;
    }

    // A name of behavior3js's whose nodes in this file take properties its node does not (a
    // Wait with `time`, where behavior3js's takes `milliseconds`) names the program's own
    // node: each of its nodes is kept as written, for lenient loading to learn and the writer
    // to give back, none mapped to Canopy's.
    void find_programs_own(std::uint32_t tree) {
        if (at(tree).type != kind::object) return;
        for (std::uint32_t m = at(tree).first; m != no_value; m = at(m).next) {
            if (at(m).key != "nodes" || at(m).type != kind::object) continue;
            for (std::uint32_t node = at(m).first; node != no_value; node = at(node).next) {
                if (at(node).type != kind::object) continue;
                std::string_view name;
                std::vector<std::uint32_t> arguments;  // the properties and parameters objects
                for (std::uint32_t f = at(node).first; f != no_value; f = at(f).next) {
                    if (at(f).key == "name" && at(f).type == kind::string) name = at(f).text;
                    if ((at(f).key == "properties" || at(f).key == "parameters") &&
                        at(f).type == kind::object)
                        arguments.push_back(f);
                }
                const b3::node_rule* rule = b3::find_rule(b3::flavour::classic, name);
                if (rule == nullptr || rule->arg.arg.empty()) continue;
                bool fits = true;
                for (const std::uint32_t f : arguments) {
                    for (std::uint32_t p = at(f).first; p != no_value; p = at(p).next) {
                        const std::string_view arg = at(p).key;
                        fits = fits && (arg == rule->arg.arg || arg == rule->dropped_arg ||
                                        arg == rule->variables_arg);
                    }
                }
                if (!fits) programs_own_.emplace(name);
            }
        }
    }

    void read_classic_tree(std::uint32_t object, const std::string& name) {
        members m =
            read_members(object,
                         {"version", "scope", "id", "title", "description", "root", "properties",
                          "nodes", "display", "custom_nodes", "custom_folders", "parent"},
                         "a behavior3 tree");
        read_custom_nodes(m["custom_nodes"]);
        record_set& records = new_tree(name);
        const std::uint32_t nodes = m["nodes"];
        const std::uint32_t root = m["root"];
        if (nodes == no_value) {
            report(at(object).where, diagnostic_code::missing_field,
                   "tree '" + name + "' has no 'nodes' object");
            return;
        }
        if (!is_object(nodes, "nodes")) return;
        std::unordered_map<std::string_view, std::uint32_t> by_id;
        for (std::uint32_t i = at(nodes).first; i != no_value; i = at(i).next) {
            if (!by_id.emplace(at(i).key, i).second) {
                report(at(i).key_where, diagnostic_code::duplicate_id,
                       "node id '" + at(i).key + "' appears twice in 'nodes'");
            }
        }
        std::string_view root_id = text_field(root, "root");
        if (root_id.empty()) {
            report(root == no_value ? at(object).where : at(root).where, diagnostic_code::no_root,
                   "tree '" + name + "' has no root: 'root' must name one of its 'nodes'");
            return;
        }
        auto found_root = by_id.find(root_id);
        if (found_root == by_id.end()) {
            report(at(root).where, diagnostic_code::no_root,
                   "root '" + std::string(root_id) + "' of tree '" + name +
                       "' names none of its 'nodes'");
            return;
        }
        // Preorder from the root, ids 1..n; nodes no one reaches are left out (the editor
        // exports nodes left unconnected on its canvas; behavior3js never runs them).
        struct pending {
            std::uint32_t node;
            std::int64_t parent;
        };
        std::vector<pending> todo{{found_root->second, 0}};
        std::unordered_map<std::uint32_t, std::int64_t> seen;  // node object -> record id
        std::vector<std::int64_t> parent_of{0};                // record id -> parent id
        while (!todo.empty()) {
            const pending p = todo.back();
            todo.pop_back();
            if (at(p.node).type != kind::object) {
                report(at(p.node).where, diagnostic_code::unexpected_element,
                       "node '" + at(p.node).key + "' must be an object, not " +
                           std::string(kind_name(at(p.node))));
                continue;
            }
            const auto id = static_cast<std::int64_t>(parent_of.size());
            if (!seen.emplace(p.node, id).second) {
                report_revisit(p, seen.at(p.node), parent_of);
                continue;
            }
            parent_of.push_back(p.parent);
            std::vector<std::uint32_t> children = read_classic_node(p.node, id, p.parent, records);
            for (auto it = children.rbegin(); it != children.rend(); ++it) {
                auto child = by_id.find(at(*it).text);
                if (child == by_id.end()) {
                    report(at(*it).where, diagnostic_code::unknown_parent,
                           "child '" + at(*it).text + "' of node '" + at(p.node).key +
                               "' names none of the tree's 'nodes'",
                           id);
                    continue;
                }
                todo.push_back({child->second, id});
            }
        }
    }

    template <typename Pending>
    void report_revisit(const Pending& p, std::int64_t first_id,
                        const std::vector<std::int64_t>& parent_of) {
        for (std::int64_t up = p.parent; up != 0; up = parent_of[static_cast<std::size_t>(up)]) {
            if (up == first_id) {
                report(at(p.node).key_where, diagnostic_code::parent_cycle,
                       "node '" + at(p.node).key +
                           "' is its own descendant: its children lead back to it",
                       first_id);
                return;
            }
        }
        report(at(p.node).key_where, diagnostic_code::duplicate_id,
               "node '" + at(p.node).key +
                   "' is the child of two nodes (or listed twice); a node has one parent",
               first_id);
    }

    // Adds the record of one classic node and returns its child id values, in order.
    std::vector<std::uint32_t> read_classic_node(std::uint32_t node, std::int64_t id,
                                                 std::int64_t parent, record_set& records) {
        const std::string what = "node '" + at(node).key + "'";
        members m = read_members(node,
                                 {"id", "name", "title", "description", "properties", "parameters",
                                  "display", "children", "child", "category"},
                                 what);
        const std::uint32_t name_value = m["name"];
        const std::string_view name = text_field(name_value, "name");
        const std::string_view title = text_field(m["title"], "title");
        const std::string_view description = text_field(m["description"], "description");
        const std::string_view category = text_field(m["category"], "category");
        // The title, which the editor shows, unless it only repeats the name; else the
        // description.
        const std::string_view describe = !title.empty() && title != name ? title : description;
        std::vector<arg_entry> args;
        collect_args(m["parameters"], "parameters", args);  // behavior3js 0.1
        collect_args(m["properties"], "properties", args);

        std::vector<std::uint32_t> children;
        const std::uint32_t list = m["children"];
        const std::uint32_t single = m["child"];
        const bool has_list = list != no_value && at(list).type == kind::array && at(list).size > 0;
        const bool has_single = single != no_value && at(single).type == kind::string;
        if (has_list && has_single) {
            report(at(single).key_where, diagnostic_code::duplicate_field,
                   what + " has both 'child' and 'children'", id);
        }
        if (list != no_value && at(list).type != kind::null && is_array(list, "children")) {
            for (std::uint32_t c = at(list).first; c != no_value; c = at(c).next) {
                if (at(c).type == kind::string) {
                    children.push_back(c);
                } else {
                    report(at(c).where, diagnostic_code::wrong_field_type,
                           "each child must be a node id, not " + std::string(kind_name(at(c))),
                           id);
                }
            }
        }
        if (single != no_value && at(single).type != kind::null) {
            if (at(single).type == kind::string) {
                if (!at(single).text.empty()) children.push_back(single);
            } else {
                wrong_type(single, "child", "a node id");
            }
        }
        auto subtree = classic_tree_names_.find(std::string(name));
        if (subtree != classic_tree_names_.end()) {
            records.add(id, parent, "SubTree", describe, at(node).where);
            records.set_written_type(name);
            add_unwritten(records, "tree", subtree->second, at(name_value).where);
            add_unwritten(records, "_autoremap", true, at(name_value).where);
            used_as_subtree_.insert(subtree->second);
            if (!args.empty()) {
                report(args.front().where, diagnostic_code::unsupported_feature,
                       "a subtree node takes no properties: the subtree shares its parent's "
                       "blackboard",
                       id);
            }
        } else {
            if (name_value == no_value) {
                report(at(node).where, diagnostic_code::missing_field, what + " has no 'name'", id);
            } else if (name.empty() &&
                       (at(name_value).type == kind::string || at(name_value).type == kind::null)) {
                report(at(name_value).where, diagnostic_code::missing_field,
                       what + "'s 'name' is empty: it names no node type", id);
            } else if (empty_trees_.count(std::string(name)) != 0) {
                report(at(name_value).where, diagnostic_code::no_root,
                       "subtree '" + std::string(name) +
                           "' is a tree of this project that is empty: its 'root' names no node",
                       id);
            } else if (category == "tree") {
                report(at(name_value).where, diagnostic_code::unknown_tree,
                       "subtree '" + std::string(name) + "' names no tree of this project", id);
            } else if (name == b3::escape_prefix) {
                report(at(name_value).where, diagnostic_code::unknown_type,
                       what + "'s 'name' is '" + std::string(name) +
                           "' and nothing after it: it names no node type",
                       id);
            }
            add_mapped(b3::flavour::classic, name, describe, at(node).where, id, parent, args, {},
                       {}, children.empty(), records);
            if (name.empty() || name == b3::escape_prefix)
                records.mark_problem(record_set::bad_type);
        }

        return children;
    }

    // custom_nodes: [{"name", "category", "title", "description", "properties"}]
    void read_custom_nodes(std::uint32_t list) {
        if (list == no_value || !is_array(list, "custom_nodes")) return;
        for (std::uint32_t i = at(list).first; i != no_value; i = at(i).next) {
            if (at(i).type != kind::object) {
                report(at(i).where, diagnostic_code::unexpected_element,
                       "a custom node must be an object, not " + std::string(kind_name(at(i))));
                continue;
            }
            members m = read_members(i,
                                     {"version", "scope", "name", "category", "title",
                                      "description", "properties", "parameters", "parent"},
                                     "a custom node");
            node_model model;
            model.name = std::string(text_field(m["name"], "name"));
            model.where = at(i).where;
            const std::string_view category = text_field(m["category"], "category");
            if (category == "composite") model.shape = arity::composite;
            if (category == "decorator") model.shape = arity::decorator;
            if (category == "action" || category == "condition") model.shape = arity::leaf;
            const std::string_view description = text_field(m["description"], "description");
            model.description =
                std::string(description.empty() ? text_field(m["title"], "title") : description);
            for (std::string_view field : {"parameters", "properties"}) {
                const std::uint32_t props = m[field];
                if (props == no_value || at(props).type == kind::null || !is_object(props, field)) {
                    continue;
                }
                for (std::uint32_t p = at(props).first; p != no_value; p = at(p).next) {
                    port_model port;
                    port.name = at(p).key;
                    if (at(p).type == kind::string) {
                        port.default_value = at(p).text;
                    } else if (at(p).type != kind::null) {
                        port.default_value = json_text(p);
                    }
                    model.ports.push_back(std::move(port));
                }
            }
            if (model.name.empty()) {
                report(at(i).where, diagnostic_code::missing_field, "a custom node has no 'name'");
                continue;
            }
            result_.document.models.push_back(std::move(model));
        }
    }

    // ---- the nested flavour ----

    struct nested_node {
        std::uint32_t node = no_value;
        std::size_t parent = no_value;  // index in the list, or none for the root
        std::uint32_t id = no_value;
        std::uint32_t uuid = no_value;
        std::uint32_t name = no_value;
        std::uint32_t desc = no_value;
        std::uint32_t args = no_value;
        std::vector<std::uint32_t> changed_args;  // the overrides' `args`, in order
        std::uint32_t input = no_value;
        std::uint32_t output = no_value;
        std::uint32_t path = no_value;
    };

    void read_nested_tree(std::uint32_t object) {
        members m = read_members(
            object,
            {"name", "desc", "root", "vars", "declvar", "import", "export", "firstid", "group",
             "version", "custom", "$id", "$override", "prefix", "variables", "overrides"},
            "a behavior3 tree");
        result_.document.implicit_keys = true;
        result_.document.rules = runtime_rules::behavior3;  // JavaScript's values
        result_.document.canopy_names = false;
        result_.document.words = &b3::nested_words;
        result_.document.subtree_paths = tree_document::path_base::workspace;
        std::string name(text_field(m["name"], "name"));
        if (name.empty()) {
            // behavior3editor names a tree after its file.
            const std::size_t slash = path_.find_last_of("/\\");
            name = path_.substr(slash == std::string::npos ? 0 : slash + 1);
            if (const std::size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) {
                name.erase(dot);
            }
            if (name.empty()) name = "MainTree";
        }
        record_set& records = new_tree(name);
        result_.document.main_tree = name;
        result_.document.main_tree_where =
            m["name"] != no_value ? at(m["name"]).where : at(object).where;
        text_field(m["desc"], "desc");
        read_overrides(m["$override"], "$override");  // behavior3editor 2.0
        read_overrides(m["overrides"], "overrides");  // 2.2 and vscode-behavior3
        read_vars(m["vars"], records);
        read_vars(m["declvar"], records);  // behavior3editor 1.8's name for them
        read_imports(m["import"], "import");
        if (const std::uint32_t variables = m["variables"]; variables != no_value &&
                                                            at(variables).type != kind::null &&
                                                            is_object(variables, "variables")) {
            // 2.x: {"imports": [files of declarations], "locals": [the tree's own]}.
            members v = read_members(variables, {"imports", "locals"}, "'variables'");
            read_imports(v["imports"], "imports");
            read_vars(v["locals"], records);
        }
        const std::uint32_t root = m["root"];
        if (!is_object(root, "root")) return;

        // Pass 1: the nodes that run, in preorder (a disabled node is left out with
        // everything below it, as the runtimes do; a subtree's cached children are not read).
        std::vector<nested_node> list;
        std::vector<std::pair<std::uint32_t, std::size_t>> todo{{root, no_value}};
        while (!todo.empty()) {
            const auto [node, parent] = todo.back();
            todo.pop_back();
            if (at(node).type != kind::object) {
                report(at(node).where, diagnostic_code::unexpected_element,
                       "a child must be a node object, not " + std::string(kind_name(at(node))));
                continue;
            }
            members n = read_members(node,
                                     {"id", "$id", "uuid", "name", "desc", "args", "input",
                                      "output", "children", "path", "debug", "disabled"},
                                     "a node");
            boolean_field(n["debug"], "debug");  // logging only
            nested_node entry;
            entry.node = node;
            entry.parent = parent;
            entry.id = n["id"];
            // What overrides name it by: its uuid (2.2, vscode-behavior3), else its `$id`
            // (2.0's `$override`).
            entry.uuid = n["uuid"];
            if (entry.uuid == no_value && n["$id"] != no_value && at(n["$id"]).type == kind::string)
                entry.uuid = n["$id"];
            entry.name = n["name"];
            entry.desc = n["desc"];
            entry.args = n["args"];
            entry.input = n["input"];
            entry.output = n["output"];
            bool disabled = boolean_field(n["disabled"], "disabled");
            // A using tree's overrides, as behavior3editor applies them: each field given
            // replaces the node's, and `args` replace the node's one by one.
            const std::string_view uuid = text_field(entry.uuid, "uuid");
            if (auto changes = patches_.empty() || uuid.empty() ? patches_.end()
                                                                : patches_.find(std::string(uuid));
                changes != patches_.end()) {
                for (const auto& patch : changes->second) {
                    locate_patch(patch, at(node).where);
                    members p = read_members(
                        patch.first, {"desc", "args", "input", "output", "debug", "disabled"},
                        "an override");
                    if (p["desc"] != no_value) entry.desc = p["desc"];
                    if (p["input"] != no_value) entry.input = p["input"];
                    if (p["output"] != no_value) entry.output = p["output"];
                    if (p["args"] != no_value) entry.changed_args.push_back(p["args"]);
                    if (p["disabled"] != no_value)
                        disabled = boolean_field(p["disabled"], "disabled");
                }
            }
            if (disabled && parent != no_value) continue;
            if (!text_field(n["path"], "path").empty()) entry.path = n["path"];
            const std::size_t index = list.size();
            list.push_back(entry);
            const std::uint32_t children = n["children"];
            if (entry.path != no_value || children == no_value || at(children).type == kind::null ||
                !is_array(children, "children")) {
                continue;
            }
            std::vector<std::uint32_t> kids;
            for (std::uint32_t c = at(children).first; c != no_value; c = at(c).next)
                kids.push_back(c);
            for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.emplace_back(*it, index);
        }

        // The file's ids when they are all there, whole numbers (2.x writes them as strings),
        // non-zero and unique; else 1..n. Kept, they keep the gaps the editor leaves for the
        // nodes of subtrees.
        std::vector<std::int64_t> ids(list.size());
        bool own_ids = true;
        std::unordered_set<std::int64_t> taken;
        for (std::size_t i = 0; i < list.size() && own_ids; ++i) {
            const std::optional<std::int64_t> id = node_id(list[i].id);
            own_ids = id && *id != 0 && taken.insert(*id).second;
            if (own_ids) ids[i] = *id;
        }
        // Children that run: a disabled child is left out above, as the runtimes leave it.
        std::vector<std::size_t> child_count(list.size(), 0);
        for (const nested_node& n : list) {
            if (n.parent != no_value) ++child_count[n.parent];
        }
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!own_ids) ids[i] = static_cast<std::int64_t>(i) + 1;
            const nested_node& n = list[i];
            const std::int64_t parent = n.parent == no_value ? 0 : ids[n.parent];
            const std::string_view describe = text_field(n.desc, "desc");
            if (n.path != no_value) {
                records.add(ids[i], parent, "SubTree", describe, at(n.node).where);
                if (n.name != no_value && at(n.name).type == kind::string)
                    records.set_written_type(at(n.name).text);
                record_set::raw_param file{"file", at(n.path).text, at(n.path).where};
                file.write_as("path");
                records.add_param(std::move(file));
                add_unwritten(records, "_autoremap", true, at(n.path).where);
                keep_uuid(n, records);
                continue;
            }
            std::vector<arg_entry> args;
            collect_args(n.args, "args", args);
            for (std::uint32_t changed : n.changed_args) {
                std::vector<arg_entry> changes;
                collect_args(changed, "args", changes);
                for (const arg_entry& change : changes) {
                    auto same = std::find_if(args.begin(), args.end(), [&](const arg_entry& a) {
                        return a.name == change.name;
                    });
                    if (same != args.end()) {
                        *same = change;
                    } else {
                        args.push_back(change);
                    }
                }
            }
            const std::string_view type = text_field(n.name, "name");
            if (n.name == no_value) {
                report(at(n.node).where, diagnostic_code::missing_field, "a node has no 'name'",
                       ids[i]);
            } else if (type.empty() &&
                       (at(n.name).type == kind::string || at(n.name).type == kind::null)) {
                // text_field reported the other kinds.
                report(at(n.name).where, diagnostic_code::missing_field,
                       "a node's 'name' is empty: it names no node type", ids[i]);
            } else if (type == b3::escape_prefix) {
                report(at(n.name).where, diagnostic_code::unknown_type,
                       "a node's 'name' is '" + std::string(type) +
                           "' and nothing after it: it names no node type",
                       ids[i]);
            }
            add_mapped(b3::flavour::nested, type, describe, at(n.node).where, ids[i], parent, args,
                       slots(n.input, "input"), slots(n.output, "output"), child_count[i] == 0,
                       records);
            if (type.empty() || type == b3::escape_prefix)
                records.mark_problem(record_set::bad_type);
            keep_uuid(n, records);
        }
    }

    // As editor metadata: the writer writes it back, so overrides keep naming the node.
    // A parameter the reader adds that the file does not write.
    static void add_unwritten(record_set& records, std::string name, param_value value,
                              source_location where) {
        record_set::raw_param p{std::move(name), std::move(value), where, false};
        p.unwritten = true;
        records.add_param(std::move(p));
    }

    void keep_uuid(const nested_node& n, record_set& records) const {
        if (n.uuid != no_value && at(n.uuid).type == kind::string && !at(n.uuid).text.empty())
            records.add_metadata(std::string(uuid_metadata), at(n.uuid).text);
    }

    // A node's id as a number: an integer, or a string of decimal digits ("12").
    std::optional<std::int64_t> node_id(std::uint32_t id) const {
        if (id == no_value) return std::nullopt;
        if (at(id).type == kind::integer) return at(id).integer;
        const std::string& text = at(id).text;
        if (at(id).type != kind::string || text.empty() || text.size() > 18 ||
            (text.size() > 1 && text[0] == '0') ||
            !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            return std::nullopt;
        }
        return std::stoll(text);
    }

    // Files of variable declarations, named from the workspace root. Their variables have no
    // type (implicit_keys makes them on first use), so only their shape is checked.
    void read_imports(std::uint32_t imports, std::string_view field) {
        if (imports == no_value || at(imports).type == kind::null || !is_array(imports, field))
            return;
        for (std::uint32_t i = at(imports).first; i != no_value; i = at(i).next) {
            if (at(i).type != kind::string) {
                report(at(i).where, diagnostic_code::wrong_field_type,
                       "each of '" + std::string(field) + "' must be a file path, not " +
                           std::string(kind_name(at(i))));
            }
        }
    }

    // {"<uuid>": {"args": {...}, "input": [...], ...}}: changes to nodes of the subtree files
    // this tree uses, by the uuid they have there, for this tree's uses only. Checked here,
    // where they are written; the loader hands them to the subtree files' reader.
    void read_overrides(std::uint32_t overrides, std::string_view field) {
        if (overrides == no_value || at(overrides).type == kind::null ||
            !is_object(overrides, field)) {
            return;
        }
        for (std::uint32_t i = at(overrides).first; i != no_value; i = at(i).next) {
            if (at(i).key.empty()) {
                report(at(i).key_where, diagnostic_code::missing_field,
                       "an entry of '" + std::string(field) +
                           "' has an empty uuid: it changes no node");
                continue;
            }
            if (!is_object(i, "an override")) continue;
            members p = read_members(i, {"desc", "args", "input", "output", "debug", "disabled"},
                                     "an override");
            // The patch keeps the fields of the right kind only, so that what is wrong here
            // is reported here, once.
            std::string patch;
            auto keep = [&](std::string_view name, auto check) {
                const std::uint32_t value = p[name];
                const std::size_t problems = result_.diagnostics.size();
                check(value);
                if (value == no_value || at(value).type == kind::null ||
                    result_.diagnostics.size() != problems) {
                    return;
                }
                patch += patch.empty() ? "{\"" : ",\"";
                patch.append(name).append("\":").append(json_text(value));
            };
            keep("desc", [&](std::uint32_t v) { text_field(v, "desc"); });
            keep("input", [&](std::uint32_t v) { slots(v, "input"); });
            keep("output", [&](std::uint32_t v) { slots(v, "output"); });
            keep("disabled", [&](std::uint32_t v) { boolean_field(v, "disabled"); });
            keep("args", [&](std::uint32_t v) {
                if (v != no_value && at(v).type != kind::null) is_object(v, "args");
            });
            boolean_field(p["debug"], "debug");  // logging only
            if (patch.empty()) patch = "{";
            result_.document.overrides.push_back({at(i).key, patch + "}", at(i).key_where});
        }
    }

    // vars: [{"name", "desc"}], plus the "type" and "default" Canopy's writer adds so that
    // a declared key survives a round trip. A variable without a type is left undeclared:
    // behavior3's blackboard makes it when it is first written (implicit_keys).
    void read_vars(std::uint32_t vars, record_set& records) {
        if (vars == no_value || at(vars).type == kind::null || !is_array(vars, "vars")) return;
        for (std::uint32_t i = at(vars).first; i != no_value; i = at(i).next) {
            if (at(i).type != kind::object) {
                report(at(i).where, diagnostic_code::unexpected_element,
                       R"(a variable must be an object {"name", "desc"}, not )" +
                           std::string(kind_name(at(i))));
                continue;
            }
            members m = read_members(i, {"name", "desc", "type", "default"}, "a variable");
            const std::string_view name = text_field(m["name"], "name");
            text_field(m["desc"], "desc");
            if (name.empty()) {
                report(at(i).where, diagnostic_code::missing_field, "a variable has no 'name'");
                continue;
            }
            const std::uint32_t type = m["type"];
            if (type == no_value) continue;
            record_set::key_declaration key;
            key.name = std::string(name);
            key.type = std::string(text_field(type, "type"));
            key.where = at(i).where;
            if (const std::uint32_t initial = m["default"]; initial != no_value) {
                if (std::optional<param_value> value = scalar(initial, "default", std::nullopt)) {
                    key.initial =
                        record_set::raw_param{key.name, std::move(*value), at(initial).where};
                }
            }
            records.declare_key(std::move(key));
        }
    }

    // ---- .b3-setting ----

    // [{"name", "type": "Action", "desc", "args": [{"name", "type", "desc"}], "input": [...],
    //   "output": [...]}]
    void read_settings(std::uint32_t list) {
        for (std::uint32_t i = at(list).first; i != no_value; i = at(i).next) {
            if (at(i).type != kind::object) {
                report(at(i).where, diagnostic_code::unexpected_element,
                       "a node definition must be an object, not " + std::string(kind_name(at(i))));
                continue;
            }
            members m = read_members(i,
                                     {"name", "type", "desc", "args", "input", "output", "doc",
                                      "icon", "color", "status", "children", "group"},
                                     "a node definition");
            const std::string_view name = text_field(m["name"], "name");
            if (name.empty()) {
                report(at(i).where, diagnostic_code::missing_field,
                       "a node definition has no 'name'");
                continue;
            }
            const b3::node_rule* rule = b3::find_rule(b3::flavour::nested, name);
            node_model model;
            // A Canopy type escaped from behavior3's node of its name, as in trees.
            const bool escaped = name.substr(0, b3::escape_prefix.size()) == b3::escape_prefix;
            // (Let's definition is Let's, though a Let without a value reads as Clear.)
            model.name = std::string(escaped ? name.substr(b3::escape_prefix.size())
                                     : !rule ? name
                                             : rule->canopy_name);
            model.where = at(i).where;
            model.description = std::string(text_field(m["desc"], "desc"));
            std::string type(text_field(m["type"], "type"));
            std::transform(type.begin(), type.end(), type.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (type == "composite") model.shape = arity::composite;
            if (type == "decorator") model.shape = arity::decorator;
            if (type == "action" || type == "condition") model.shape = arity::leaf;
            model.condition = type == "condition";
            if (const std::uint32_t args = m["args"];
                args != no_value && at(args).type != kind::null && is_array(args, "args")) {
                for (std::uint32_t a = at(args).first; a != no_value; a = at(a).next) {
                    if (at(a).type != kind::object) {
                        report(at(a).where, diagnostic_code::unexpected_element,
                               "an argument definition must be an object, not " +
                                   std::string(kind_name(at(a))));
                        continue;
                    }
                    members d =
                        read_members(a, {"name", "type", "desc", "oneof", "default", "options"},
                                     "an argument definition");
                    port_model port;
                    const std::string_view arg = text_field(d["name"], "name");
                    port.name = std::string(rule && rule->arg.arg == arg ? rule->arg.param : arg);
                    port.type = std::string(text_field(d["type"], "type"));
                    port.description = std::string(text_field(d["desc"], "desc"));
                    if (const std::uint32_t initial = d["default"]; initial != no_value) {
                        port.default_value = at(initial).type == kind::string ? at(initial).text
                                                                              : json_text(initial);
                    }
                    if (rule && rule->dropped_arg == arg) continue;
                    model.ports.push_back(std::move(port));
                }
            }
            int slot = 0;
            for (const slot_entry& label : slots(m["input"], "input")) {
                port_model port;
                port.name = rule && !rule->arg.arg.empty() && rule->arg.input_slot == slot
                                ? std::string(rule->arg.param)
                                : "input" + std::to_string(slot + 1);
                port.description = std::string(label.name);
                if (std::none_of(model.ports.begin(), model.ports.end(),
                                 [&](const port_model& p) { return p.name == port.name; })) {
                    model.ports.push_back(std::move(port));
                }
                ++slot;
            }
            slot = 0;
            for (const slot_entry& label : slots(m["output"], "output")) {
                port_model port;
                port.name = "output" + std::to_string(++slot);
                port.dir = port_model::direction::output;
                port.description = std::string(label.name);
                model.ports.push_back(std::move(port));
            }
            result_.document.models.push_back(std::move(model));
        }
    }

    // ---- from a behavior3 node to a Canopy record ----

    // Adds a record for a node of behavior3 type `name`, mapping the type and its arguments
    // through the flavour's table (docs/behavior3.md).
    void add_mapped(b3::flavour in, std::string_view name, std::string_view describe,
                    source_location where, std::int64_t id, std::int64_t parent,
                    std::vector<arg_entry>& args, const std::vector<slot_entry>& inputs,
                    const std::vector<slot_entry>& outputs, bool childless, record_set& records) {
        const bool escaped = name.substr(0, b3::escape_prefix.size()) == b3::escape_prefix;
        const b3::node_rule* rule = escaped ? nullptr : b3::find_rule(in, name);
        if (in == b3::flavour::classic && programs_own_.count(name) != 0) rule = nullptr;
        std::string type(escaped ? name.substr(b3::escape_prefix.size()) : name);
        if (rule != nullptr) type = std::string(rule->canopy_name);
        std::vector<record_set::raw_param> params;
        if (rule != nullptr && childless && !rule->when_empty.empty()) {
            // The runtime runs a composite without children and returns one status: the leaf
            // that returns it. Canopy's own formats refuse such composites.
            type = std::string(rule->when_empty);
            rule = nullptr;
        } else if (in == b3::flavour::nested && !escaped &&
                   (rule == nullptr ||
                    rule->canopy_name.substr(0, b3::kept_prefix.size()) == b3::kept_prefix)) {
            note_builtin(name, type);
        }
        if (rule != nullptr) {
            for (const b3::fixed_param& fixed : rule->fixed) {
                if (!fixed.name.empty()) {
                    params.emplace_back(std::string(fixed.name), fixed.value, where, false);
                    params.back().unwritten = true;  // the name says it
                }
            }
        }
        std::vector<bool> inputs_used(inputs.size(), false);
        if (rule && !rule->dropped_arg.empty()) {
            args.erase(
                std::remove_if(args.begin(), args.end(),
                               [&](const arg_entry& a) { return a.name == rule->dropped_arg; }),
                args.end());
        }
        if (rule && !rule->arg.arg.empty()) {
            map_argument(*rule, name, type, args, inputs, inputs_used, params, id);
        }
        for (const arg_entry& a : args) {
            if (rule && !rule->variables_arg.empty() && a.name == rule->variables_arg) {
                wire_variables(a, params, id);
                continue;
            }
            if (std::optional<param_value> value = scalar(a.value, a.name, id)) {
                params.emplace_back(std::string(a.name), std::move(*value), a.where, false);
            }
        }
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            if (inputs_used[i] || inputs[i].name.empty()) continue;  // "" is a slot not wired
            params.emplace_back("input" + std::to_string(i + 1),
                                "{" + std::string(inputs[i].name) + "}", inputs[i].where, false);
        }
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            if (outputs[i].name.empty()) continue;
            params.emplace_back("output" + std::to_string(i + 1),
                                "{" + std::string(outputs[i].name) + "}", outputs[i].where, false);
        }
        records.add(id, parent, type, describe, where);
        records.set_written_type(name);
        auto model = builtin_models_.find(type);
        for (record_set::raw_param& p : params) {
            if (model != builtin_models_.end()) mention_port(model->second, p.name);
            records.add_param(std::move(p));
        }
    }

    // A behavior3 built-in that Canopy does not map gets a model of the kind its runtime
    // defines, so that lenient loading learns it as that (an empty Parallel is a composite)
    // rather than guessing from its children.
    void note_builtin(std::string_view b3_name, const std::string& type) {
        const b3::builtin_kind kind = b3::find_builtin(b3_name);
        if (kind == b3::builtin_kind::unknown || builtin_models_.count(type) != 0) return;
        node_model model;
        model.name = type;
        model.shape = kind == b3::builtin_kind::composite   ? arity::composite
                      : kind == b3::builtin_kind::decorator ? arity::decorator
                                                            : arity::leaf;
        model.condition = kind == b3::builtin_kind::condition;
        model.description = "behavior3's built-in " + std::string(b3_name);
        builtin_models_.emplace(type, std::move(model));
        builtin_order_.push_back(type);
    }

    static void mention_port(node_model& model, const std::string& name) {
        if (std::none_of(model.ports.begin(), model.ports.end(),
                         [&](const port_model& p) { return p.name == name; })) {
            model.ports.push_back({name, port_model::direction::input, {}, {}, {}});
        }
    }

    // The built-ins' models, after the file's own (which win: a palette may describe them).
    void add_builtin_models() {
        std::vector<node_model>& models = result_.document.models;
        for (const std::string& type : builtin_order_) {
            if (std::none_of(models.begin(), models.end(),
                             [&](const node_model& m) { return m.name == type; })) {
                models.push_back(std::move(builtin_models_.at(type)));
            }
        }
    }

    // The one argument a mapped node has: given as an argument, through its input slot, or
    // left to the runtime's default; converted to Canopy's units.
    void map_argument(const b3::node_rule& rule, std::string_view name, std::string& type,
                      std::vector<arg_entry>& args, const std::vector<slot_entry>& inputs,
                      std::vector<bool>& inputs_used, std::vector<record_set::raw_param>& params,
                      std::int64_t id) {
        const b3::arg_rule& arg = rule.arg;
        auto given = std::find_if(args.begin(), args.end(),
                                  [&](const arg_entry& a) { return a.name == arg.arg; });
        const slot_entry* wired = nullptr;
        if (arg.input_slot >= 0 && static_cast<std::size_t>(arg.input_slot) < inputs.size() &&
            !inputs[static_cast<std::size_t>(arg.input_slot)].name.empty()) {
            wired = &inputs[static_cast<std::size_t>(arg.input_slot)];
            inputs_used[static_cast<std::size_t>(arg.input_slot)] = true;
        }
        std::optional<param_value> value;
        std::optional<param_value> written;  // the argument's value as the file gives it
        source_location where;
        if (given != args.end() && at(given->value).type == kind::null &&
            !rule.unlimited_name.empty()) {
            args.erase(given);  // `"value": null` is Let without a value: it clears
            given = args.end();
        }
        if (given != args.end() && wired != nullptr && rule.dropped_arg.empty()) {
            // The others take one or the other: behavior3-ts's _checkOneof reads the input
            // and ignores the argument (behavior3editor's "oneof" check refuses both).
            sink_.warn(wired->where, diagnostic_code::duplicate_field,
                       "'" + std::string(name) + "' is given its '" + std::string(arg.arg) +
                           "' both as an argument and as input " +
                           std::to_string(arg.input_slot + 1) +
                           "; behavior3-ts reads the input and ignores the argument "
                           "(behavior3editor refuses both): remove one",
                       id);
            args.erase(given);
            given = args.end();
        }
        if (given != args.end()) {
            where = given->where;
            if (wired != nullptr) {
                // Log prints both: the message, then input 1's value.
                params.emplace_back("input1", "{" + std::string(wired->name) + "}", wired->where,
                                    false);
            }
            value = scalar(given->value, given->name, id);
            written = value;
            if (value) value = convert(arg, std::move(*value), name, at(given->value).where, id);
            args.erase(given);
        } else if (wired != nullptr) {
            where = wired->where;
            if (arg.convert == b3::conversion::milliseconds ||
                arg.convert == b3::conversion::js_loop) {
                unconvertible(arg, name, wired->where, id);
            } else {
                value = "{" + std::string(wired->name) + "}";
            }
        } else if (arg.absent != b3::no_default) {
            value = arg.absent;
        }
        if (!rule.unlimited_name.empty() &&
            (!value || (arg.convert == b3::conversion::js_loop &&
                        std::holds_alternative<std::int64_t>(*value) &&
                        std::get<std::int64_t>(*value) == -1))) {
            type = std::string(rule.unlimited_name);
            return;
        }
        if (!value) return;
        record_set::raw_param p{std::string(arg.param), std::move(*value), where, false};
        if (written) {
            std::optional<param_value> value_written;
            if (*written != p.value) value_written = std::move(written);
            if (arg.arg != arg.param || value_written)
                p.write_as(arg.arg != arg.param ? std::string(arg.arg) : std::string(),
                           std::move(value_written));
        } else if (wired == nullptr) {
            p.unwritten = true;  // the runtime's default
        } else {
            p.write_as("input" + std::to_string(arg.input_slot + 1));
        }
        params.push_back(std::move(p));
    }

    param_value convert(const b3::arg_rule& arg, param_value value, std::string_view name,
                        source_location where, std::int64_t id) {
        if (arg.convert == b3::conversion::same) return value;
        if (std::holds_alternative<std::string>(value)) {
            const std::string& text = std::get<std::string>(value);
            const bool key = is_braced(text);
            const bool converted = arg.convert == b3::conversion::milliseconds ||
                                   arg.convert == b3::conversion::js_loop;
            if (key && converted) unconvertible(arg, name, where, id);
            if (key || !converted) return value;
            // JavaScript compares and divides a numeric string as its number ("1e999" loops
            // for ever).
            const double number = dynamic_value(std::string_view(text)).to_number();
            if (std::isnan(number)) return value;  // the builder says what the parameter takes
            if (arg.convert == b3::conversion::milliseconds) return number / 1000.0;
            if (!(number > 0 && number < 9e15)) return std::int64_t{-1};  // for ever
            return static_cast<std::int64_t>(std::ceil(number));
        }
        switch (arg.convert) {
            case b3::conversion::milliseconds:
                if (std::holds_alternative<std::int64_t>(value)) {
                    return static_cast<double>(std::get<std::int64_t>(value)) / 1000.0;
                }
                if (std::holds_alternative<double>(value)) return std::get<double>(value) / 1000.0;
                return value;
            case b3::conversion::js_loop:
                if (std::holds_alternative<std::int64_t>(value) &&
                    std::get<std::int64_t>(value) <= 0) {
                    return std::int64_t{-1};
                }
                return value;
            case b3::conversion::js_number:
                if (std::holds_alternative<std::int64_t>(value))
                    return static_cast<double>(std::get<std::int64_t>(value));
                return value;
            default: return value;
        }
    }

    void unconvertible(const b3::arg_rule& arg, std::string_view name, source_location where,
                       std::int64_t id) {
        report(where, diagnostic_code::unsupported_feature,
               "'" + std::string(name) + "' takes '" + std::string(arg.arg) +
                   (arg.convert == b3::conversion::milliseconds
                        ? "' in milliseconds and Canopy's '" + std::string(arg.param) +
                              "' is in seconds"
                        : "' where 0 means for ever and Canopy's '" + std::string(arg.param) +
                              "' takes -1") +
                   ": the value must be a literal number, which the reader converts, not a "
                   "blackboard variable",
               id);
    }

    std::string_view text_;
    const std::string& path_;
    read_result& result_;
    diagnostic_sink sink_;
    std::vector<jvalue> values_;
    const std::vector<subtree_override>& overrides_;
    // uuid -> its patches' values in values_, [first, second), in the order they apply.
    std::unordered_map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>> patches_;
    std::unordered_map<std::string, std::string> classic_tree_names_;  // tree id -> name
    std::set<std::string, std::less<>> programs_own_;                  // find_programs_own()
    std::unordered_set<std::string> used_as_subtree_;
    std::unordered_set<std::string> empty_trees_;                 // ids of a project's empty trees
    std::unordered_map<std::string, node_model> builtin_models_;  // by Canopy type name
    std::vector<std::string> builtin_order_;                      // as first met
};

// ---- content detection ------------------------------------------------------------------

// Reads only as far as it takes to see a behavior3 shape, and stops there: a `root`, a
// `nodes` object or `trees` at the top, a `.b3` file's `data`, or an array of node
// definitions (objects with "name" and "type" but no "id").
class behavior3_sniffer final : public nlohmann::json_sax<json> {
public:
    bool claimed = false;

    bool null() override { return value(false); }
    bool boolean(bool /*value*/) override { return value(false); }
    bool number_integer(number_integer_t /*value*/) override { return value(false); }
    bool number_unsigned(number_unsigned_t /*value*/) override { return value(false); }
    bool number_float(number_float_t /*value*/, const string_t& /*text*/) override {
        return value(false);
    }
    bool string(string_t& /*value*/) override { return value(false); }
    bool binary(binary_t& /*value*/) override { return value(false); }
    bool start_object(std::size_t /*elements*/) override { return open(false); }
    bool start_array(std::size_t /*elements*/) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& name) override {
        key_ = name;
        if (depth_ == 1 && !top_is_array_ && (name == "root" || name == "trees")) {
            return decide(true);
        }
        if (depth_ == 2 && top_is_array_) {
            if (name == "id" || name == "parentId") return decide(false);
            if (name == "name") named_ = true;
            if (name == "type") typed_ = true;
        }
        return true;
    }
    bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& /*error*/) override {
        return false;
    }

private:
    bool decide(bool is_behavior3) {
        claimed = is_behavior3;
        return false;  // stops the parse
    }
    static bool value(bool /*unused*/) { return true; }
    bool open(bool is_array) {
        if (depth_ == 0) top_is_array_ = is_array;
        // {"nodes": {...}} (classic) or {"data": {...}} (.b3) at the top.
        if (depth_ == 1 && !top_is_array_ && !is_array && (key_ == "nodes" || key_ == "data")) {
            return decide(true);
        }
        ++depth_;
        key_.clear();
        return true;
    }
    bool close() {
        --depth_;
        // The first definition of a .b3-setting array: a name and a type, no record id.
        if (depth_ == 1 && top_is_array_) return decide(named_ && typed_);
        key_.clear();
        return true;
    }

    int depth_ = 0;
    bool top_is_array_ = false;
    bool named_ = false;
    bool typed_ = false;
    std::string key_;
};

}  // namespace

read_result read_behavior3(std::string_view text, const std::string& path) {
    return read_behavior3_overridden(text, path, {});
}

read_result read_behavior3_overridden(std::string_view text, const std::string& path,
                                      const std::vector<subtree_override>& overrides) {
    read_result result;
    behavior3_reader(text, path, result, overrides).run();
    return result;
}

bool claims_behavior3(std::string_view text) {
    behavior3_sniffer sniffer;
    json::sax_parse(text.begin(), text.end(), &sniffer);
    return sniffer.claimed;
}

}  // namespace canopy::detail
