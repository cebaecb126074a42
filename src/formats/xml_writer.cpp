// Flat XML from records, the mirror of xml_reader.cpp; tinyxml2's printer escapes the text.
#include <tinyxml2.h>

#include "core/json_text.hpp"
#include "formats/readers.hpp"

namespace canopy::detail {
namespace {

void write_tree(const record_set& records, tinyxml2::XMLPrinter& printer) {
    printer.OpenElement("tree");
    if (!records.name().empty()) printer.PushAttribute("name", records.name().c_str());
    if (!records.declared_keys().empty()) {
        printer.OpenElement("blackboard");
        for (const record_set::key_declaration& key : records.declared_keys()) {
            printer.OpenElement("key");
            printer.PushAttribute("name", key.name.c_str());
            printer.PushAttribute("type", key.type.c_str());
            if (key.initial) {
                printer.PushAttribute("default", attribute_text(key.initial->value).c_str());
            }
            printer.CloseElement();
        }
        printer.CloseElement();
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
        printer.OpenElement("node");
        printer.PushAttribute("id", std::to_string(records.id(i)).c_str());
        printer.PushAttribute("parentId", std::to_string(records.parent_id(i)).c_str());
        const std::string type = records.has_type_id(i) ? std::to_string(records.type_id(i))
                                                        : std::string(records.type_name(i));
        printer.PushAttribute("type", type.c_str());
        if (!records.describe(i).empty()) {
            printer.PushAttribute("describe", std::string(records.describe(i)).c_str());
        }
        const record_set::raw_param* first = records.params_begin(i);
        const record_set::raw_param* last = records.params_end(i);
        if (first != last) {
            printer.OpenElement("params");
            for (const record_set::raw_param* p = first; p != last; ++p) {
                printer.PushAttribute(p->name.c_str(), attribute_text(p->value).c_str());
            }
            printer.CloseElement();
        }
        printer.CloseElement();
    }
    printer.CloseElement();
}

}  // namespace

// One tree as <tree>; several, or a main tree or includes, under <trees>. Node models have
// no place here: they describe an editor's palette, not the trees.
write_result write_flat_xml(const tree_document& document) {
    tinyxml2::XMLPrinter printer;
    printer.PushDeclaration(R"(xml version="1.0" encoding="UTF-8")");
    const bool several =
        document.trees.size() != 1 || !document.main_tree.empty() || !document.includes.empty();
    if (several) {
        printer.OpenElement("trees");
        if (!document.main_tree.empty())
            printer.PushAttribute("main_tree", document.main_tree.c_str());
        for (const file_reference& include : document.includes) {
            printer.OpenElement("include");
            printer.PushAttribute("path", include.path.c_str());
            printer.CloseElement();
        }
    }
    for (const record_set& records : document.trees) write_tree(records, printer);
    if (several) printer.CloseElement();
    write_result result;
    result.text = printer.CStr();
    report_overrides(document, result);
    report_foreign_namesakes(document, result);
    report_scaled_keys(document, result);
    return result;
}

}  // namespace canopy::detail
