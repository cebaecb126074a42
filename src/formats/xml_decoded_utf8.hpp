#pragma once
// The XML readers check that the file is UTF-8 before tinyxml2 parses it, but tinyxml2's
// entity decoding can still make bytes that are not: an entity reference cut by other bytes
// (`&quot` then a byte order mark then `lt;`) decodes to a lone continuation byte. What the
// readers keep must be UTF-8 (the writers and the other readers refuse anything else), so
// they look for such values after parsing.

#include <tinyxml2.h>

#include "formats/utf8.hpp"

namespace canopy::detail {

/// The first node, in document order, whose text or attribute values are not UTF-8 once
/// decoded, or null. Walks the tree without recursion, so depth costs no stack.
inline const tinyxml2::XMLNode* first_node_not_utf8(const tinyxml2::XMLDocument& document) {
    const tinyxml2::XMLNode* node = document.FirstChild();
    while (node != nullptr) {
        if (first_invalid_utf8(node->Value()) != std::string_view::npos) return node;
        if (const tinyxml2::XMLElement* element = node->ToElement(); element != nullptr) {
            for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a != nullptr;
                 a = a->Next()) {
                if (first_invalid_utf8(a->Value()) != std::string_view::npos) return node;
            }
        }
        if (node->FirstChild() != nullptr) {
            node = node->FirstChild();
            continue;
        }
        while (node != nullptr && node->NextSibling() == nullptr) node = node->Parent();
        if (node != nullptr) node = node->NextSibling();
    }
    return nullptr;
}

}  // namespace canopy::detail
