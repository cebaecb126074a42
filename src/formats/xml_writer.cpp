// Flat XML from records, the mirror of xml_reader.cpp; tinyxml2's printer escapes the text.
#include <tinyxml2.h>

#include "core/json_text.hpp"
#include "formats/flat_sections.hpp"
#include "formats/readers.hpp"

namespace canopy::detail {
namespace {

// `rules`: whose rules the file says it follows; the keys their uses make are not declared.
void write_tree(const record_set& records, runtime_rules rules, tinyxml2::XMLPrinter& printer) {
    printer.OpenElement("tree");
    if (!records.name().empty()) printer.PushAttribute("name", records.name().c_str());
    std::vector<const record_set::key_declaration*> declared;
    for (const record_set::key_declaration& key : records.declared_keys()) {
        if (!key.implicit || rules == runtime_rules::canopy) declared.push_back(&key);
    }
    if (!declared.empty()) {
        printer.OpenElement("blackboard");
        for (const record_set::key_declaration* declaration : declared) {
            const record_set::key_declaration& key = *declaration;
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

// One tree as <tree>; several, or a main tree, includes, rules, node models or overrides,
// under <trees>.
write_result write_flat_xml(const tree_document& document) {
    tinyxml2::XMLPrinter printer;
    printer.PushDeclaration(R"(xml version="1.0" encoding="UTF-8")");
    const std::vector<node_model> models = flat_models(document);
    const bool several = document.trees.size() != 1 || !document.main_tree.empty() ||
                         !document.includes.empty() || document.rules != runtime_rules::canopy ||
                         !models.empty() || !document.overrides.empty();
    if (several) {
        printer.OpenElement("trees");
        if (!document.main_tree.empty())
            printer.PushAttribute("main_tree", document.main_tree.c_str());
        if (!rules_name(document.rules).empty())
            printer.PushAttribute("rules", std::string(rules_name(document.rules)).c_str());
        if (!models.empty()) write_xml_models(printer, models);
        if (!document.overrides.empty()) write_xml_overrides(printer, document.overrides);
        for (const file_reference& include : document.includes) {
            printer.OpenElement("include");
            printer.PushAttribute("path", include.path.c_str());
            printer.CloseElement();
        }
    }
    for (const record_set& records : document.trees) write_tree(records, document.rules, printer);
    if (several) printer.CloseElement();
    write_result result;
    result.text = printer.CStr();
    report_scaled_keys(document, result);
    return result;
}

}  // namespace canopy::detail
