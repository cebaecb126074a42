// WriteTreeToXML: the running tree as Groot2 reads it (canopy/views/groot2_tree.hpp), without the
// metadata when asked.

#include "behaviortree_cpp/xml_parsing.h"

#include <tinyxml2.h>

#include "canopy/views/groot2_tree.hpp"

namespace BT {

namespace {

void drop_metadata(tinyxml2::XMLElement* element) {
    for (; element != nullptr; element = element->NextSiblingElement()) {
        element->DeleteAttribute("_uid");
        element->DeleteAttribute("_fullpath");
        drop_metadata(element->FirstChildElement());
    }
}

}  // namespace

std::string WriteTreeToXML(const Tree& tree, bool add_metadata, bool /*add_builtin_models*/) {
    std::string xml = canopy::to_groot2_xml(tree.canopyTree());
    if (add_metadata) return xml;
    tinyxml2::XMLDocument document;
    if (document.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS)
        throw LogicError("WriteTreeToXML: the tree's XML does not parse");
    drop_metadata(document.RootElement());
    tinyxml2::XMLPrinter printer;
    document.Print(&printer);
    return printer.CStr();
}

}  // namespace BT
