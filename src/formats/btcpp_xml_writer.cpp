// BehaviorTree.CPP 4 XML from a document, the mirror of btcpp_xml_reader.cpp: Canopy's names
// and units become BehaviorTree.CPP's through btcpp_names.hpp, and tinyxml2's printer escapes
// the text. See docs/btcpp-xml.md.
#include <tinyxml2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include "core/json_text.hpp"
#include "core/param_read.hpp"
#include "formats/btcpp_names.hpp"
#include "formats/readers.hpp"

namespace canopy::detail {
namespace {

using raw_param = record_set::raw_param;

// Whole milliseconds for a value in seconds, when there are such (that read back as exactly
// the same seconds).
std::optional<std::uint64_t> milliseconds_of(const param_value& value) {
    double seconds = 0;
    if (const auto* integer = std::get_if<std::int64_t>(&value)) {
        if (*integer < 0 || *integer > (std::int64_t{1} << 40)) return std::nullopt;
        seconds = static_cast<double>(*integer);
    } else if (const auto* number = std::get_if<double>(&value)) {
        seconds = *number;
    } else if (const auto* text = std::get_if<std::string>(&value)) {
        auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), seconds);
        if (text->empty() || error != std::errc() || end != text->data() + text->size())
            return std::nullopt;
    } else {
        return std::nullopt;
    }
    if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e12) return std::nullopt;
    const double milliseconds = std::round(seconds * 1000.0);
    if (milliseconds / 1000.0 != seconds) return std::nullopt;
    return static_cast<std::uint64_t>(milliseconds);
}

// What the writer learns of a type the <TreeNodesModel> must describe.
struct type_use {
    std::vector<std::string> ports;  // parameter names, first seen first
};

class btcpp_writer {
public:
    btcpp_writer(const tree_document& document, bool every_uid)
        : document_(document), every_uid_(every_uid) {}

    write_result write() {
        for (const record_set& records : document_.trees) tree_names_.insert(records.name());
        collect_includes();
        printer_.PushDeclaration(R"(xml version="1.0" encoding="UTF-8")");
        printer_.OpenElement("root");
        printer_.PushAttribute("BTCPP_format", "4");
        // Another runtime's rules, for Canopy to read the tree back by; BehaviorTree.CPP
        // ignores the attribute and runs it by its own.
        if (document_.rules == runtime_rules::canopy && !document_.trees.empty())
            printer_.PushAttribute("canopy_rules", "canopy");
        if (document_.rules == runtime_rules::behavior3)
            printer_.PushAttribute("canopy_rules", "behavior3");
        if (!document_.main_tree.empty()) {
            printer_.PushAttribute("main_tree_to_execute", document_.main_tree.c_str());
        }
        for (const std::string& path : includes_) {
            printer_.OpenElement("include");
            printer_.PushAttribute("path", path.c_str());
            printer_.CloseElement();
        }
        count_children();
        for (const record_set& records : document_.trees) write_tree(records);
        write_models();
        printer_.CloseElement();
        result_.text = printer_.CStr();
        return std::move(result_);
    }

private:
    void problem(std::string message, std::optional<std::int64_t> record_id = std::nullopt) {
        result_.problems.push_back(
            {{}, {}, record_id, diagnostic_code::not_expressible, std::move(message)});
    }

    // The files a document's includes and subtrees name, each once, in order.
    void collect_includes() {
        std::unordered_set<std::string> seen;
        for (const file_reference& include : document_.includes) {
            if (seen.insert(include.path).second) includes_.push_back(include.path);
        }
        for (const record_set& records : document_.trees) {
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (records.has_type_id(i) || records.type_name(i) != "SubTree") continue;
                for (const raw_param* p = records.params_begin(i); p != records.params_end(i);
                     ++p) {
                    if (p->name != "file") continue;
                    const std::string path = attribute_text(p->value);
                    // A loaded tree's subtrees carry `file` at its default, "": no file.
                    if (!path.empty() && seen.insert(path).second) includes_.push_back(path);
                }
            }
        }
    }

    void write_tree(const record_set& records) {
        std::string name = records.name();
        if (name.empty()) {
            name = "MainTree";
            for (int k = 2; tree_names_.count(name) != 0; ++k)
                name = "MainTree_" + std::to_string(k);
            tree_names_.insert(name);
            if (document_.trees.size() > 1) {
                problem(
                    "a tree without a name among several: BehaviorTree.CPP names trees; it "
                    "is written as '" +
                    name + "'");
            }
        }
        if (const std::string refused = btcpp::model_name_problem(name); !refused.empty()) {
            problem("tree '" + name + "': " + refused +
                    "; BehaviorTree.CPP 4.10 refuses a tree of this name");
        }
        printer_.OpenElement("BehaviorTree");
        printer_.PushAttribute("ID", name.c_str());
        for (const record_set::metadata_entry& note : records.tree_metadata())
            push_metadata(note, std::nullopt);
        if (!records.empty()) write_nodes(records, name);
        printer_.CloseElement();
        if (std::any_of(records.declared_keys().begin(), records.declared_keys().end(),
                        [](const record_set::key_declaration& key) { return !key.implicit; }))
            keyed_trees_.emplace_back(name, &records);
    }

    // Children by record order, then the nodes in preorder from the one root, without
    // recursion.
    void write_nodes(const record_set& records, const std::string& tree_name) {
        const std::size_t n = records.size();
        std::unordered_map<std::int64_t, std::size_t> index_of;
        index_of.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            if (!index_of.emplace(records.id(i), i).second) {
                problem("tree '" + tree_name + "': two records with id " +
                            std::to_string(records.id(i)),
                        records.id(i));
            }
        }
        // Children as ranges of one array (counting sort by parent).
        std::vector<std::size_t> first_child(n + 1, 0);
        std::vector<std::size_t> parent_of(n, n);
        std::size_t root = n;
        std::size_t linked = 0;  // the root and the records whose parent is a record
        for (std::size_t i = 0; i < n; ++i) {
            if (records.parent_id(i) == 0) {
                if (root != n) {
                    problem("tree '" + tree_name + "': a second root, record " +
                                std::to_string(records.id(i)) + "; a <BehaviorTree> holds one",
                            records.id(i));
                    continue;
                }
                root = i;
                ++linked;
                continue;
            }
            auto parent = index_of.find(records.parent_id(i));
            if (parent == index_of.end()) {
                problem("tree '" + tree_name + "': the parent of record " +
                            std::to_string(records.id(i)) + " is no record",
                        records.id(i));
                continue;
            }
            parent_of[i] = parent->second;
            ++linked;
            ++first_child[parent->second + 1];
        }
        for (std::size_t i = 0; i < n; ++i) first_child[i + 1] += first_child[i];
        std::vector<std::size_t> children(first_child[n]);
        std::vector<std::size_t> filled(first_child.begin(), first_child.end() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            if (parent_of[i] != n) children[filled[parent_of[i]]++] = i;
        }
        if (root == n) {
            problem("tree '" + tree_name + "' has no root record");
            return;
        }
        // Ids as the reader gives them (1..n in preorder) need no _uid.
        std::vector<std::size_t> order;
        order.reserve(n);
        std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
        order.push_back(root);
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (first_child[node] + next == first_child[node + 1]) {
                stack.pop_back();
                continue;
            }
            const std::size_t child = children[first_child[node] + next++];
            order.push_back(child);
            stack.emplace_back(child, 0);
        }
        if (order.size() < linked) {
            problem("tree '" + tree_name + "': " + std::to_string(linked - order.size()) +
                    " records do not hang from the root (their parents form a loop)");
        }
        with_uids_ = every_uid_;
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (records.id(order[k]) != static_cast<std::int64_t>(k + 1)) with_uids_ = true;
        }
        // Write, opening and closing elements in preorder.
        stack.assign(1, {root, 0});
        open_node(records, root, first_child[root + 1] - first_child[root], {});
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (first_child[node] + next == first_child[node + 1]) {
                printer_.CloseElement();
                stack.pop_back();
                continue;
            }
            const std::size_t child = children[first_child[node] + next++];
            open_node(records, child, first_child[child + 1] - first_child[child],
                      records.type_name(node));
            stack.emplace_back(child, 0);
        }
    }

    // `parent_type`: the parent's type, empty for the root.
    void open_node(const record_set& records, std::size_t i, std::size_t child_count,
                   std::string_view parent_type) {
        const std::int64_t id = records.id(i);
        if (records.has_type_id(i)) {
            problem("record " + std::to_string(id) + " names its type by number (" +
                        std::to_string(records.type_id(i)) +
                        "); BehaviorTree.CPP names types: convert with type names",
                    id);
            printer_.OpenElement("Action");
            printer_.PushAttribute("ID", std::to_string(records.type_id(i)).c_str());
            common_attributes(records, i);
            return;
        }
        const std::string_view canopy_type = records.type_name(i);
        if (canopy_type == "SubTree") {
            open_subtree(records, i, child_count);
            return;
        }
        // Another program's node under one of Canopy's names keeps that name, and its
        // parameters the names the files it comes from give them (Nav2's Wait's
        // wait_duration): the first the name tables list.
        const bool foreign = namesake(canopy_type);
        std::string_view type = foreign ? canopy_type : btcpp::written_type(canopy_type);
        const raw_param* first = records.params_begin(i);
        const raw_param* last = records.params_end(i);
        // Canopy's unit conversions, when BehaviorTree.CPP can say the value.
        const btcpp::param_rows_of rows = btcpp::params_of(type);
        std::vector<std::pair<std::string, std::string>> attributes;
        attributes.reserve(static_cast<std::size_t>(last - first) + 1);
        bool keep_canopy_form = false;
        for (const raw_param* p = first; p != last; ++p) {
            const btcpp::param_row* row = nullptr;
            for (const btcpp::param_row* r = rows.first; r != rows.last; ++r) {
                if (foreign ? row == nullptr && r->canopy == p->name
                            : r->write && r->canopy == p->name)
                    row = r;
            }
            if (row == nullptr) {
                attributes.emplace_back(p->name, value_text(type, *p));
            } else if (row->conversion == btcpp::unit::same ||
                       row->conversion == btcpp::unit::seconds) {
                attributes.emplace_back(std::string(row->btcpp), value_text(type, *p));
            } else if (std::optional<std::uint64_t> ms = milliseconds_of(p->value)) {
                attributes.emplace_back(std::string(row->btcpp), std::to_string(*ms));
            } else if (p->key_scale == 0.001) {  // a key of milliseconds, as read
                attributes.emplace_back(std::string(row->btcpp), attribute_text(p->value));
            } else {
                keep_canopy_form = true;
            }
        }
        if (keep_canopy_form) {
            // Canopy's own name and parameters, which Canopy reads back as they are.
            attributes.clear();
            for (const raw_param* p = first; p != last; ++p) {
                attributes.emplace_back(p->name, attribute_text(p->value));
            }
            if (btcpp::is_builtin(canopy_type)) {
                problem("record " + std::to_string(id) + " ('" + std::string(canopy_type) +
                            "'): BehaviorTree.CPP's '" + std::string(type) +
                            "' counts whole milliseconds, which this value is not (or it is a "
                            "blackboard key of seconds); written with Canopy's parameter, which "
                            "BehaviorTree.CPP refuses",
                        id);
            }
            type = canopy_type;
        }
        // An element named as a tree of the document would read as a subtree.
        const bool explicit_form = !btcpp::is_xml_name(type) || btcpp::is_reserved_element(type) ||
                                   tree_names_.count(std::string(type)) != 0;
        note_type(type, attributes);
        if (explicit_form && parent_type == "ReactiveSequence") {
            // 4.10 looks a ReactiveSequence's children up by element name ("Unknown node
            // type: Action").
            problem("record " + std::to_string(id) + " ('" + std::string(type) +
                        "') in a ReactiveSequence: its name needs the explicit form <" +
                        std::string(model_element_of(type)) + " ID=\"" + std::string(type) +
                        "\">, which BehaviorTree.CPP 4.10 refuses there",
                    id);
        }
        if (explicit_form) {
            const std::string_view element = model_element_of(type);
            printer_.OpenElement(intern(element));
            printer_.PushAttribute("ID", std::string(type).c_str());
        } else {
            printer_.OpenElement(intern(type));
        }
        common_attributes(records, i);
        for (const auto& [name, value] : attributes) push_param(name, value, id);
    }

    // A parameter's value as BehaviorTree.CPP reads it.
    static std::string value_text(std::string_view type, const raw_param& p) {
        std::string text = attribute_text(p.value);
        // Canopy takes a key parameter bare; BehaviorTree.CPP reads a Switch's variable as an
        // input port, so it needs the braces.
        if (p.name == "variable" && type.substr(0, 6) == "Switch" && !is_braced(text) &&
            !text.empty()) {
            text = "{" + text + "}";
        }
        return text;
    }

    void common_attributes(const record_set& records, std::size_t i) {
        if (!records.describe(i).empty()) {
            printer_.PushAttribute("name", std::string(records.describe(i)).c_str());
        }
        if (with_uids_) printer_.PushAttribute("_uid", std::to_string(records.id(i)).c_str());
        for (auto [note, end] = records.metadata(i); note != end; ++note)
            push_metadata(*note, records.id(i));
    }

    // An editor's note as the attribute it was read from: BehaviorTree.CPP takes an attribute
    // that starts with '_' and is not its own for no port.
    void push_metadata(const record_set::metadata_entry& note, std::optional<std::int64_t> id) {
        // A running tree's view for Groot2 (every_uid_) names each subtree use by its path.
        if (!btcpp::is_xml_name(note.name) || note.name[0] != '_' || note.name == "_uid" ||
            (note.name == "_fullpath" && !every_uid_) || is_condition_param(note.name)) {
            problem((id ? "record " + std::to_string(*id) + ": " : std::string()) +
                        "editor metadata '" + note.name +
                        "' cannot be a BehaviorTree.CPP attribute (it is one only when it is an "
                        "XML name that starts with '_' and is none of BehaviorTree.CPP's own)",
                    id);
            return;
        }
        printer_.PushAttribute(note.name.c_str(), note.value.c_str());
    }

    void push_param(const std::string& name, const std::string& value, std::int64_t id) {
        if (is_condition_param(name)) {  // BehaviorTree.CPP's own attribute for it
            printer_.PushAttribute(name.c_str(), value.c_str());
            return;
        }
        if (!btcpp::is_xml_name(name) || name == "name" || name == "ID" || name[0] == '_') {
            problem("record " + std::to_string(id) + ": parameter '" + name +
                        "' cannot be a BehaviorTree.CPP port (a port name is an XML name, not "
                        "'name' or 'ID', and does not start with '_')",
                    id);
            return;
        }
        printer_.PushAttribute(name.c_str(), value.c_str());
    }

    void open_subtree(const record_set& records, std::size_t i, std::size_t child_count) {
        const std::int64_t id = records.id(i);
        // A loaded tree holds each subtree put in place, as the SubTree node's child; a
        // <SubTree> element takes no children, and its reader would refuse them.
        if (child_count > 0) {
            problem("record " + std::to_string(id) +
                        ": a subtree put in place, its nodes under it (a loaded tree); "
                        "BehaviorTree.CPP's <SubTree> names its tree instead: convert the file "
                        "rather than the loaded tree",
                    id);
        }
        const raw_param* first = records.params_begin(i);
        const raw_param* last = records.params_end(i);
        const raw_param* tree = nullptr;
        const raw_param* file = nullptr;
        for (const raw_param* p = first; p != last; ++p) {
            if (p->name == "tree") tree = p;
            if (p->name == "file") file = p;
        }
        printer_.OpenElement("SubTree");
        if (tree != nullptr) {
            printer_.PushAttribute("ID", attribute_text(tree->value).c_str());
        } else {
            problem(file != nullptr
                        ? "record " + std::to_string(id) +
                              ": a subtree that names only a file; BehaviorTree.CPP names the "
                              "tree (<include> the file and give <SubTree ID>)"
                        : "record " + std::to_string(id) + ": a subtree that names no tree",
                    id);
        }
        common_attributes(records, i);
        for (const raw_param* p = first; p != last; ++p) {
            if (p == tree || p == file) continue;
            if (p->name == "_autoremap") {
                const bool* on = std::get_if<bool>(&p->value);
                printer_.PushAttribute("_autoremap", on != nullptr
                                                         ? (*on ? "true" : "false")
                                                         : attribute_text(p->value).c_str());
                continue;
            }
            push_param(p->name, attribute_text(p->value), id);
        }
    }

    std::string_view model_element_of(std::string_view type) const {
        auto most = most_children_.find(std::string(type));
        const std::size_t children = most == most_children_.end() ? 0 : most->second;
        const node_model* model = find_model(type);
        // A model whose shape the uses contradict (a behavior3 condition given children,
        // which behavior3-ts ticks) would make the file refused: the uses decide.
        const bool contradicted = model != nullptr && model->shape &&
                                  ((*model->shape == arity::leaf && children > 0) ||
                                   (*model->shape == arity::decorator && children > 1));
        if (model != nullptr && model->shape && !contradicted) {
            switch (*model->shape) {
                case arity::leaf: return model->condition ? "Condition" : "Action";
                case arity::decorator: return "Decorator";
                case arity::composite: return "Control";
            }
        }
        // Canopy's own type's element; another program's node of that name has its own shape.
        if (std::string_view element = btcpp::canopy_model_element(type);
            !element.empty() && !namesake(type))
            return element;
        return children == 0 ? "Action" : children == 1 ? "Decorator" : "Control";
    }

    // The most children each type has anywhere in the document, counted before any node is
    // written: a type's element (`<Action ID>`, `<Decorator ID>`) is then the same at its first
    // use as at its last and in its model, so that what is written reads back as itself.
    void count_children() {
        for (const record_set& records : document_.trees) {
            std::unordered_map<std::int64_t, std::size_t> children;
            for (std::size_t i = 0; i < records.size(); ++i) ++children[records.parent_id(i)];
            for (std::size_t i = 0; i < records.size(); ++i) {
                if (records.has_type_id(i)) continue;
                const auto found = children.find(records.id(i));
                const std::size_t count = found == children.end() ? 0 : found->second;
                for (std::string_view type :
                     {records.type_name(i), btcpp::written_type(records.type_name(i))}) {
                    std::size_t& most = most_children_[std::string(type)];
                    most = std::max(most, count);
                }
            }
        }
    }

    // tinyxml2's printer keeps the name of each open element by pointer, until it closes: the
    // names live here, each once.
    const char* intern(std::string_view name) {
        return element_names_.emplace(name).first->c_str();
    }

    const node_model* find_model(std::string_view type) const {
        for (const node_model& model : document_.models) {
            if (model.name == type) return &model;
        }
        return nullptr;
    }

    // Remembers a type the <TreeNodesModel> describes: one that BehaviorTree.CPP lacks.
    void note_type(std::string_view type,
                   const std::vector<std::pair<std::string, std::string>>& attributes) {
        if (btcpp::is_builtin(type)) return;
        auto [it, added] = uses_.try_emplace(std::string(type));
        if (added) use_order_.push_back(it->first);
        type_use& use = it->second;
        for (const auto& attribute : attributes) {
            if (std::find(use.ports.begin(), use.ports.end(), attribute.first) == use.ports.end())
                use.ports.push_back(attribute.first);
        }
    }

    void write_model(const node_model& model) {
        printer_.OpenElement(intern(model_element_of(model.name)));
        printer_.PushAttribute("ID", model.name.c_str());
        if (model.canopy_builtin || canopys(model.name))
            printer_.PushAttribute("canopy", "builtin");
        if (model.namesake || namesake(model.name)) printer_.PushAttribute("canopy", "namesake");
        for (const port_model& port : model.ports) {
            printer_.OpenElement(port.dir == port_model::direction::input    ? "input_port"
                                 : port.dir == port_model::direction::output ? "output_port"
                                                                             : "inout_port");
            printer_.PushAttribute("name", written_port(model.name, port.name).c_str());
            if (!port.type.empty()) printer_.PushAttribute("type", port.type.c_str());
            if (port.default_value) printer_.PushAttribute("default", port.default_value->c_str());
            if (!port.description.empty()) printer_.PushText(port.description.c_str());
            printer_.CloseElement();
        }
        // The ports its uses give that the model leaves out (a behavior3 editor's custom node
        // without its properties): the model written declares every port, as
        // <TreeNodesModel> must for a lenient load to accept the uses.
        if (auto use = uses_.find(model.name); use != uses_.end()) {
            for (const std::string& name : use->second.ports) {
                const bool listed =
                    std::any_of(model.ports.begin(), model.ports.end(), [&](const port_model& p) {
                        return p.name == name || written_port(model.name, p.name) == name;
                    });
                if (listed) continue;
                printer_.OpenElement("input_port");
                printer_.PushAttribute("name", name.c_str());
                printer_.CloseElement();
            }
        }
        if (!model.description.empty()) {
            printer_.OpenElement("description");
            printer_.PushText(model.description.c_str());
            printer_.CloseElement();
        }
        printer_.CloseElement();
    }

    // A model's port in the file's words, as the type's nodes' attributes are written (the
    // reader names both in Canopy's): Nav2's Wait's `seconds` is `wait_duration`.
    std::string written_port(std::string_view type, const std::string& port) const {
        const bool foreign = namesake(type);
        const btcpp::param_rows_of rows = btcpp::params_of(type);
        for (const btcpp::param_row* row = rows.first; row != rows.last; ++row) {
            if (row->canopy == port && (foreign || row->write)) return std::string(row->btcpp);
        }
        return port;
    }

    // Whether a type is one of Canopy's own that BehaviorTree.CPP lacks, and not another
    // program's node of that name (which a lenient load learned): its model is marked, so
    // that it reads back as Canopy's (node_model::canopy_builtin).
    bool canopys(std::string_view type) const {
        return (!btcpp::canopy_model_element(type).empty() || type.rfind("behavior3.", 0) == 0) &&
               !namesake(type);
    }

    // Whether the type is another program's node under one of Canopy's names, which a lenient
    // load learned (tree_document::foreign_namesakes).
    bool namesake(std::string_view type) const {
        const auto& namesakes = document_.foreign_namesakes;
        return std::find(namesakes.begin(), namesakes.end(), type) != namesakes.end();
    }

    void write_models() {
        if (document_.models.empty() && uses_.empty() && keyed_trees_.empty()) return;
        printer_.OpenElement("TreeNodesModel");
        std::unordered_set<std::string_view> written;
        for (const node_model& model : document_.models) {
            if (written.insert(model.name).second) write_model(model);
        }
        for (const std::string& type : use_order_) {
            if (written.count(type) != 0) continue;
            const type_use& use = uses_.at(type);
            printer_.OpenElement(intern(model_element_of(type)));
            printer_.PushAttribute("ID", type.c_str());
            if (canopys(type)) printer_.PushAttribute("canopy", "builtin");
            if (namesake(type)) printer_.PushAttribute("canopy", "namesake");
            for (const std::string& port : use.ports) {
                printer_.OpenElement("input_port");
                printer_.PushAttribute("name", port.c_str());
                printer_.CloseElement();
            }
            printer_.CloseElement();
        }
        // A tree's declared keys as the ports of its <SubTree> model, which BehaviorTree.CPP 4
        // reads: a port a <SubTree> does not remap takes its default.
        for (const auto& [name, records] : keyed_trees_) {
            printer_.OpenElement("SubTree");
            printer_.PushAttribute("ID", name.c_str());
            for (const record_set::key_declaration& key : records->declared_keys()) {
                const std::string_view type = btcpp::cpp_type_of(key.type);
                // A behavior3 variable holds any value, as a key BehaviorTree.CPP makes on
                // first write does: nothing to declare.
                if ((key.type == "json" && !key.initial) || key.implicit) continue;
                if (type.empty()) {
                    problem("tree '" + name + "': key '" + key.name + "' has type '" + key.type +
                            "', which is no key type (integer, number, boolean, string)");
                    continue;
                }
                printer_.OpenElement("inout_port");
                printer_.PushAttribute("name", key.name.c_str());
                printer_.PushAttribute("type", std::string(type).c_str());
                if (key.initial) {
                    printer_.PushAttribute("default", attribute_text(key.initial->value).c_str());
                }
                printer_.CloseElement();
            }
            printer_.CloseElement();
        }
        printer_.CloseElement();
    }

    const tree_document& document_;
    tinyxml2::XMLPrinter printer_;
    write_result result_;
    std::vector<std::string> includes_;
    std::unordered_map<std::string, type_use> uses_;
    std::unordered_map<std::string, std::size_t> most_children_;
    std::vector<std::string> use_order_;
    std::vector<std::pair<std::string, const record_set*>> keyed_trees_;
    std::unordered_set<std::string> tree_names_;
    std::unordered_set<std::string> element_names_;
    bool every_uid_ = false;
    bool with_uids_ = false;
};

}  // namespace

write_result write_btcpp_xml(const tree_document& document) {
    write_result result = btcpp_writer(document, false).write();
    report_overrides(document, result);
    return result;
}

write_result write_btcpp_xml_with_uids(const tree_document& document) {
    return btcpp_writer(document, true).write();
}

}  // namespace canopy::detail
