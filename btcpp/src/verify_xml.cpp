#include "verify_xml.hpp"

#include <cctype>
#include <string>

#include "behaviortree_cpp/xml_parsing.h"

namespace BT::detail {

namespace {

constexpr int max_depth = 256;

[[noreturn]] void refuse(const tinyxml2::XMLElement& at, const std::string& why) {
    throw RuntimeError("Error at line ", std::to_string(at.GetLineNum()), ": -> ", why);
}

int child_count(const tinyxml2::XMLElement& e) {
    int count = 0;
    for (const auto* child = e.FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement())
        ++count;
    return count;
}

void check_name(const tinyxml2::XMLElement& at, const std::string& name) {
    if (name.empty()) refuse(at, "Model/Node type name cannot be empty");
    if (name == "Root" || name == "root")
        refuse(at, "'Root' is a reserved name and cannot be used as a node type");
    if (const char c = findForbiddenChar(name); c != '\0')
        refuse(at, "Model name '" + name + "' contains forbidden character '" + c + "'");
}

void check_port_name(const tinyxml2::XMLElement& at, const std::string& name) {
    if (name.empty()) refuse(at, "Port name cannot be empty");
    if (std::isdigit(static_cast<unsigned char>(name.front())) != 0)
        refuse(at, "Port name '" + name + "' cannot start with a digit");
    if (const char c = findForbiddenChar(name); c != '\0')
        refuse(at, "Port name '" + name + "' contains forbidden character '" + c + "'");
    if (IsReservedAttribute(name))
        refuse(at, "Port name '" + name + "' is a reserved attribute name");
}

bool is_generic_tag(std::string_view tag) {
    return tag == "Action" || tag == "Condition" || tag == "Control" || tag == "Decorator" ||
           tag == "SubTree";
}

void verify_node(const tinyxml2::XMLElement& e, int depth, int tree_count, const KindOf& kind_of) {
    if (depth > max_depth) refuse(e, "Maximum XML nesting depth exceeded (limit: 256)");
    const std::string tag = e.Name();
    const std::string id = e.Attribute("ID") != nullptr ? e.Attribute("ID") : "";
    const int children = child_count(e);
    if (is_generic_tag(tag) && id.empty())
        refuse(e, "The tag <" + tag + "> must have the attribute [ID]");
    if (tag == "BehaviorTree") {
        if (id.empty() && tree_count > 1)
            refuse(e, "The tag <BehaviorTree> must have the attribute [ID]");
        if (!id.empty()) check_name(e, id);
        if (kind_of(id))
            refuse(e,
                   "The attribute [ID] of tag <BehaviorTree> must not use the name of a "
                   "registered Node");
        if (children != 1)
            refuse(e, "The tag <BehaviorTree> with ID '" + id + "' must have exactly 1 child");
    } else if (tag == "SubTree") {
        if (children != 0) refuse(e, "<SubTree> with ID '" + id + "' should not have any child");
        check_name(e, id);
        if (kind_of(id))
            refuse(e,
                   "The attribute [ID] of tag <SubTree> must not use the name of a "
                   "registered Node");
    } else {
        const std::string type = is_generic_tag(tag) ? id : tag;
        if (!is_generic_tag(tag)) check_name(e, tag);
        const std::optional<NodeType> kind = kind_of(type);
        if (!kind) refuse(e, "Node not recognized: " + type);
        if (*kind == NodeType::DECORATOR && children != 1)
            refuse(e, "The node '" + type + "' must have exactly 1 child");
        if (*kind == NodeType::CONTROL && children == 0)
            refuse(e, "The node '" + type + "' must have 1 or more children");
        if (*kind == NodeType::CONTROL && type == "TryCatch" && children < 2)
            refuse(e, "The node 'TryCatch' must have at least 2 children");
        if (type == "ReactiveSequence") {
            // 4.10 counts the children written <AsyncSequence> (among names of its async
            // node classes no control is registered under).
            int async_children = 0;
            for (const auto* child = e.FirstChildElement(); child != nullptr;
                 child = child->NextSiblingElement()) {
                if (std::string_view(child->Name()) == "AsyncSequence" &&
                    kind_of("AsyncSequence") == NodeType::CONTROL && ++async_children > 1)
                    refuse(e, "A ReactiveSequence cannot have more than one async child.");
            }
        }
        if ((*kind == NodeType::ACTION || *kind == NodeType::CONDITION) && children != 0)
            refuse(e, "The node '" + type + "' must not have any child");
    }
    for (const auto* child = e.FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement())
        verify_node(*child, depth + 1, tree_count, kind_of);
}

}  // namespace

void verify_document(const tinyxml2::XMLDocument& document, const KindOf& kind_of) {
    const tinyxml2::XMLElement* root = document.RootElement();
    if (root == nullptr || std::string_view(root->Name()) != "root")
        throw RuntimeError("The XML must have a root node called <root>");
    const tinyxml2::XMLElement* models = root->FirstChildElement("TreeNodesModel");
    if (models != nullptr) {
        if (const auto* second = models->NextSiblingElement("TreeNodesModel"))
            refuse(*second, "Only a single node <TreeNodesModel> is supported");
        for (const auto* model = models->FirstChildElement(); model != nullptr;
             model = model->NextSiblingElement()) {
            if (std::string_view(model->Name()) != "SubTree") continue;
            if (model->Attribute("ID") == nullptr)
                refuse(*model, "Missing attribute 'ID' in SubTree element within TreeNodesModel");
            for (const char* tag : {"input_port", "output_port", "inout_port"}) {
                for (const auto* port = model->FirstChildElement(tag); port != nullptr;
                     port = port->NextSiblingElement(tag)) {
                    const char* name = port->Attribute("name");
                    if (name == nullptr)
                        refuse(*port, "Missing attribute [name] in port (SubTree model)");
                    check_port_name(*port, name);
                }
            }
        }
    }
    const int tree_count = child_count(*root);
    for (const auto* tree = root->FirstChildElement("BehaviorTree"); tree != nullptr;
         tree = tree->NextSiblingElement("BehaviorTree"))
        verify_node(*tree, 0, tree_count, kind_of);
}

}  // namespace BT::detail

namespace BT {

void VerifyXML(const std::string& xml_text,
               const std::unordered_map<std::string, NodeType>& registered_nodes) {
    tinyxml2::XMLDocument parsed;
    if (parsed.Parse(xml_text.c_str(), xml_text.size()) != tinyxml2::XML_SUCCESS)
        throw RuntimeError("Error parsing the XML: ", parsed.ErrorStr());
    detail::verify_document(parsed, [&](std::string_view name) -> std::optional<NodeType> {
        auto found = registered_nodes.find(std::string(name));
        if (found == registered_nodes.end()) return std::nullopt;
        return found->second;
    });
}

}  // namespace BT
