// behavior3 JSON from a document, the mirror of behavior3_reader.cpp: behavior3editor's nested
// form, one tree per file, with Canopy's types and units mapped back to behavior3 (Lua/TS)
// names (docs/behavior3.md).
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "core/json_text.hpp"
#include "core/param_read.hpp"
#include "formats/behavior3_names.hpp"
#include "formats/btcpp_names.hpp"
#include "formats/readers.hpp"

namespace canopy::detail {
namespace {

namespace b3 = behavior3;
using json = nlohmann::json;

// Writes JSON text again as the reader writes an array or object argument into a string:
// compact, numbers as number_text, strings escaped as append_json_escaped.
class compact_json final : public nlohmann::json_sax<json> {
public:
    std::string out;

    bool null() override { return add("null"); }
    bool boolean(bool value) override { return add(value ? "true" : "false"); }
    bool number_integer(number_integer_t value) override { return add(std::to_string(value)); }
    bool number_unsigned(number_unsigned_t value) override {
        // Beyond 64 signed bits the reader keeps a number, not an integer.
        if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return add(text::of_number(static_cast<double>(value)));
        return add(std::to_string(value));
    }
    bool number_float(number_float_t value, const string_t& /*text*/) override {
        return add(text::of_number(value));
    }
    bool string(string_t& value) override {
        separate();
        out += '"';
        append_json_escaped(out, value);
        out += '"';
        return true;
    }
    bool binary(binary_t& /*value*/) override { return false; }
    bool start_object(std::size_t /*elements*/) override { return open('{'); }
    bool start_array(std::size_t /*elements*/) override { return open('['); }
    bool end_object() override { return close('}'); }
    bool end_array() override { return close(']'); }
    bool key(string_t& name) override {
        separate();
        out += '"';
        append_json_escaped(out, name);
        out += "\":";
        after_key_ = true;
        return true;
    }
    bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                     const nlohmann::detail::exception& /*error*/) override {
        return false;
    }

private:
    void separate() {
        if (after_key_) {
            after_key_ = false;
        } else if (!first_.empty()) {
            if (!first_.back()) out += ',';
            first_.back() = false;
        }
    }
    bool add(std::string_view text) {
        separate();
        out += text;
        return true;
    }
    bool open(char bracket) {
        separate();
        out += bracket;
        first_.push_back(true);
        return true;
    }
    bool close(char bracket) {
        first_.pop_back();
        out += bracket;
        return true;
    }

    std::vector<bool> first_;  // per open container: nothing written in it yet
    bool after_key_ = false;
};

// A string that is the reader's text of a JSON array or object (a behavior3-ts argument such
// as `"list": [1, 2]`): written back as that array or object. A string argument that happens
// to read the same is rare enough to be taken for one (docs/behavior3.md).
bool is_json_container(const std::string& text) {
    if (text.size() < 2 || (text.front() != '[' && text.front() != '{')) return false;
    compact_json again;
    if (!json::sax_parse(text, &again)) return false;
    return again.out == text;
}

// A value as JSON; a number that is whole keeps a ".0", so that it reads back as a number and
// not as an integer.
void append_value(std::string& out, const param_value& value) {
    if (const auto* text = std::get_if<std::string>(&value); text && is_json_container(*text)) {
        out += *text;
        return;
    }
    if (!std::holds_alternative<double>(value) || !std::isfinite(std::get<double>(value))) {
        append_json_value(out, value);
        return;
    }
    std::string text = text::of_number(std::get<double>(value));
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    out += text;
}

bool is_key(const param_value& value) {
    const auto* text = std::get_if<std::string>(&value);
    return text != nullptr && is_braced(*text);
}

std::string key_name(const param_value& value) {
    const auto& text = std::get<std::string>(value);
    return text.substr(1, text.size() - 2);
}

// "input3" -> 2; -1 for any other name.
int slot_of(std::string_view name, std::string_view prefix) {
    if (name.substr(0, prefix.size()) != prefix || name.size() == prefix.size()) return -1;
    int slot = 0;
    for (char c : name.substr(prefix.size())) {
        if (c < '0' || c > '9' || slot > 100000) return -1;
        slot = slot * 10 + (c - '0');
    }
    if (name[prefix.size()] == '0') return -1;  // "input01" is not a slot
    return slot - 1;
}

// A file name for a tree: its name, with what file systems refuse replaced.
std::string file_name_for(std::string_view tree_name) {
    std::string name(tree_name.empty() ? "MainTree" : tree_name);
    for (char& c : name) {
        if (c == '/' || c == '\\' || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' ||
            c == '>' || c == '|' || static_cast<unsigned char>(c) < 0x20) {
            c = '_';
        }
    }
    if (name == "." || name == "..") name = "_" + name;
    return name + ".json";
}

class behavior3_writer {
public:
    explicit behavior3_writer(const tree_document& document, write_result& result)
        : document_(document), result_(result) {}

    void run() {
        if (document_.trees.empty()) {
            problem("the document holds no tree; a behavior3 file holds one", std::nullopt);
            return;
        }
        // The trees other trees use, by name.
        std::unordered_set<std::string> used;
        for (const record_set& records : document_.trees) {
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (records.type_name(i) != "SubTree") continue;
                if (const std::string* tree = records.text_param(i, "tree")) used.insert(*tree);
            }
        }
        // The main tree: the one the document names, else the first that no tree uses.
        std::size_t main = document_.trees.size();
        for (std::size_t t = 0; t < document_.trees.size(); ++t) {
            if (!document_.main_tree.empty() && document_.trees[t].name() == document_.main_tree) {
                main = t;
            }
        }
        for (std::size_t t = 0; t < document_.trees.size() && main == document_.trees.size(); ++t) {
            if (used.count(document_.trees[t].name()) == 0) main = t;
        }
        if (main == document_.trees.size()) main = 0;
        // Each tree's file, the main tree's first so that it keeps its plain name.
        std::unordered_set<std::string> taken;
        files_.resize(document_.trees.size());
        for (std::size_t k = 0; k < document_.trees.size(); ++k) {
            const std::size_t t = k == 0 ? main : (k <= main ? k - 1 : k);
            std::string name = file_name_for(document_.trees[t].name());
            for (int n = 2; !taken.insert(name).second; ++n) {
                name = file_name_for(document_.trees[t].name() + "-" + std::to_string(n));
            }
            files_[t] = name;
            if (!document_.trees[t].name().empty()) by_name_.emplace(document_.trees[t].name(), t);
        }
        for (std::size_t k = 0; k < document_.trees.size(); ++k) {
            const std::size_t t = k == 0 ? main : (k <= main ? k - 1 : k);
            std::string text = write_tree(document_.trees[t], k == 0);
            if (k == 0) {
                // Other trees name it by its file: it has one of its own too.
                if (used.count(document_.trees[t].name()) != 0)
                    result_.files.emplace_back(files_[t], text);
                result_.text = std::move(text);
            } else {
                result_.files.emplace_back(files_[t], std::move(text));
            }
        }
    }

private:
    void problem(std::string message, std::optional<std::int64_t> record_id) {
        result_.problems.push_back(
            {std::string(), {}, record_id, diagnostic_code::not_expressible, std::move(message)});
    }

    // What a node is in the file: its name, arguments and wired variables.
    struct node_text {
        std::string name;
        std::vector<std::pair<std::string, param_value>> args;
        std::vector<std::string> input;
        std::vector<std::string> output;
        std::string path;  // a subtree's file
    };

    static void set_slot(std::vector<std::string>& slots, int slot, std::string name) {
        if (slots.size() <= static_cast<std::size_t>(slot)) {
            slots.resize(static_cast<std::size_t>(slot) + 1);
        }
        slots[static_cast<std::size_t>(slot)] = std::move(name);
    }

    node_text describe_node(const record_set& records, std::size_t i, std::size_t children) {
        node_text out;
        const std::int64_t id = records.id(i);
        if (records.has_type_id(i)) {
            problem("node " + std::to_string(id) + " names its type by the numeric id " +
                        std::to_string(records.type_id(i)) + "; behavior3 names types",
                    id);
            out.name = std::to_string(records.type_id(i));
            return out;
        }
        const std::string_view type = records.type_name(i);
        if (type == "SubTree") return describe_subtree(records, i);
        const b3::node_rule* rule = b3::find_rule_for_canopy(type);
        out.name = b3::written_name(type, rule);
        if (children == 0) {
            // A behavior3 composite without children reads as the leaf that returns its
            // result: a Canopy record without children keeps its type only escaped.
            const b3::node_rule* read_as = b3::find_rule(b3::flavour::nested, out.name);
            if (read_as != nullptr && !read_as->when_empty.empty())
                out.name = std::string(b3::escape_prefix) + std::string(type);
        }
        const b3::node_rule* fixed = b3::find_fixed_rule(type);
        if (fixed != nullptr && children != 0 && has_fixed_params(records, i, *fixed)) {
            // Parallel with Race's thresholds is Race; any other Parallel is Canopy's.
            out.name = std::string(fixed->b3_name);
            for (const record_set::raw_param* p = records.params_begin(i);
                 p != records.params_end(i); ++p) {
                if (!is_fixed(*fixed, p->name)) out.args.emplace_back(p->name, p->value);
            }
            return out;
        }
        if (type == "IfThenElse" && children == 2) {
            problem("node " + std::to_string(id) +
                        ": IfThenElse with two children fails when its condition fails; "
                        "behavior3's IfElse needs the third child",
                    id);
        }
        std::vector<std::string> listed;  // the variables of rule->variables_arg, in order
        for (const record_set::raw_param* p = records.params_begin(i); p != records.params_end(i);
             ++p) {
            if (is_condition_param(p->name)) {
                problem("node " + std::to_string(id) + ": '" + p->name +
                            "' is a BehaviorTree.CPP script condition; behavior3 has no "
                            "conditions on nodes (write it as a node of the tree instead)",
                        id);
                continue;
            }
            if (rule != nullptr && !rule->arg.arg.empty() && p->name == rule->arg.param) {
                write_mapped(*rule, *p, out);
                continue;
            }
            if (rule != nullptr && (p->name == rule->arg.arg || p->name == rule->dropped_arg)) {
                problem("node " + std::to_string(id) + ": parameter '" + p->name + "' of " +
                            std::string(type) + " would read back as behavior3's '" + p->name +
                            "' of " + std::string(rule->b3_name) +
                            (p->name == rule->arg.arg
                                 ? ", which is Canopy's '" + std::string(rule->arg.param) + "'"
                                 : ", which Canopy ignores"),
                        id);
                continue;
            }
            if (is_key(p->value)) {
                if (rule != nullptr && !rule->variables_arg.empty()) {
                    if (const int place = slot_of(p->name, rule->variables_arg); place >= 0) {
                        set_slot(listed, place, key_name(p->value));
                        continue;
                    }
                }
                if (const int slot = slot_of(p->name, "input"); slot >= 0) {
                    set_slot(out.input, slot, key_name(p->value));
                    continue;
                }
                if (const int slot = slot_of(p->name, "output"); slot >= 0) {
                    set_slot(out.output, slot, key_name(p->value));
                    continue;
                }
            }
            out.args.emplace_back(p->name, typed_by_model(type, *p));
        }
        if (!listed.empty()) {
            // The listed variables go back as the argument's array of names.
            std::string names = "[";
            for (const std::string& name : listed) {
                if (names.size() > 1) names += ",";
                append_json_string(names, name);
            }
            out.args.emplace_back(std::string(rule->variables_arg), names + "]");
        }
        return out;
    }

    // A value given as text, typed as its node's model types the port (a number or a boolean,
    // as a behavior3 file wrote it before it went through XML, whose writer declared the
    // port's type): behavior3's arguments are JSON values.
    param_value typed_by_model(std::string_view type, const record_set::raw_param& p) const {
        const auto* text = std::get_if<std::string>(&p.value);
        if (text == nullptr || is_key(p.value)) return p.value;
        for (const node_model& model : document_.models) {
            if (model.name != type) continue;
            for (const port_model& port : model.ports) {
                if (port.name != p.name) continue;
                if (std::optional<param_value> typed = btcpp::value_of_cpp_type(port.type, *text))
                    return *typed;
            }
        }
        return p.value;
    }

    static bool is_fixed(const b3::node_rule& rule, std::string_view name) {
        return std::any_of(std::begin(rule.fixed), std::end(rule.fixed),
                           [&](const b3::fixed_param& f) { return f.name == name; });
    }

    // Whether a record gives each of the rule's fixed parameters, with its value.
    static bool has_fixed_params(const record_set& records, std::size_t i,
                                 const b3::node_rule& rule) {
        for (const b3::fixed_param& f : rule.fixed) {
            if (f.name.empty()) continue;
            const auto* p = std::find_if(
                records.params_begin(i), records.params_end(i),
                [&](const record_set::raw_param& param) { return param.name == f.name; });
            if (p == records.params_end(i) || !std::holds_alternative<std::int64_t>(p->value) ||
                std::get<std::int64_t>(p->value) != f.value) {
                return false;
            }
        }
        return true;
    }

    // The parameter a mapped node's one argument becomes, in behavior3's units: its input
    // slot for a key, else the argument, or nothing where behavior3's default says it.
    static void write_mapped(const b3::node_rule& rule, const record_set::raw_param& p,
                             node_text& out) {
        const b3::arg_rule& arg = rule.arg;
        if (is_key(p.value)) {
            set_slot(out.input, arg.input_slot, key_name(p.value));
            return;
        }
        out.args.emplace_back(std::string(arg.arg), p.value);
    }

    node_text describe_subtree(const record_set& records, std::size_t i) {
        node_text out;
        out.name = "SubTree";
        const std::int64_t id = records.id(i);
        std::string tree;
        std::string file;
        bool autoremap = false;
        for (const record_set::raw_param* p = records.params_begin(i); p != records.params_end(i);
             ++p) {
            if (p->name == "tree" && std::holds_alternative<std::string>(p->value)) {
                tree = std::get<std::string>(p->value);
            } else if (p->name == "file" && std::holds_alternative<std::string>(p->value)) {
                file = std::get<std::string>(p->value);
            } else if (p->name == "_autoremap" && std::holds_alternative<bool>(p->value)) {
                autoremap = std::get<bool>(p->value);
            } else if (p->name == "_autoremap" && std::holds_alternative<std::string>(p->value) &&
                       (std::get<std::string>(p->value) == "true" ||
                        std::get<std::string>(p->value) == "false")) {
                // As the XML formats read it: text, which the loader takes as a boolean.
                autoremap = std::get<std::string>(p->value) == "true";
            } else {
                problem("node " + std::to_string(id) + ": subtree parameter '" + p->name +
                            "'; a behavior3 subtree shares its parent's variables and takes no "
                            "remapping",
                        id);
            }
        }
        if (!autoremap) {
            problem("node " + std::to_string(id) +
                        ": a subtree with a blackboard of its own; a behavior3 subtree shares "
                        "its parent's variables (_autoremap true)",
                    id);
        }
        // With a file, the tree is the file's own (a behavior3 file holds one).
        if (!file.empty()) {
            out.path = file;
        } else if (auto found = by_name_.find(tree); found != by_name_.end()) {
            out.path = files_[found->second];
        } else {
            problem("node " + std::to_string(id) + ": subtree '" + tree +
                        "' is a tree of an included file; behavior3 has no includes (convert "
                        "that file too, and name it by its file)",
                    id);
        }
        return out;
    }

    void write_node(std::string& out, const record_set& records, std::size_t i,
                    std::size_t children, int depth) {
        const node_text node = describe_node(records, i, children);
        const std::string pad = indent(depth + 1);
        out += "{\n" + pad + "\"id\": " + std::to_string(records.id(i));
        for (auto [note, end] = records.metadata(i); note != end; ++note) {
            if (note->name != uuid_metadata) continue;
            out += ",\n" + pad + "\"uuid\": ";
            append_json_string(out, note->value);
        }
        out += ",\n" + pad + "\"name\": ";
        append_json_string(out, node.name);
        if (!records.describe(i).empty()) {
            out += ",\n" + pad + "\"desc\": ";
            append_json_string(out, records.describe(i));
        }
        if (!node.args.empty()) {
            out += ",\n" + pad + "\"args\": {";
            for (std::size_t a = 0; a < node.args.size(); ++a) {
                if (a != 0) out += ", ";
                append_json_string(out, node.args[a].first);
                out += ": ";
                append_value(out, node.args[a].second);
            }
            out += '}';
        }
        for (const auto& [field, slots] :
             {std::pair<const char*, const std::vector<std::string>*>{"input", &node.input},
              {"output", &node.output}}) {
            if (slots->empty()) continue;
            out += ",\n" + pad + "\"" + field + "\": [";
            for (std::size_t s = 0; s < slots->size(); ++s) {
                if (s != 0) out += ", ";
                append_json_string(out, (*slots)[s]);
            }
            out += ']';
        }
        if (!node.path.empty()) {
            out += ",\n" + pad + "\"path\": ";
            append_json_string(out, node.path);
        }
    }

    // Two spaces a level, up to a bound, so that a tree thousands of levels deep does not make
    // a file of white space.
    static std::string indent(int depth) {
        std::string spaces(static_cast<std::size_t>(2 * std::min(depth, 40)), ' ');
        return spaces;
    }

    std::string write_tree(const record_set& records, bool main) {
        const std::string name = records.name().empty() ? "MainTree" : records.name();
        std::string out = "{\n  \"name\": ";
        append_json_string(out, name);
        out += ",\n  \"desc\": \"\"";
        if (main && !document_.overrides.empty()) {
            out += ",\n  \"overrides\": {";
            const char* separator = "\n    ";
            for (const subtree_override& change : document_.overrides) {
                out += separator;
                append_json_string(out, change.node);
                out += ": " + change.patch;
                separator = ",\n    ";
            }
            out += "\n  }";
        }
        std::vector<const record_set::key_declaration*> declared;
        for (const record_set::key_declaration& key : records.declared_keys()) {
            if (!key.implicit) declared.push_back(&key);  // behavior3 makes those on first use
        }
        if (!declared.empty()) {
            // behavior3editor's variables are {name, desc}; the type and initial value go
            // beside them, so that a declared key reads back declared.
            out += ",\n  \"vars\": [";
            const char* separator = "\n    ";
            for (const record_set::key_declaration* declaration : declared) {
                const record_set::key_declaration& key = *declaration;
                out += separator;
                out += R"({"name": )";
                append_json_string(out, key.name);
                out += R"(, "desc": "", "type": )";
                append_json_string(out, key.type);
                if (key.initial) {
                    out += ", \"default\": ";
                    append_value(out, key.initial->value);
                }
                out += '}';
                separator = ",\n    ";
            }
            out += "\n  ]";
        }
        out += ",\n  \"root\": ";

        // Children in record order; the root is the record without a parent.
        std::unordered_map<std::int64_t, std::size_t> index;
        for (std::size_t i = 0; i < records.size(); ++i) index.emplace(records.id(i), i);
        std::vector<std::vector<std::size_t>> children(records.size());
        std::vector<std::size_t> roots;
        for (std::size_t i = 0; i < records.size(); ++i) {
            auto parent = index.find(records.parent_id(i));
            if (records.parent_id(i) == 0) {
                roots.push_back(i);
            } else if (parent == index.end()) {
                problem("node " + std::to_string(records.id(i)) + " names parent " +
                            std::to_string(records.parent_id(i)) + ", which is no node",
                        records.id(i));
            } else {
                children[parent->second].push_back(i);
            }
        }
        if (roots.size() != 1) {
            problem("tree '" + name + "' has " + std::to_string(roots.size()) +
                        " roots; a behavior3 tree has one",
                    std::nullopt);
            out += "null\n}\n";
            return out;
        }
        // Preorder, with an explicit stack: each entry is a node, how many of its children
        // are written, and its level of indentation.
        struct open_node {
            std::size_t record;
            std::size_t next_child;
            int level;
        };
        std::vector<open_node> stack{{roots.front(), 0, 1}};
        std::size_t written = 1;
        write_node(out, records, roots.front(), children[roots.front()].size(), 1);
        while (!stack.empty()) {
            open_node& top = stack.back();
            const std::vector<std::size_t>& kids = children[top.record];
            const int level = top.level;
            if (top.next_child < kids.size() && records.type_name(top.record) != "SubTree") {
                const std::size_t child = kids[top.next_child];
                out += top.next_child == 0
                           ? ",\n" + indent(level + 1) + "\"children\": [\n" + indent(level + 2)
                           : ",\n" + indent(level + 2);
                ++top.next_child;
                ++written;
                write_node(out, records, child, children[child].size(), level + 2);
                stack.push_back({child, 0, level + 2});  // `top` is not used after this
                continue;
            }
            if (top.next_child > 0) out += "\n" + indent(level + 1) + "]";
            out += "\n" + indent(level) + "}";
            stack.pop_back();
        }
        if (written != records.size()) {
            problem("tree '" + name + "': " + std::to_string(records.size() - written) +
                        " nodes hang from no path to the root (their parents loop, or they are "
                        "a subtree's children)",
                    std::nullopt);
        }
        out += "\n}\n";
        return out;
    }

    const tree_document& document_;
    write_result& result_;
    std::vector<std::string> files_;                        // each tree's file name
    std::unordered_map<std::string, std::size_t> by_name_;  // tree name -> index
};

}  // namespace

write_result write_behavior3(const tree_document& document) {
    write_result result;
    // A node of the file's own program under one of Canopy's names is written under that
    // name with its own arguments: read back, its arguments tell it from the built-in again
    // (docs/behavior3.md, "Dialects").
    behavior3_writer(document, result).run();
    report_scaled_keys(document, result);
    return result;
}

}  // namespace canopy::detail
