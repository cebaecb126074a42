#pragma once
// Shared by the content tests of the format table: a look at the start of a file, without
// parsing it all, to tell formats that share an extension apart.

#include <string_view>

namespace canopy::detail {

/// The text without a UTF-8 byte order mark and leading white space.
inline std::string_view skip_space(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    return first == std::string_view::npos ? std::string_view() : text.substr(first);
}

/// The name of the first element of XML text, past its declaration, comments, processing
/// instructions and doctype; empty when the text does not start like XML.
inline std::string_view first_xml_element(std::string_view text) {
    for (text = skip_space(text); text.substr(0, 1) == "<"; text = skip_space(text)) {
        std::string_view close;
        if (text.substr(0, 4) == "<!--") {
            close = "-->";
        } else if (text.substr(0, 2) == "<?" || text.substr(0, 2) == "<!") {
            close = ">";
        } else {
            const std::size_t end = text.find_first_of(" \t\r\n/>", 1);
            return text.substr(1, (end == std::string_view::npos ? text.size() : end) - 1);
        }
        const std::size_t end = text.find(close);
        if (end == std::string_view::npos) return {};
        text.remove_prefix(end + close.size());
    }
    return {};
}

}  // namespace canopy::detail
