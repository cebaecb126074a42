#include <tinyxml2.h>

#include <charconv>
#include <iterator>

#include "core/diagnostic_sink.hpp"
#include "core/suggest.hpp"
#include "formats/flat_sections.hpp"
#include "formats/readers.hpp"
#include "formats/sniff.hpp"
#include "formats/text_position.hpp"
#include "formats/utf8.hpp"
#include "formats/xml_decoded_utf8.hpp"
#include "formats/xml_syntax.hpp"

namespace canopy::detail {
namespace {

std::optional<std::int64_t> parse_integer(std::string_view text) {
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

bool is_blank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

class flat_xml_reader {
public:
    flat_xml_reader(const std::string& path, read_result& result) : path_(path), result_(result) {}

    void read(std::string_view text) {
        if (std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
            text_position position(text);
            report(
                position.at(bad), diagnostic_code::invalid_utf8,
                "the file is not UTF-8: byte " + std::to_string(bad + 1) + " starts no character");
            result_.complete = false;
            return;
        }
        tinyxml2::XMLDocument document;
        document.Parse(text.data(), text.size());
        if (document.Error()) {
            report({static_cast<std::uint32_t>(document.ErrorLineNum()), 0},
                   diagnostic_code::syntax_error,
                   std::string("XML syntax error: ") + syntax_problem(document.ErrorID()) + " (" +
                       document.ErrorName() + ")");
            result_.complete = false;
            return;
        }
        if (const tinyxml2::XMLNode* bad = first_node_not_utf8(document); bad != nullptr) {
            report(
                {static_cast<std::uint32_t>(bad->GetLineNum()), 0}, diagnostic_code::invalid_utf8,
                "a value is not UTF-8 once its entities are decoded (an entity reference broken by "
                "other characters?): write each reference whole, as &lt;");
            result_.complete = false;
            return;
        }
        const tinyxml2::XMLElement* root = document.RootElement();
        if (root == nullptr) {
            report({}, diagnostic_code::unexpected_element,
                   "the file has no root element; expected <tree>");
            result_.complete = false;
            return;
        }
        if (std::string_view(root->Name()) == "trees") {
            for (const tinyxml2::XMLElement* extra = root->NextSiblingElement(); extra != nullptr;
                 extra = extra->NextSiblingElement()) {
                report(line_of(extra), diagnostic_code::unexpected_element,
                       "a second root element <" + std::string(extra->Name()) +
                           ">; a file holds one <trees>");
            }
            read_trees(*root);
            return;
        }
        if (std::string_view(root->Name()) != "tree") {
            std::string hint = root->Attribute("BTCPP_format") != nullptr ||
                                       std::string_view(root->Name()) == "root"
                                   ? " (this looks like BehaviorTree.CPP XML, a different format)"
                                   : "";
            report(line_of(root), diagnostic_code::unexpected_element,
                   "the root element must be <tree> or <trees>, not <" + std::string(root->Name()) +
                       ">" + hint);
            result_.complete = false;
            return;
        }
        for (const tinyxml2::XMLElement* extra = root->NextSiblingElement(); extra != nullptr;
             extra = extra->NextSiblingElement()) {
            report(line_of(extra), diagnostic_code::unexpected_element,
                   "a second root element <" + std::string(extra->Name()) +
                       ">; a file holds one <tree>");
        }
        read_tree(*root, true);
    }

private:
    static source_location line_of(const tinyxml2::XMLNode* node) {
        return {static_cast<std::uint32_t>(node->GetLineNum()), 0};
    }

    void report(source_location where, diagnostic_code code, std::string message,
                std::optional<std::int64_t> record_id = std::nullopt) {
        sink_.report(where, code, std::move(message), record_id);
    }

    // A child of `parent` as an element, or null: text other than white space is reported;
    // comments and the like pass.
    const tinyxml2::XMLElement* element_or_report_text(
        const tinyxml2::XMLNode& child, std::string_view parent,
        std::optional<std::int64_t> record_id = std::nullopt) {
        if (const tinyxml2::XMLElement* element = child.ToElement()) return element;
        const tinyxml2::XMLText* text = child.ToText();
        if (text != nullptr && !is_blank(text->Value())) {
            report(line_of(text), diagnostic_code::unexpected_element,
                   "unexpected text in <" + std::string(parent) + ">", record_id);
        }
        return nullptr;
    }

    void read_rules(const tinyxml2::XMLElement& element, const tinyxml2::XMLAttribute& rules) {
        if (std::optional<runtime_rules> named = rules_named(rules.Value())) {
            set_rules(result_.document, *named);
            return;
        }
        report(line_of(&element), diagnostic_code::wrong_field_type,
               R"('rules' must be "btcpp" or "behavior3", not ")" + std::string(rules.Value()) +
                   "\"" + did_you_mean(rules.Value(), {"btcpp", "behavior3"}));
    }

    // <trees main_tree=".." rules=".."><include path=".."/><tree name="..">...</tree>...</trees>
    void read_trees(const tinyxml2::XMLElement& root) {
        tree_document& document = result_.document;
        for (const tinyxml2::XMLAttribute* a = root.FirstAttribute(); a != nullptr; a = a->Next()) {
            if (std::string_view(a->Name()) == "main_tree") {
                document.main_tree = a->Value();
                document.main_tree_where = line_of(&root);
            } else if (std::string_view(a->Name()) == "rules") {
                read_rules(root, *a);
            } else {
                report(line_of(&root), diagnostic_code::unknown_field,
                       "unknown attribute '" + std::string(a->Name()) + "' on <trees>" +
                           did_you_mean(a->Name(), {"main_tree", "rules"}));
            }
        }
        bool first = true;
        for (const tinyxml2::XMLNode* child = root.FirstChild(); child != nullptr;
             child = child->NextSibling()) {
            const tinyxml2::XMLElement* element = element_or_report_text(*child, "trees");
            if (element == nullptr) continue;
            const std::string_view name = element->Name();
            if (name == "tree") {
                if (!first) document.trees.emplace_back();
                first = false;
                seen_blackboard_ = false;
                read_tree(*element);
            } else if (name == "models") {
                read_xml_models(*element, sink_, document.models);
            } else if (name == "overrides") {
                read_xml_overrides(*element, sink_, document.overrides);
            } else if (name == "include") {
                const char* path = element->Attribute("path");
                if (path == nullptr || element->FirstAttribute()->Next() != nullptr) {
                    report(line_of(element), diagnostic_code::missing_field,
                           "<include> takes one attribute, path: <include path=\"other.xml\"/>");
                } else {
                    document.includes.push_back({path, line_of(element)});
                }
            } else {
                report(line_of(element), diagnostic_code::unexpected_element,
                       "unexpected element <" + std::string(name) + "> in <trees>" +
                           did_you_mean(name, {"tree", "include", "models", "overrides"}) +
                           "; it holds <tree>, <include>, <models> and <overrides> elements");
            }
        }
        // A project: files it includes hold its trees, and it none of its own.
        if (first) document.trees.clear();
    }

    // `alone`: the file's root element, which may say the file's rules.
    void read_tree(const tinyxml2::XMLElement& root, bool alone = false) {
        for (const tinyxml2::XMLAttribute* a = root.FirstAttribute(); a != nullptr; a = a->Next()) {
            if (std::string_view(a->Name()) == "name") {
                tree().set_name(a->Value());
            } else if (alone && std::string_view(a->Name()) == "rules") {
                read_rules(root, *a);
            } else {
                report(line_of(&root), diagnostic_code::unknown_field,
                       "unknown attribute '" + std::string(a->Name()) + "' on <tree>" +
                           did_you_mean(a->Name(),
                                        alone ? std::vector<std::string_view>{"name", "rules"}
                                              : std::vector<std::string_view>{"name"}));
            }
        }
        for (const tinyxml2::XMLNode* child = root.FirstChild(); child != nullptr;
             child = child->NextSibling()) {
            if (const tinyxml2::XMLElement* element = element_or_report_text(*child, "tree")) {
                const std::string_view name = element->Name();
                if (name == "node") {
                    read_record(*element);
                } else if (name == "blackboard") {
                    read_blackboard(*element);
                } else {
                    report(line_of(element), diagnostic_code::unexpected_element,
                           "unexpected element <" + std::string(name) + "> in <tree>" +
                               did_you_mean(name, {"node", "blackboard"}) +
                               "; a tree holds <node> elements and a <blackboard>");
                }
            }
        }
    }

    // <blackboard><key name="patrol_wait" type="number" default="2.5"/></blackboard>
    void read_blackboard(const tinyxml2::XMLElement& board) {
        if (seen_blackboard_) {
            report(line_of(&board), diagnostic_code::duplicate_field,
                   "<tree> has two <blackboard> elements");
            return;
        }
        seen_blackboard_ = true;
        for (const tinyxml2::XMLNode* child = board.FirstChild(); child != nullptr;
             child = child->NextSibling()) {
            const tinyxml2::XMLElement* key = element_or_report_text(*child, "blackboard");
            if (key == nullptr) continue;
            if (std::string_view(key->Name()) != "key") {
                report(line_of(key), diagnostic_code::unexpected_element,
                       "unexpected element <" + std::string(key->Name()) + "> in <blackboard>" +
                           did_you_mean(key->Name(), {"key"}) + "; it holds <key> elements");
                continue;
            }
            read_key(*key);
        }
    }

    void read_key(const tinyxml2::XMLElement& key) {
        record_set::key_declaration declared;
        declared.where = line_of(&key);
        bool named = false;
        bool typed = false;
        for (const tinyxml2::XMLAttribute* a = key.FirstAttribute(); a != nullptr; a = a->Next()) {
            const std::string_view name = a->Name();
            if (name == "name") {
                declared.name = a->Value();
                named = true;
            } else if (name == "type") {
                declared.type = a->Value();
                typed = true;
            } else if (name == "default") {
                declared.initial = record_set::raw_param{declared.name, std::string(a->Value()),
                                                         declared.where, true};
            } else {
                report(declared.where, diagnostic_code::unknown_field,
                       "unknown attribute '" + std::string(name) + "' on <key>" +
                           did_you_mean(name, {"name", "type", "default"}));
            }
        }
        if (!named || !typed) {
            report(declared.where, diagnostic_code::missing_field,
                   std::string("<key> has no '") + (named ? "type" : "name") +
                       R"(' attribute; declare <key name="..." type="number"/>)");
            return;
        }
        if (declared.initial) declared.initial->name = declared.name;
        tree().declare_key(std::move(declared));
    }

    void read_record(const tinyxml2::XMLElement& element) {
        const source_location where = line_of(&element);
        std::uint8_t problems = 0;
        std::optional<std::int64_t> id;
        std::int64_t parent_id = 0;
        std::optional<std::int64_t> type_id;
        std::string_view type_name;
        std::string_view describe;
        bool has_id = false;
        bool has_type = false;
        bool has_parent = false;
        bool unknown_attribute = false;

        // Attributes first, so that every later message can name the record's id.
        if (const char* text = element.Attribute("id")) {
            has_id = true;
            id = parse_integer(text);
        }
        std::optional<std::int64_t> record_id = id;
        for (const tinyxml2::XMLAttribute* a = element.FirstAttribute(); a != nullptr;
             a = a->Next()) {
            std::string_view name = a->Name();
            std::string_view value = a->Value();
            if (name == "id") {
                if (!id) {
                    wrong_type(where, "id", "an integer", value, record_id);
                    problems |= record_set::bad_id;
                }
            } else if (name == "parentId") {
                has_parent = true;
                if (auto parsed = parse_integer(value)) {
                    parent_id = *parsed;
                } else {
                    wrong_type(where, "parentId", "an integer", value, record_id);
                    problems |= record_set::bad_parent;
                }
            } else if (name == "type") {
                has_type = true;
                type_id = parse_integer(value);
                type_name = value;
            } else if (name == "describe") {
                describe = value;
            } else {
                std::vector<std::string_view> candidates(std::begin(record_fields),
                                                         std::end(record_fields) - 1);
                unknown_attribute = true;
                report(where, diagnostic_code::unknown_field,
                       "unknown attribute '" + std::string(name) + "' on <node>" +
                           did_you_mean(name, candidates),
                       record_id);
            }
        }
        if (!has_id) {
            report(where, diagnostic_code::missing_field, "<node> has no 'id' attribute");
            problems |= record_set::bad_id;
        }
        if (!has_type) {
            report(where, diagnostic_code::missing_field, "<node> has no 'type' attribute",
                   record_id);
            problems |= record_set::bad_type;
        }

        // An unknown attribute may be a misspelled parentId: then the record is no root.
        if (unknown_attribute && !has_parent) problems |= record_set::bad_parent;

        record_set& records = tree();
        if (type_id) {
            records.add_with_type_id(id.value_or(0), parent_id, *type_id, describe, where);
        } else {
            records.add(id.value_or(0), parent_id, type_name, describe, where);
        }
        records.mark_problem(problems);
        read_params(element, record_id);
    }

    void wrong_type(source_location where, std::string_view field, std::string_view expected,
                    std::string_view value, std::optional<std::int64_t> record_id) {
        report(where, diagnostic_code::wrong_field_type,
               "'" + std::string(field) + "' must be " + std::string(expected) + ", not \"" +
                   std::string(value) + "\"",
               record_id);
    }

    void read_params(const tinyxml2::XMLElement& element, std::optional<std::int64_t> record_id) {
        bool seen_params = false;
        for (const tinyxml2::XMLNode* child = element.FirstChild(); child != nullptr;
             child = child->NextSibling()) {
            const tinyxml2::XMLElement* params = element_or_report_text(*child, "node", record_id);
            if (params == nullptr) continue;
            if (std::string_view(params->Name()) != "params") {
                report(line_of(params), diagnostic_code::unexpected_element,
                       "unexpected element <" + std::string(params->Name()) + "> in <node>" +
                           did_you_mean(params->Name(), {"params"}) +
                           (std::string_view(params->Name()) == "node"
                                ? "; nodes are flat: give the child a parentId"
                                : "; a node holds at most one <params>"),
                       record_id);
                continue;
            }
            if (seen_params) {
                report(line_of(params), diagnostic_code::duplicate_field,
                       "<node> has two <params> elements", record_id);
                continue;
            }
            seen_params = true;
            for (const tinyxml2::XMLAttribute* a = params->FirstAttribute(); a != nullptr;
                 a = a->Next()) {
                tree().add_param(a->Name(), std::string(a->Value()), line_of(params), true);
            }
            if (params->FirstChildElement() != nullptr ||
                (params->GetText() != nullptr && !is_blank(params->GetText()))) {
                report(line_of(params), diagnostic_code::unexpected_element,
                       "<params> takes attributes only, e.g. <params seconds=\"1.5\"/>", record_id);
            }
        }
    }

    const std::string& path_;
    record_set& tree() { return result_.document.trees.back(); }

    read_result& result_;
    detail::diagnostic_sink sink_{path_, result_.diagnostics};
    bool seen_blackboard_ = false;
};

}  // namespace

read_result read_flat_xml(std::string_view text, const std::string& path) {
    read_result result;
    result.document.trees.emplace_back();
    flat_xml_reader(path, result).read(text);
    report_duplicate_tree_names(result, path);
    return result;
}

bool claims_flat_xml(std::string_view text) {
    const std::string_view root = first_xml_element(text);
    return root == "tree" || root == "trees";
}

}  // namespace canopy::detail
