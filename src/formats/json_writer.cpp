// Flat JSON from records, the mirror of json_reader.cpp: one record per line, as the files in
// data/ are written.
#include "core/json_text.hpp"
#include "formats/flat_sections.hpp"
#include "formats/readers.hpp"

namespace canopy::detail {
namespace {

// `rules`: whose rules the file says it follows; the keys their uses make are not declared.
std::string write_tree(const record_set& records, runtime_rules rules) {
    std::string out = "{\n";
    if (!records.name().empty()) {
        out += "  \"name\": ";
        append_json_string(out, records.name());
        out += ",\n";
    }
    std::vector<const record_set::key_declaration*> declared;
    for (const record_set::key_declaration& key : records.declared_keys()) {
        if (!key.implicit || rules == runtime_rules::canopy) declared.push_back(&key);
    }
    if (!declared.empty()) {
        out += "  \"blackboard\": {";
        const char* separator = "\n";
        for (const record_set::key_declaration* declaration : declared) {
            const record_set::key_declaration& key = *declaration;
            out += separator;
            out += "    ";
            append_json_string(out, key.name);
            out += ": {\"type\": ";
            append_json_string(out, key.type);
            if (key.initial) {
                out += ", \"default\": ";
                append_json_value(out, key.initial->value);
            }
            out += '}';
            separator = ",\n";
        }
        out += "\n  },\n";
    }
    out += "  \"nodes\": [";
    for (std::size_t i = 0; i < records.size(); ++i) {
        out += i == 0 ? "\n    {\"id\": " : ",\n    {\"id\": ";
        out += std::to_string(records.id(i));
        out += ", \"parentId\": " + std::to_string(records.parent_id(i)) + ", \"type\": ";
        if (records.has_type_id(i)) {
            out += std::to_string(records.type_id(i));
        } else {
            append_json_string(out, records.type_name(i));
        }
        if (!records.describe(i).empty()) {
            out += ", \"describe\": ";
            append_json_string(out, records.describe(i));
        }
        const record_set::raw_param* first = records.params_begin(i);
        const record_set::raw_param* last = records.params_end(i);
        if (first != last) {
            out += ", \"params\": {";
            for (const record_set::raw_param* p = first; p != last; ++p) {
                if (p != first) out += ", ";
                append_json_string(out, p->name);
                out += ": ";
                append_json_value(out, p->value);
            }
            out += '}';
        }
        out += '}';
    }
    out += "\n  ]\n}\n";
    return out;
}

// Each line of `text` indented by `by`.
std::string indented(const std::string& text, std::string_view by) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size() - 1;
        out += by;
        out.append(text, start, end + 1 - start);
        start = end + 1;
    }
    return out;
}

}  // namespace

// One tree as {"name", "blackboard", "nodes"}; several, or a main tree, includes, rules, node
// models or overrides, as {"rules", "models", "overrides", "main_tree", "include", "trees"}.
write_result write_flat_json(const tree_document& document) {
    write_result result;
    report_scaled_keys(document, result);
    const std::vector<node_model> models = flat_models(document);
    if (document.trees.size() == 1 && document.main_tree.empty() && document.includes.empty() &&
        document.rules == runtime_rules::canopy && models.empty() && document.overrides.empty()) {
        result.text = write_tree(document.trees.front(), document.rules);
        return result;
    }
    std::string& out = result.text;
    out = "{\n";
    if (!rules_name(document.rules).empty()) {
        out += "  \"rules\": ";
        append_json_string(out, rules_name(document.rules));
        out += ",\n";
    }
    if (!models.empty()) {
        out += "  ";
        write_json_models(out, models);
        out += ",\n";
    }
    if (!document.overrides.empty()) {
        out += "  ";
        write_json_overrides(out, document.overrides);
        out += ",\n";
    }
    if (!document.main_tree.empty()) {
        out += "  \"main_tree\": ";
        append_json_string(out, document.main_tree);
        out += ",\n";
    }
    if (!document.includes.empty()) {
        out += "  \"include\": [";
        for (std::size_t i = 0; i < document.includes.size(); ++i) {
            if (i != 0) out += ", ";
            append_json_string(out, document.includes[i].path);
        }
        out += "],\n";
    }
    out += "  \"trees\": [\n";
    for (std::size_t t = 0; t < document.trees.size(); ++t) {
        std::string tree = indented(write_tree(document.trees[t], document.rules), "    ");
        tree.pop_back();  // the newline
        out += tree;
        out += t + 1 < document.trees.size() ? ",\n" : "\n";
    }
    out += "  ]\n}\n";
    return result;
}

}  // namespace canopy::detail
