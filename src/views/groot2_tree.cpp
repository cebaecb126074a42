// A running tree as Groot2 wants it: BehaviorTree.CPP 4 XML in which a node's `_uid` is the
// number the status and hook messages name it by.
#include "views/groot2_tree.hpp"

#include <vector>

#include "canopy/records/document.hpp"
#include "canopy/views/write.hpp"
#include "formats/readers.hpp"

namespace canopy::detail::groot2 {

std::string tree_name(const tree& t) {
    return t.name().empty() ? "MainTree" : t.name();
}

std::string tree_xml(const tree& t) {
    const record_set records = to_records(t);  // one record per node, in preorder
    tree_document document;
    document.main_tree = tree_name(t);
    document.trees.emplace_back();
    document.trees.back().set_name(document.main_tree);
    document.trees.back().set_tree_metadata(t.tree_metadata());
    // Which <BehaviorTree> each node goes in: its parent's, or a new one under a SubTree node
    // that holds its subtree put in place.
    std::vector<std::size_t> owner(t.size(), 0);
    std::vector<std::string> path(1, document.main_tree);
    for (tree::index i = 0; i < t.size(); ++i) {
        const tree::index parent = t.parent(i);
        std::int64_t parent_uid = parent == tree::no_parent ? 0 : std::int64_t{parent} + 1;
        if (parent != tree::no_parent) {
            owner[i] = owner[parent];
            if (t.type_name(parent) == "SubTree") {
                record_set instance;
                std::string name;
                for (const param& p : t.params(parent)) {
                    const auto* named = std::get_if<std::string>(&p.value);
                    if (p.name == "tree" && named != nullptr) name = *named;
                }
                if (name.empty()) name = "SubTree_" + std::to_string(parent + 1);
                instance.set_name(name);
                const std::string describe(t.describe(parent));
                path.push_back(
                    path[owner[parent]] + "/" +
                    (describe.empty() ? name + "::" + std::to_string(parent + 1) : describe));
                instance.add_tree_metadata("_fullpath", path.back());
                owner[i] = document.trees.size();
                document.trees.push_back(std::move(instance));
                parent_uid = 0;
            }
        }
        record_set& into = document.trees[owner[i]];
        into.add(std::int64_t{i} + 1, parent_uid, records.type_name(i), records.describe(i));
        for (auto [note, end] = records.metadata(i); note != end; ++note)
            into.add_metadata(note->name, note->value);
        for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p)
            into.add_param(p->name, p->value);
    }
    for (const record_set::key_declaration& key : records.declared_keys())
        document.trees.front().declare_key(key);
    // What BehaviorTree.CPP could not say (a type named by number, a duration it cannot count)
    // is written in Canopy's own form: Groot2 still draws the node.
    return write_btcpp_xml_with_uids(document).text;
}

}  // namespace canopy::detail::groot2
