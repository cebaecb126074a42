// Flat JSON from records, the mirror of json_reader.cpp: one record per line, as the files in
// data/ are written.
#include "formats/json_text.hpp"
#include "readers.hpp"

namespace canopy::detail {
namespace {

void append_string(std::string& out, std::string_view text) {
    out += '"';
    append_json_escaped(out, text);
    out += '"';
}

std::string write_tree(const record_set& records) {
    std::string out = "{\n";
    if (!records.name().empty()) {
        out += "  \"name\": ";
        append_string(out, records.name());
        out += ",\n";
    }
    if (!records.declared_keys().empty()) {
        out += "  \"blackboard\": {";
        const char* separator = "\n";
        for (const record_set::key_declaration& key : records.declared_keys()) {
            out += separator;
            out += "    ";
            append_string(out, key.name);
            out += ": {\"type\": ";
            append_string(out, key.type);
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
            append_string(out, records.type_name(i));
        }
        if (!records.describe(i).empty()) {
            out += ", \"describe\": ";
            append_string(out, records.describe(i));
        }
        const record_set::raw_param* first = records.params_begin(i);
        const record_set::raw_param* last = records.params_end(i);
        if (first != last) {
            out += ", \"params\": {";
            for (const record_set::raw_param* p = first; p != last; ++p) {
                if (p != first) out += ", ";
                append_string(out, p->name);
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

}  // namespace

write_result write_flat_json(const tree_document& document) {
    write_result result;
    if (!document.trees.empty()) result.text = write_tree(document.trees.front());
    return result;
}

}  // namespace canopy::detail
