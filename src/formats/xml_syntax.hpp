#pragma once
// Shared by the XML readers: tinyxml2's parse errors in words.

#include <tinyxml2.h>

namespace canopy::detail {

/// What is wrong with XML text that tinyxml2 refused, in a few words.
inline const char* syntax_problem(tinyxml2::XMLError error) {
    switch (error) {
        case tinyxml2::XML_ERROR_PARSING_ELEMENT: return "malformed or unclosed element";
        case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: return "malformed attribute";
        case tinyxml2::XML_ERROR_PARSING_TEXT: return "malformed text";
        case tinyxml2::XML_ERROR_PARSING_CDATA: return "malformed CDATA section";
        case tinyxml2::XML_ERROR_PARSING_COMMENT: return "malformed comment";
        case tinyxml2::XML_ERROR_PARSING_DECLARATION: return "malformed declaration";
        case tinyxml2::XML_ERROR_PARSING_UNKNOWN: return "malformed markup";
        case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
            return "closing tag does not match its opening tag";
        case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: return "no element at all";
        case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED: return "elements nested too deeply";
        default: return "not well-formed";
    }
}

}  // namespace canopy::detail
