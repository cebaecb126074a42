// A running tree as Groot2 wants it: BehaviorTree.CPP 4 XML in which a node's `_uid` is the
// number the status and hook messages name it by, and every node is named and parameterised
// as its file wrote it (`<Sleep msec="1000">`, `{@key}`, a SubTree's remappings), whatever
// the file's format. Written here rather than through the BehaviorTree.CPP writer, which
// translates Canopy's names into BehaviorTree.CPP's: a behavior3 file's `Wait` or Nav2's would
// come out as `Sleep`.
#include "canopy/views/groot2_tree.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <vector>

#include "canopy/views/write.hpp"
#include "core/json_text.hpp"
#include "formats/btcpp_names.hpp"
#include "views/written_params.hpp"

namespace canopy {

using namespace detail;  // the written parameters, and BehaviorTree.CPP XML's names

namespace {

// Text as an attribute's value between double quotes. XML 1.0 cannot hold the other control
// characters at all, escaped or not: they are left out.
void append_attribute_text(std::string& out, std::string_view text) {
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\t': out += "&#9;"; break;
            case '\n': out += "&#10;"; break;
            case '\r': out += "&#13;"; break;
            default:
                if (static_cast<unsigned char>(c) >= 0x20) out += c;
        }
    }
}

// One element's opening tag, written attribute by attribute; a name given twice keeps its
// first value, as an XML element can hold each name once.
class element {
public:
    element(std::string& out, std::string_view name) : out_(out) {
        out_ += '<';
        out_ += name;
    }
    void attribute(std::string_view name, std::string_view value) {
        if (!names_.insert(std::string(name)).second) return;
        out_ += ' ';
        out_ += name;
        out_ += "=\"";
        append_attribute_text(out_, value);
        out_ += '"';
    }

private:
    std::string& out_;
    std::set<std::string> names_;
};

// The element a type of this arity has in <TreeNodesModel> and in the explicit form.
std::string_view model_element(const tree& t, tree::index i) {
    switch (t.type(i).arity) {
        case arity::composite: return "Control";
        case arity::decorator: return "Decorator";
        default: break;
    }
    return btcpp::canopy_model_element(t.type_name(i)) == "Condition" ? "Condition" : "Action";
}

// A <BehaviorTree> being written: a subtree's put in place is one of its own.
struct tree_element {
    std::string name;
    std::vector<record_set::metadata_entry> notes;
    std::string body;
};

// What <TreeNodesModel> says of a type the file names: its element and the ports its nodes
// are given, first seen first.
struct type_model {
    std::string_view element;
    std::vector<std::string> ports;
};

}  // namespace

std::string groot2_tree_name(const tree& t) {
    return t.name().empty() ? "MainTree" : t.name();
}

std::string to_groot2_xml(const tree& t) {
    std::vector<tree_element> trees(1);
    trees[0].name = groot2_tree_name(t);
    trees[0].notes = t.tree_metadata();
    std::set<std::string> tree_names{trees[0].name};  // copies: `trees` grows
    // Every SubTree's instance name, first, so that no node's type is taken for one.
    std::vector<std::string> instance_name(t.size());
    for (tree::index i = 0; i < t.size(); ++i) {
        if (t.type_name(i) != "SubTree") continue;
        for (const param& p : t.params(i)) {
            const auto* named = std::get_if<std::string>(&p.value);
            if (p.name == "tree" && named != nullptr) instance_name[i] = *named;
        }
        if (instance_name[i].empty()) instance_name[i] = "SubTree_" + std::to_string(i + 1);
    }
    for (const std::string& name : instance_name) {
        if (!name.empty()) tree_names.insert(name);
    }

    std::map<std::string, type_model> models;
    std::vector<std::string> model_order;
    // Which <BehaviorTree> each node goes in, and the path Groot2 names a subtree use by.
    std::vector<std::size_t> owner(t.size(), 0);
    std::vector<std::string> path(1, trees[0].name);
    struct open_element {
        tree::index end;
        std::size_t owner;
        std::size_t indent;
        std::string name;
    };
    std::vector<open_element> open;
    const auto close_until = [&](tree::index i) {
        while (!open.empty() && i >= open.back().end) {
            std::string& body = trees[open.back().owner].body;
            body.append(open.back().indent, ' ');
            body += "</" + open.back().name + ">\n";
            open.pop_back();
        }
    };
    std::vector<std::size_t> depth_in(t.size(), 0);  // depth within its <BehaviorTree>
    for (tree::index i = 0; i < t.size(); ++i) {
        close_until(i);
        const tree::index parent = t.parent(i);
        if (parent != tree::no_parent) {
            owner[i] = owner[parent];
            depth_in[i] = depth_in[parent] + 1;
            if (t.type_name(parent) == "SubTree") {
                const std::string describe(t.describe(parent));
                path.push_back(path[owner[parent]] + "/" +
                               (describe.empty()
                                    ? instance_name[parent] + "::" + std::to_string(parent + 1)
                                    : describe));
                owner[i] = trees.size();
                depth_in[i] = 0;
                tree_element instance;
                instance.name = instance_name[parent];
                instance.notes.push_back({"_fullpath", path.back()});
                trees.push_back(std::move(instance));
            }
        }
        std::string& body = trees[owner[i]].body;
        const std::size_t indent = 4 * (depth_in[i] + 2);
        body.append(indent, ' ');
        const bool subtree = t.type_name(i) == "SubTree";
        const std::string written_type(t.written_type(i));
        const bool explicit_form = !btcpp::is_xml_name(written_type) ||
                                   btcpp::is_reserved_element(written_type) ||
                                   tree_names.count(written_type) != 0;
        std::string element_name = subtree         ? "SubTree"
                                   : explicit_form ? std::string(model_element(t, i))
                                                   : written_type;
        element tag(body, element_name);
        if (subtree) {
            tag.attribute("ID", instance_name[i]);
        } else if (explicit_form) {
            tag.attribute("ID", written_type);
        }
        if (!t.describe(i).empty()) tag.attribute("name", t.describe(i));
        tag.attribute("_uid", std::to_string(i + 1));
        for (auto [note, end] = t.metadata(i); note != end; ++note) {
            if (btcpp::is_xml_name(note->name) && note->name[0] == '_' && note->name != "_fullpath")
                tag.attribute(note->name, note->value);
        }
        type_model* model = nullptr;
        if (!subtree) {
            auto [found, added] = models.try_emplace(written_type);
            if (added) {
                found->second.element = model_element(t, i);
                model_order.push_back(written_type);
            }
            model = &found->second;
        }
        for (const written_param& p : written_params_of(t, i)) {
            // A SubTree's tree is its ID already.
            if (subtree && (p.name == "ID" || p.name == "tree") && p.text() == instance_name[i])
                continue;
            if (!btcpp::is_xml_name(p.name) || p.name == "name" || p.name == "ID") continue;
            tag.attribute(p.name, p.text());
            if (model != nullptr && p.name[0] != '_' &&
                std::find(model->ports.begin(), model->ports.end(), p.name) == model->ports.end())
                model->ports.push_back(p.name);
        }
        const bool has_children = !subtree && t.child_count(i) != 0;
        if (has_children) {
            body += ">\n";
            open.push_back({t.subtree_end(i), owner[i], indent, element_name});
        } else {
            body += "/>\n";
        }
    }
    close_until(static_cast<tree::index>(t.size()));

    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    {
        element root(out, "root");
        root.attribute("BTCPP_format", "4");
        root.attribute("main_tree_to_execute", trees[0].name);
    }
    out += ">\n";
    for (const tree_element& written : trees) {
        out += "    ";
        element tag(out, "BehaviorTree");
        tag.attribute("ID", written.name);
        for (const record_set::metadata_entry& note : written.notes) {
            if (btcpp::is_xml_name(note.name) && note.name[0] == '_')
                tag.attribute(note.name, note.value);
        }
        out += ">\n" + written.body + "    </BehaviorTree>\n";
    }
    // A model for each type Groot2 may not know as the file uses it: every type BehaviorTree.CPP
    // lacks, and a type of BehaviorTree.CPP's name given ports (another format's Repeat takes
    // `count`), as BehaviorTree.CPP's own publisher sends the models of every type it runs.
    const record_set::key_declaration* first_key = nullptr;
    const record_set declared = to_records(t);
    if (!declared.declared_keys().empty()) first_key = &declared.declared_keys().front();
    std::string model_text;
    for (const std::string& type : model_order) {
        const type_model& model = models.at(type);
        if (btcpp::is_builtin(type) && model.ports.empty()) continue;
        model_text += "        ";
        element tag(model_text, model.element);
        tag.attribute("ID", type);
        if (model.ports.empty()) {
            model_text += "/>\n";
            continue;
        }
        model_text += ">\n";
        for (const std::string& port : model.ports) {
            model_text += "            ";
            element port_tag(model_text, "input_port");
            port_tag.attribute("name", port);
            model_text += "/>\n";
        }
        model_text += "        </" + std::string(model.element) + ">\n";
    }
    // The main tree's declared keys as the ports of its <SubTree> model, which BehaviorTree.CPP
    // 4 reads.
    if (first_key != nullptr) {
        model_text += "        ";
        element tag(model_text, "SubTree");
        tag.attribute("ID", trees[0].name);
        model_text += ">\n";
        for (const record_set::key_declaration& key : declared.declared_keys()) {
            const std::string_view type = btcpp::cpp_type_of(key.type);
            if (type.empty()) continue;
            model_text += "            ";
            element port(model_text, "inout_port");
            port.attribute("name", key.name);
            port.attribute("type", type);
            if (key.initial) port.attribute("default", attribute_text(key.initial->value));
            model_text += "/>\n";
        }
        model_text += "        </SubTree>\n";
    }
    if (!model_text.empty())
        out += "    <TreeNodesModel>\n" + model_text + "    </TreeNodesModel>\n";
    out += "</root>\n";
    return out;
}

}  // namespace canopy
