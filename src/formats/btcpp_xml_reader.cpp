// BehaviorTree.CPP XML (3 and 4), Groot and Groot2 files and Groot2 projects, read into a
// document with Canopy's type and parameter names through the table in btcpp_names.hpp.
// See docs/btcpp-xml.md.
#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <unordered_map>
#include <unordered_set>

#include "core/diagnostic_sink.hpp"
#include "core/param_read.hpp"
#include "core/suggest.hpp"
#include "formats/btcpp_names.hpp"
#include "formats/readers.hpp"
#include "formats/sniff.hpp"
#include "formats/text_position.hpp"
#include "formats/utf8.hpp"
#include "formats/xml_decoded_utf8.hpp"
#include "formats/xml_syntax.hpp"

namespace canopy::detail {
namespace {

// Whether an attribute can name a port, as BehaviorTree.CPP's IsAllowedPortName says: it starts
// with a letter and has none of its forbidden characters.
bool port_name(std::string_view name) {
    if (name.empty() || std::isalpha(static_cast<unsigned char>(name.front())) == 0) return false;
    return std::none_of(name.begin(), name.end(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7F ||
               std::string_view(" .:/\\*?|<>&\"'").find(c) != std::string_view::npos;
    });
}

// Why BehaviorTree.CPP 4.10 refuses a port's name in a <SubTree> model (its
// validatePortName), or nothing.
std::string port_name_problem(std::string_view name) {
    if (name.empty()) return "it is empty";
    if (std::isdigit(static_cast<unsigned char>(name.front())) != 0)
        return "it starts with a digit";
    std::string problem = btcpp::model_name_problem(name);
    if (!problem.empty() && name != "Root" && name != "root") return problem;
    if (name == "name" || name == "ID" || name == "_autoremap" || is_condition_param(name))
        return "it is an attribute name BehaviorTree.CPP reserves";
    return {};
}

using tinyxml2::XMLAttribute;
using tinyxml2::XMLElement;

// What an element in a tree is, by its name.
enum class element_kind : std::uint8_t {
    compact,       // <Sleep msec="300"/>: the element names the type
    explicit_id,   // <Action ID="Sleep" msec="300"/>: Action, Condition, Control, Decorator
    subtree,       // <SubTree ID="X" .../>
    subtree_plus,  // BehaviorTree.CPP 3's <SubTreePlus ID="X" .../>
};

element_kind kind_of(std::string_view name) {
    if (name == "Action" || name == "Condition" || name == "Control" || name == "Decorator")
        return element_kind::explicit_id;
    if (name == "SubTree") return element_kind::subtree;
    if (name == "SubTreePlus") return element_kind::subtree_plus;
    return element_kind::compact;
}

std::optional<std::int64_t> parse_id(std::string_view text) {
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty() || value == 0)
        return std::nullopt;
    return value;
}

// BehaviorTree.CPP's convertFromString<bool>.
std::optional<bool> parse_bool(std::string_view text) {
    if (text == "true" || text == "TRUE" || text == "True" || text == "1") return true;
    if (text == "false" || text == "FALSE" || text == "False" || text == "0") return false;
    return std::nullopt;
}

// The key type a C++ type name in a port model stands for, or empty for one Canopy has no
// equivalent of.
std::string trimmed(const char* text) {
    if (text == nullptr) return {};
    std::string_view view(text);
    const std::size_t first = view.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const std::size_t last = view.find_last_not_of(" \t\r\n");
    return std::string(view.substr(first, last - first + 1));
}

source_location line_of(const tinyxml2::XMLNode* node) {
    return {static_cast<std::uint32_t>(node->GetLineNum()), 0};
}

class btcpp_reader {
public:
    btcpp_reader(const std::string& path, read_result& result)
        : result_(result), sink_(path, result.diagnostics) {}

    void read(std::string_view text) {
        if (std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
            text_position position(text);
            sink_.report(
                position.at(bad), diagnostic_code::invalid_utf8,
                "the file is not UTF-8: byte " + std::to_string(bad + 1) + " starts no character");
            result_.complete = false;
            return;
        }
        if (skip_space(text).empty()) {
            sink_.report_file(diagnostic_code::empty_file,
                              "the file is empty; a BehaviorTree.CPP file needs a <root>");
            result_.complete = false;
            return;
        }
        text_size_ = text.size();
        tinyxml2::XMLDocument xml;
        xml.Parse(text.data(), text.size());
        if (xml.Error()) {
            const source_location where{static_cast<std::uint32_t>(xml.ErrorLineNum()), 0};
            if (xml.ErrorID() == tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED) {
                sink_.report(where, diagnostic_code::limit_exceeded,
                             "elements nested deeper than " +
                                 std::to_string(TINYXML2_MAX_ELEMENT_DEPTH) +
                                 " levels, the limit of the XML parser (tinyxml2's "
                                 "TINYXML2_MAX_ELEMENT_DEPTH; XML_ELEMENT_DEPTH_EXCEEDED)");
            } else {
                sink_.report(where, diagnostic_code::syntax_error,
                             std::string("XML syntax error: ") + syntax_problem(xml.ErrorID()) +
                                 " (" + xml.ErrorName() + ")");
            }
            result_.complete = false;
            return;
        }
        if (const tinyxml2::XMLNode* bad = first_node_not_utf8(xml); bad != nullptr) {
            sink_.report({static_cast<std::uint32_t>(bad->GetLineNum()), 0},
                         diagnostic_code::invalid_utf8,
                         "a value is not UTF-8 once its entities are decoded (an entity reference "
                         "broken by other characters?): write each reference whole, as &lt;");
            result_.complete = false;
            return;
        }
        const XMLElement* root = xml.RootElement();
        if (root == nullptr || std::string_view(root->Name()) != "root") {
            sink_.report(root == nullptr ? source_location{} : line_of(root),
                         diagnostic_code::unexpected_element,
                         root == nullptr ? std::string("the file has no element; expected <root>")
                                         : "the root element of a BehaviorTree.CPP file must be "
                                           "<root>, not <" +
                                               std::string(root->Name()) + ">");
            result_.complete = false;
            return;
        }
        read_root(*root);
    }

private:
    void report(source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record_id = std::nullopt) {
        sink_.report(where, code, std::move(message), record_id);
    }

    void read_root(const XMLElement& root) {
        // BehaviorTree.CPP 4 always writes BTCPP_format="4"; Groot 1 and BehaviorTree.CPP 3
        // never wrote it, so a file without it is read as version 3 where the two differ
        // (remapping in <SubTree>).
        const char* format = root.Attribute("BTCPP_format");
        says_version3_ = format != nullptr && std::string_view(format) == "3";
        version3_ = format == nullptr || says_version3_;
        if (const XMLAttribute* main = root.FindAttribute("main_tree_to_execute")) {
            result_.document.main_tree = main->Value();
            result_.document.main_tree_where = line_of(&root);
        }
        // Canopy's writer says the rules of a tree from another runtime's file (or Canopy's
        // own), which BehaviorTree.CPP ignores, as it ignores other attributes (Groot2's
        // project_name, xmlns).
        if (const char* rules = root.Attribute("canopy_rules")) {
            const std::string_view named = rules;
            if (named == "canopy") {
                result_.document.rules = runtime_rules::canopy;
            } else if (named == "behavior3") {
                result_.document.rules = runtime_rules::behavior3;
            } else {
                report(line_of(&root), diagnostic_code::wrong_field_type,
                       R"('canopy_rules' must be "canopy" or "behavior3", not ")" +
                           std::string(named) + "\"");
            }
        }

        // Trees first, so that an element naming a tree, or a <SubTree> model, finds it
        // wherever it stands.
        std::size_t tree_count = 0;
        for (const XMLElement* e = root.FirstChildElement("BehaviorTree"); e != nullptr;
             e = e->NextSiblingElement("BehaviorTree")) {
            ++tree_count;
            if (const char* id = e->Attribute("ID")) tree_ids_.emplace(id, e);
        }
        result_.document.trees.reserve(tree_count);
        // BehaviorTree.CPP takes a tree without a name only as <root>'s one child element.
        std::size_t children = 0;
        for (const XMLElement* e = root.FirstChildElement(); e != nullptr;
             e = e->NextSiblingElement())
            ++children;
        std::size_t unnamed = 0;
        const XMLElement* models = nullptr;
        for (const XMLElement* e = root.FirstChildElement(); e != nullptr;
             e = e->NextSiblingElement()) {
            const std::string_view name = e->Name();
            if (name == "BehaviorTree") {
                read_tree(*e, tree_count, children == 1, unnamed);
            } else if (name == "include") {
                read_include(*e);
            } else if (name == "TreeNodesModel") {
                if (models != nullptr) {
                    report(line_of(e), diagnostic_code::duplicate_field,
                           "a second <TreeNodesModel> (the first is at line " +
                               std::to_string(models->GetLineNum()) +
                               "); BehaviorTree.CPP takes one");
                } else {
                    models = e;
                }
            } else if (const std::string hint =
                           did_you_mean(name, {"BehaviorTree", "include", "TreeNodesModel"});
                       !hint.empty()) {
                // BehaviorTree.CPP ignores other elements here; a near miss is a typo that
                // would lose a tree.
                report(line_of(e), diagnostic_code::unexpected_element,
                       "unexpected element <" + std::string(name) + "> in <root>" + hint);
            }
        }
        if (models != nullptr) read_models(*models);
    }

    // A tree's name (a <BehaviorTree ID> or a <SubTree ID>) that BehaviorTree.CPP 4.10
    // refuses when it reads the file (VerifyXML): one it cannot write or look up, or the name
    // of one of its node types, which every factory registers.
    void check_model_name(std::string_view name, source_location where, const std::string& what,
                          std::optional<std::int64_t> id) {
        if (const std::string problem = btcpp::model_name_problem(name); !problem.empty()) {
            report(where, diagnostic_code::invalid_id,
                   what + " names no tree BehaviorTree.CPP can load: " + problem +
                       "; rename the tree (BehaviorTree.CPP 4.10 refuses the file)",
                   id);
        } else if (btcpp::is_builtin(name)) {
            report(where, diagnostic_code::invalid_id,
                   what + ": '" + std::string(name) +
                       "' is one of BehaviorTree.CPP's node types, which a tree must not be "
                       "named as; rename the tree (BehaviorTree.CPP 4.10 refuses the file)",
                   id);
        }
    }

    // <include path="other.xml"/>: the loader reads it, relative to this file.
    void read_include(const XMLElement& e) {
        if (e.Attribute("ros_pkg") != nullptr) {
            report(line_of(&e), diagnostic_code::unsupported_feature,
                   "<include ros_pkg=...> names a ROS package, which Canopy cannot look up; give "
                   "a path relative to this file instead");
            return;
        }
        const char* path = e.Attribute("path");
        if (path == nullptr) {
            report(line_of(&e), diagnostic_code::missing_field,
                   "<include> has no 'path' attribute");
            return;
        }
        result_.document.includes.push_back({path, line_of(&e)});
    }

    void read_tree(const XMLElement& bt, std::size_t tree_count, bool only_child,
                   std::size_t& unnamed) {
        const source_location where = line_of(&bt);
        record_set& records = result_.document.trees.emplace_back();
        // A node takes some 30 bytes of text at the least: room for a large single tree at
        // once, without regrowing (a guess, not a bound).
        if (tree_count == 1) records.reserve(text_size_ / 48, 0);
        const char* id = bt.Attribute("ID");
        if (id != nullptr && *id == '\0' && !only_child) {
            // BehaviorTree.CPP refuses it: no <SubTree ID> or main_tree_to_execute can name it.
            report(where, diagnostic_code::missing_field,
                   "<BehaviorTree ID=\"\"> has an empty ID; give the tree a name");
            records.set_name("BehaviorTree_" + std::to_string(unnamed++));
        } else if (id != nullptr && *id != '\0') {
            records.set_name(id);
            check_model_name(id, where, "<BehaviorTree ID=\"" + std::string(id) + "\">",
                             std::nullopt);
            auto first = tree_ids_.find(id);
            if (first != tree_ids_.end() && first->second != &bt) {
                report(where, diagnostic_code::duplicate_field,
                       "a second tree with ID '" + std::string(id) + "' (the first is at line " +
                           std::to_string(first->second->GetLineNum()) +
                           "); BehaviorTree.CPP keeps only one of them");
            }
        } else if (only_child) {
            // BehaviorTree.CPP 4 names a tree without ID (or with an empty one)
            // "BehaviorTree_N" and, when it is <root>'s only element, runs it; so does Canopy.
            records.set_name("BehaviorTree_" + std::to_string(unnamed++));
        } else {
            report(where, diagnostic_code::missing_field,
                   "<BehaviorTree> has no 'ID' attribute; BehaviorTree.CPP takes a tree without "
                   "one only as <root>'s single element (<SubTree ID> and main_tree_to_execute "
                   "name trees by it)");
            records.set_name("BehaviorTree_" + std::to_string(unnamed++));
        }
        for (const XMLAttribute* a = bt.FirstAttribute(); a != nullptr; a = a->Next()) {
            // _fullpath and _uid are BehaviorTree.CPP's own (WriteTreeToXML), meaning nothing
            // on a tree.
            if (a->Name()[0] == '_' && std::strcmp(a->Name(), "_fullpath") != 0 &&
                std::strcmp(a->Name(), "_uid") != 0) {
                warn_near_miss(*a, bt, std::nullopt);
                records.add_tree_metadata(a->Name(), a->Value());
            }
        }
        const XMLElement* top = bt.FirstChildElement();
        if (top == nullptr) {
            report(where, diagnostic_code::no_root,
                   "<BehaviorTree" +
                       (records.name().empty() ? std::string() : " ID=\"" + records.name() + "\"") +
                       "> is empty; it must hold exactly one root node");
            return;
        }
        for (const XMLElement* extra = top->NextSiblingElement(); extra != nullptr;
             extra = extra->NextSiblingElement()) {
            report(line_of(extra), diagnostic_code::multiple_roots,
                   "a second root node <" + std::string(extra->Name()) +
                       "> in <BehaviorTree>; a "
                       "tree has exactly one root (wrap them in a <Sequence>)");
        }
        read_nodes(*top, records);
    }

    // The `_uid` of each node (BehaviorTree.CPP's WriteTreeToXML metadata, and what Canopy's
    // writer gives when record ids are not 1..n in preorder), when every node of the tree has a
    // distinct one; else nothing, and ids are 1..n in preorder.
    static bool uses_uids(const XMLElement& top) {
        if (top.Attribute("_uid") == nullptr) return false;
        std::unordered_set<std::int64_t> seen;
        for (const XMLElement* e = &top; e != nullptr; e = next_in_preorder(e, &top)) {
            const char* uid = e->Attribute("_uid");
            std::optional<std::int64_t> id = uid == nullptr ? std::nullopt : parse_id(uid);
            if (!id || !seen.insert(*id).second) return false;
        }
        return true;
    }

    // The next element after e in preorder within top's subtree; a SubTree's children (an
    // error, reported) are not visited.
    static const XMLElement* next_in_preorder(const XMLElement* e, const XMLElement* top) {
        if (kind_of(e->Name()) != element_kind::subtree &&
            kind_of(e->Name()) != element_kind::subtree_plus) {
            if (const XMLElement* child = e->FirstChildElement()) return child;
        }
        while (e != top) {
            if (const XMLElement* sibling = e->NextSiblingElement()) return sibling;
            e = e->Parent()->ToElement();
        }
        return nullptr;
    }

    // The nodes under a <BehaviorTree>, in preorder, without recursion.
    void read_nodes(const XMLElement& top, record_set& records) {
        const bool uids = uses_uids(top);
        std::vector<std::int64_t> parents{0};  // the ids of the open elements' ancestors
        std::int64_t next_id = 1;
        const XMLElement* e = &top;
        while (e != nullptr) {
            const std::int64_t id = uids ? *parse_id(e->Attribute("_uid")) : next_id++;
            const bool subtree = read_node(*e, id, parents.back(), records);
            if (!subtree) {
                if (const XMLElement* child = e->FirstChildElement()) {
                    parents.push_back(id);
                    e = child;
                    continue;
                }
            } else if (const XMLElement* child = e->FirstChildElement()) {
                report(line_of(child), diagnostic_code::unexpected_element,
                       std::string_view(child->Name()) == "remap"
                           ? "<remap> (BehaviorTree.CPP 2) is not supported; remap a port with an "
                             "attribute of <SubTree>: <SubTree ID=\"X\" port=\"{key}\"/>"
                           : "<" + std::string(child->Name()) +
                                 "> in <SubTree>; a subtree takes no children",
                       id);
            }
            // Up to the first ancestor with a next sibling.
            while (e != &top) {
                if (const XMLElement* sibling = e->NextSiblingElement()) {
                    e = sibling;
                    break;
                }
                e = e->Parent()->ToElement();
                parents.pop_back();
            }
            if (e == &top) e = nullptr;
        }
    }

    // Reads one node element into a record; returns whether it is a subtree.
    bool read_node(const XMLElement& e, std::int64_t id, std::int64_t parent_id,
                   record_set& records) {
        const source_location where = line_of(&e);
        const std::string_view element = e.Name();
        element_kind kind = kind_of(element);
        std::string_view type = element;
        std::uint8_t problems = 0;
        const char* describe = e.Attribute("name");
        // BehaviorTree.CPP 4.10 refuses this when it reads the file (its VerifyXML).
        if (element == "ReactiveSequence") {
            int async_children = 0;
            for (const XMLElement* child = e.FirstChildElement("AsyncSequence"); child != nullptr;
                 child = child->NextSiblingElement("AsyncSequence"))
                ++async_children;
            if (async_children > 1) {
                report(where, diagnostic_code::invalid_param,
                       "a ReactiveSequence cannot have more than one async child "
                       "(<AsyncSequence>), as BehaviorTree.CPP refuses it",
                       id);
            }
            // Its check of async children looks each child's element name up as a node
            // type, which the explicit form's is not ("Unknown node type: Action").
            for (const XMLElement* child = e.FirstChildElement(); child != nullptr;
                 child = child->NextSiblingElement()) {
                if (kind_of(child->Name()) != element_kind::explicit_id) continue;
                const char* named = child->Attribute("ID");
                report(line_of(child), diagnostic_code::unexpected_element,
                       "<" + std::string(child->Name()) + " ID=\"" +
                           std::string(named == nullptr ? "..." : named) +
                           "\"> directly in a <ReactiveSequence>: BehaviorTree.CPP 4.10 refuses "
                           "the file (\"Unknown node type: " +
                           child->Name() + "\"); write the node in the compact form, <" +
                           std::string(named == nullptr ? "Type" : named) + "/>",
                       id);
            }
        }
        // BehaviorTree.CPP 4.10 refuses a name with a control character other than a tab or a
        // line break.
        if (describe != nullptr) {
            for (const char* c = describe; *c != '\0'; ++c) {
                const auto byte = static_cast<unsigned char>(*c);
                if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7F) {
                    report(where, diagnostic_code::invalid_param,
                           "the name of <" + std::string(element) +
                               "> contains a control character (" + std::to_string(byte) +
                               "), which BehaviorTree.CPP 4.10 refuses",
                           id);
                    break;
                }
            }
        }
        // The file's own elements name no node type: BehaviorTree.CPP refuses them inside a
        // tree too, and a type of such a name could not be written back as an element.
        if (kind == element_kind::compact &&
            (element == "BehaviorTree" || element == "root" || element == "include" ||
             element == "TreeNodesModel")) {
            report(where, diagnostic_code::unexpected_element,
                   "<" + std::string(element) +
                       "> inside a tree; trees do not nest: a tree uses another with "
                       "<SubTree ID=\"...\"/>",
                   id);
            problems |= record_set::bad_type;
        }
        if (kind == element_kind::explicit_id) {
            // An empty ID names nothing: BehaviorTree.CPP refuses it as a missing one.
            if (const char* named = e.Attribute("ID"); named != nullptr && *named != '\0') {
                type = named;
            } else {
                report(where, diagnostic_code::missing_field,
                       "<" + std::string(element) + "> has no 'ID' attribute naming its type" +
                           (named != nullptr ? " (it is empty)" : ""),
                       id);
                type = {};
                problems |= record_set::bad_type;
            }
        }
        // An element that names a tree of this file is a subtree (BehaviorTree.CPP 3 allowed
        // it; examples still do).
        const bool named_tree = kind == element_kind::compact && tree_ids_.count(element) != 0;
        if (named_tree && !says_version3_) {
            report(where, diagnostic_code::unknown_type,
                   "<" + std::string(element) +
                       "/> names a tree of this file, as BehaviorTree.CPP "
                       "3 allowed; BehaviorTree.CPP 4 refuses it (\"Node not recognized: " +
                       std::string(element) + "\"): write <SubTree ID=\"" + std::string(element) +
                       "\"/>",
                   id);
        }
        const bool subtree =
            kind == element_kind::subtree || kind == element_kind::subtree_plus || named_tree;
        if (subtree) {
            records.add(id, parent_id, "SubTree", describe == nullptr ? "" : describe, where);
            if (named_tree) {
                records.set_written_type(element);
                record_set::raw_param tree{"tree", std::string(element), where, true};
                tree.unwritten = true;  // the element's name says it
                records.add_param(std::move(tree));
            } else if (const char* tree = e.Attribute("ID"); tree != nullptr && *tree != '\0') {
                if (kind == element_kind::subtree)
                    check_model_name(tree, where, "<SubTree ID=\"" + std::string(tree) + "\">", id);
                records.set_written_type(element);
                record_set::raw_param named{"tree", std::string(tree), where, true};
                named.write_as("ID");
                records.add_param(std::move(named));
            } else {
                report(where, diagnostic_code::missing_field,
                       "<" + std::string(element) + "> has no 'ID' attribute naming its tree" +
                           (tree != nullptr ? " (it is empty)" : ""),
                       id);
            }
            // BehaviorTree.CPP 3's <SubTree> remaps a port to a key by its bare name.
            read_attributes(e, id, records, {},
                            kind == element_kind::subtree && version3_ ? remapping::bare_keys
                                                                       : remapping::ports);
            return true;
        }
        const btcpp::param_rows_of rows = btcpp::params_of(type);
        records.add(id, parent_id, btcpp::read_type(type), describe == nullptr ? "" : describe,
                    where);
        records.set_written_type(type);
        if (problems != 0) records.mark_problem(problems);
        read_attributes(
            e, id, records, rows,
            kind == element_kind::explicit_id ? remapping::explicit_node : remapping::node);
        return false;
    }

    enum class remapping : std::uint8_t { node, explicit_node, ports, bare_keys };

    void read_attributes(const XMLElement& e, std::int64_t id, record_set& records,
                         btcpp::param_rows_of rows, remapping mode) {
        const source_location where = line_of(&e);
        const bool subtree = mode == remapping::ports || mode == remapping::bare_keys;
        for (const XMLAttribute* a = e.FirstAttribute(); a != nullptr; a = a->Next()) {
            const char* name = a->Name();
            std::string_view value = a->Value();
            // BehaviorTree.CPP 4's "same name" shorthand, on any port: the key of the port's
            // own name, read from here on as if written so (mapped and converted alike).
            std::string same_name;
            const std::string_view written = value;
            if (value == "{=}") {
                same_name = "{" + std::string(name) + "}";
                value = same_name;
            }
            // A key between spaces ("{key} ") is the key, as BehaviorTree.CPP trims them.
            if (const std::size_t front = value.find_first_not_of(' '),
                back = value.find_last_not_of(' ');
                front != std::string_view::npos && (front != 0 || back + 1 != value.size()) &&
                value[front] == '{' && value[back] == '}') {
                value = value.substr(front, back - front + 1);
            }
            // The file's words when the value or the name changes.
            auto add = [&](std::string_view canopy_name, param_value v, bool from_text,
                           double key_scale = 1) {
                record_set::raw_param p{std::string(canopy_name), std::move(v), where, from_text};
                p.key_scale = key_scale;
                const auto* text = std::get_if<std::string>(&p.value);
                const bool value_differs = text == nullptr || *text != written;
                if (canopy_name != name || value_differs) {
                    p.write_as(canopy_name != name ? std::string(name) : std::string(),
                               value_differs ? std::optional<param_value>(std::string(written))
                                             : std::nullopt);
                }
                records.add_param(std::move(p));
            };
            if (name[0] == '_') {
                reserved_attribute(e, *a, id, records, subtree);
                continue;
            }
            if (std::strcmp(name, "name") == 0) continue;  // the describe
            // No port can have such a name (BehaviorTree.CPP's IsAllowedPortName): it skips
            // the attribute (`xmlns:x`, `editor.color`), and so does Canopy.
            if (!subtree && !port_name(name)) continue;
            if (std::strcmp(name, "ID") == 0) {
                if (mode == remapping::node) {
                    report(where, diagnostic_code::unknown_field,
                           "attribute 'ID' on <" + std::string(e.Name()) +
                               ">: only <Action>, <Condition>, <Control>, <Decorator> and "
                               "<SubTree> name their type with ID",
                           id);
                }
                continue;
            }
            if (mode == remapping::bare_keys && !value.empty() && !is_braced(value)) {
                add(name, "{" + std::string(value) + "}", true);
                continue;
            }
            const btcpp::param_row* row = nullptr;
            for (const btcpp::param_row* r = rows.first; r != rows.last; ++r) {
                if (r->btcpp == name) row = r;
            }
            if (row == nullptr && !says_version3_ && !rows.empty()) {
                const auto* const renamed =
                    std::find_if(std::begin(btcpp::version3_ports), std::end(btcpp::version3_ports),
                                 [&](const btcpp::renamed_port& p) {
                                     return p.type == rows.first->type && p.version3 == name;
                                 });
                if (renamed != std::end(btcpp::version3_ports)) {
                    report(where, diagnostic_code::unknown_param,
                           "<" + std::string(e.Name()) + "> has no port '" + name +
                               "' in a BehaviorTree.CPP 4 file (version 3's name; write '" +
                               std::string(renamed->version4) + "'" +
                               (version3_ ? ", or BTCPP_format=\"3\" on <root> for a version 3 "
                                            "file: BehaviorTree.CPP 4 reads a file without it "
                                            "as version 4"
                                          : "") +
                               ")",
                           id);
                    continue;
                }
            }
            if (row == nullptr) {
                add(name, std::string(value), true);
            } else if (row->conversion == btcpp::unit::same) {
                add(row->canopy, std::string(value), true);
            } else if (row->conversion == btcpp::unit::seconds) {
                double seconds = 0;
                auto [end, error] =
                    std::from_chars(value.data(), value.data() + value.size(), seconds);
                if (!value.empty() && error == std::errc() && end == value.data() + value.size() &&
                    std::isfinite(seconds)) {
                    add(row->canopy, seconds, false);
                } else {
                    add(row->canopy, std::string(value), true);  // a key, or text reported later
                }
            } else if (is_braced(value)) {
                // The key holds milliseconds (BehaviorTree.CPP's port is an unsigned): the
                // parameter in seconds reads its value times 0.001.
                add(row->canopy, std::string(value), true, 0.001);
            } else if (std::optional<double> seconds = read_milliseconds(*row, value, where, id)) {
                add(row->canopy, *seconds, false);
            }
        }
    }

    // A literal port in milliseconds, as Canopy's parameter in seconds; nothing after a report.
    std::optional<double> read_milliseconds(const btcpp::param_row& row, std::string_view value,
                                            source_location where, std::int64_t id) {
        std::uint64_t milliseconds = 0;
        auto [end, error] =
            std::from_chars(value.data(), value.data() + value.size(), milliseconds);
        if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
            report(where, diagnostic_code::wrong_param_type,
                   "'" + std::string(row.btcpp) + "' of '" + std::string(row.type) +
                       "' must be a whole number of milliseconds, not \"" + std::string(value) +
                       "\"",
                   id);
            return std::nullopt;
        }
        return static_cast<double>(milliseconds) / 1000.0;
    }

    // An attribute whose name starts with '_'.
    void reserved_attribute(const XMLElement& e, const XMLAttribute& a, std::int64_t id,
                            record_set& records, bool subtree) {
        const source_location where = line_of(&e);
        const std::string_view name = a.Name();
        if (name == "_uid" || name == "_fullpath") return;  // metadata: ids, editor paths
        if (subtree && (name == "_autoremap" || name == "__autoremap" ||
                        (version3_ && name == "__shared_blackboard"))) {
            if (std::optional<bool> on = parse_bool(a.Value())) {
                record_set::raw_param p{"_autoremap", *on, where};
                p.write_as(name == "_autoremap" ? std::string() : std::string(name),
                           std::string(a.Value()));
                records.add_param(std::move(p));
            } else {
                report(where, diagnostic_code::wrong_param_type,
                       "'" + std::string(name) + "' must be true or false, not \"" +
                           std::string(a.Value()) + "\"",
                       id);
            }
            return;
        }
        if (is_condition_param(name)) {  // a script the builder compiles
            records.add_param(std::string(name), std::string(a.Value()), where, true);
            return;
        }
        // BehaviorTree.CPP takes any other as no port (an editor's: MoveIt Pro's _collapsed).
        if (subtree && name == "__shared_blackboard") {  // version 3 took it above
            sink_.warn(where, diagnostic_code::unsupported_feature,
                       "'__shared_blackboard' is BehaviorTree.CPP 3's; a BTCPP_format=\"4\" file "
                       "ignores it, and so does Canopy (kept as metadata): write "
                       "_autoremap=\"true\" to share the parent's keys",
                       id);
        } else {
            warn_near_miss(a, e, id);
        }
        records.add_metadata(std::string(name), a.Value());
    }

    // An editor attribute whose name is a near miss of one BehaviorTree.CPP reserves is likely
    // a typo that loses a condition: kept, but said.
    void warn_near_miss(const XMLAttribute& a, const XMLElement& e,
                        std::optional<std::int64_t> id) {
        static const std::vector<std::string_view> reserved = {
            "_failureIf", "_successIf", "_skipIf", "_while",    "_onSuccess", "_onFailure",
            "_onHalted",  "_post",      "_uid",    "_fullpath", "_autoremap"};
        const std::string_view near = nearest(a.Name(), reserved);
        if (near.empty()) return;
        sink_.warn(line_of(&e), diagnostic_code::unknown_field,
                   "attribute '" + std::string(a.Name()) + "' on <" + std::string(e.Name()) +
                       "> is kept as editor metadata, but it looks like a misspelled '" +
                       std::string(near) + "', which BehaviorTree.CPP reserves (did you mean '" +
                       std::string(near) + "'?)",
                   id);
    }

    // <TreeNodesModel>: node models, and the ports of <SubTree> models as the keys of trees.
    void read_models(const XMLElement& models) {
        for (const XMLElement* e = models.FirstChildElement(); e != nullptr;
             e = e->NextSiblingElement()) {
            const std::string_view element = e->Name();
            std::optional<arity> shape;
            if (element == "Action" || element == "Condition") {
                shape = arity::leaf;
            } else if (element == "Decorator") {
                shape = arity::decorator;
            } else if (element == "Control") {
                shape = arity::composite;
            } else if (element != "SubTree") {
                report(line_of(e), diagnostic_code::unexpected_element,
                       "unexpected element <" + std::string(element) +
                           "> in <TreeNodesModel>; it holds <Action>, <Condition>, <Control>, "
                           "<Decorator> and <SubTree>" +
                           did_you_mean(element, {"Action", "Condition", "Control", "Decorator",
                                                  "SubTree"}));
                continue;
            }
            const char* id = e->Attribute("ID");
            if (id == nullptr) {
                report(line_of(e), diagnostic_code::missing_field,
                       "<" + std::string(element) + "> in <TreeNodesModel> has no 'ID' attribute");
                continue;
            }
            node_model model;
            model.name = id;
            model.shape = shape;
            model.condition = element == "Condition";
            model.canopy_builtin = e->Attribute("canopy", "builtin") != nullptr;
            // Canopy's writer marks the file's own node of one of Canopy's names so, that it
            // reads back as the file's own whatever its ports (Nav2's Wait).
            model.namesake = e->Attribute("canopy", "namesake") != nullptr;
            model.where = line_of(e);
            read_ports(*e, model);
            if (element == "SubTree") {
                declare_keys(model);
            } else {
                result_.document.models.push_back(std::move(model));
            }
        }
    }

    void read_ports(const XMLElement& e, node_model& model) {
        for (const XMLElement* p = e.FirstChildElement(); p != nullptr;
             p = p->NextSiblingElement()) {
            const std::string_view element = p->Name();
            port_model port;
            if (element == "input_port") {
                port.dir = port_model::direction::input;
            } else if (element == "output_port") {
                port.dir = port_model::direction::output;
            } else if (element == "inout_port" || element == "bidirectional_port") {
                port.dir = port_model::direction::inout;
            } else {
                // <description> (BehaviorTree.CPP 4's schema), <MetadataFields> and the like.
                if (element == "description") model.description = trimmed(p->GetText());
                continue;
            }
            const char* name = p->Attribute("name");
            if (name == nullptr) {
                report(line_of(p), diagnostic_code::missing_field,
                       "<" + std::string(element) + "> in the model of '" + model.name +
                           "' has no 'name' attribute");
                continue;
            }
            if (!model.shape) {  // a <SubTree> model: BehaviorTree.CPP reads its ports
                if (const std::string problem = port_name_problem(name); !problem.empty()) {
                    report(line_of(p), diagnostic_code::invalid_param,
                           "port '" + std::string(name) + "' of the <SubTree ID=\"" + model.name +
                               "\"> model: " + problem +
                               ", and BehaviorTree.CPP 4.10 refuses such a port's name");
                }
            }
            // In Canopy's words, as the reader names the attributes of the type's nodes
            // (Nav2's Wait's wait_duration is Canopy's seconds).
            port.name = name;
            const btcpp::param_rows_of rows = btcpp::params_of(model.name);
            for (const btcpp::param_row* row = rows.first; row != rows.last; ++row) {
                if (row->btcpp == port.name) {
                    port.name = std::string(row->canopy);
                    break;
                }
            }
            if (const char* type = p->Attribute("type")) port.type = type;
            if (const char* value = p->Attribute("default")) port.default_value = value;
            // BehaviorTree.CPP writes the description as the element's text; Groot2 too.
            if (const char* description = p->Attribute("description")) {
                port.description = description;
            } else {
                port.description = trimmed(p->GetText());
            }
            model.ports.push_back(std::move(port));
        }
    }

    // A <SubTree ID="X"> model's ports are the keys of tree X, and its defaults what a use
    // of X that does not remap a port gets, as BehaviorTree.CPP fills it in: a value, or the
    // user's key of a "{key}" default. Ports of a type Canopy has no key type for, or of none
    // (Groot 1 never wrote one), are not declared: those keys stay implicit.
    void declare_keys(const node_model& model) {
        record_set* tree = nullptr;
        for (record_set& records : result_.document.trees) {
            if (records.name() == model.name) tree = &records;
        }
        if (tree == nullptr) return;  // a tree of another file: its own file declares its keys
        for (const port_model& port : model.ports) {
            // BehaviorTree.CPP 3's flag, which Groot 1 listed as a port.
            if (port.name == "__shared_blackboard" || port.name == "__autoremap") continue;
            if (port.default_value) {
                tree->add_port_default(
                    record_set::raw_param{port.name, *port.default_value, model.where, true});
            }
            const std::string_view type = btcpp::key_type_of(port.type);
            if (type.empty()) continue;
            record_set::key_declaration key;
            key.name = port.name;
            key.type = std::string(type);
            key.where = model.where;
            // The tree run as the main tree starts the key from its default value.
            if (port.default_value && !is_braced(*port.default_value)) {
                key.initial =
                    record_set::raw_param{port.name, *port.default_value, model.where, true};
            }
            tree->declare_key(std::move(key));
        }
    }

    read_result& result_;
    diagnostic_sink sink_;
    bool version3_ = false;
    // The file says BTCPP_format="3". BehaviorTree.CPP 4 reads a file without the attribute
    // as version 4 (with a warning), so what it refuses there is refused unless the file
    // says it is version 3.
    bool says_version3_ = false;
    std::size_t text_size_ = 0;
    // The first <BehaviorTree> of each ID; views into the parsed document.
    std::unordered_map<std::string_view, const XMLElement*> tree_ids_;
};

std::string btcpp_type_word(std::string_view registered) {
    return std::string(btcpp::written_type(registered));
}

const vocabulary btcpp_words{btcpp_type_word, btcpp::written_param};

}  // namespace

read_result read_btcpp_xml(std::string_view text, const std::string& path) {
    read_result result;
    result.document.implicit_keys = true;          // BehaviorTree.CPP creates entries on first use
    result.document.rules = runtime_rules::btcpp;  // its scripts checked as they run
    result.document.canopy_names = false;
    result.document.words = &btcpp_words;
    btcpp_reader(path, result).read(text);
    return result;
}

bool claims_btcpp_xml(std::string_view text) {
    return first_xml_element(text) == "root";
}

}  // namespace canopy::detail
