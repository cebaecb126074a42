// Trees back to records, and records to text through the format table: the mirror of the
// readers.
#include "canopy/views/write.hpp"

#include "canopy/run/script.hpp"
#include "canopy/run/tree.hpp"

namespace canopy {

record_set to_records(const tree& t) {
    record_set records;
    records.set_name(t.name());
    records.set_tree_metadata(t.tree_metadata());
    const std::vector<blackboard_key>& keys = t.keys();
    for (const blackboard_key& key : keys) {
        if (!key.from_file) continue;
        record_set::key_declaration declared;
        declared.name = key.name;
        declared.type = std::string(key.type_name());
        if (key.initial)
            declared.initial = record_set::raw_param{key.name, *key.initial, {}, false};
        records.declare_key(std::move(declared));
    }
    for (tree::index i = 0; i < t.size(); ++i) {
        const tree::index parent = t.parent(i);
        records.add(t.record_id(i), parent == tree::no_parent ? 0 : t.record_id(parent),
                    t.type_name(i), t.describe(i));
        for (auto [note, end] = t.metadata(i); note != end; ++note)
            records.add_metadata(note->name, note->value);
        for (const param& p : t.params(i)) {
            if (p.names_key) {
                records.add_param(
                    p.name, keys[static_cast<std::size_t>(std::get<std::int64_t>(p.value))].name);
            } else if (p.key != param::no_key) {
                records.add_param(p.name, "{" + keys[p.key].name + "}");
            } else if (!p.output) {
                records.add_param(p.name, p.value);
            }
        }
        for (std::size_t c = 0; c < std::size(condition_params); ++c) {
            if (const script* condition = t.condition(i, c)) {
                records.add_param(std::string(condition_params[c]), condition->text());
            }
        }
    }
    return records;
}

std::string write_records(const record_set& records, file_format format) {
    tree_document document;
    document.trees.push_back(records);
    return info(format).write(document).text;
}

std::string write_text(const tree& t, file_format format) {
    tree_document document;
    document.trees.push_back(to_records(t));
    document.rules = t.rules();
    return info(format).write(document).text;
}

}  // namespace canopy
