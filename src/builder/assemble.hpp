#pragma once
// Assembly: the second half of building a tree, after validation. It lays validated records
// out as an immutable tree (preorder arrays, each node's object, the agents' state layout).

#include <cstdint>
#include <memory>
#include <vector>

#include "canopy/core/param.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/registry.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/tree.hpp"
#include "core/diagnostic_sink.hpp"

namespace canopy::detail {

/// What validation found and checked, record by record: every parent link sound, one root,
/// every type known, every parameter converted or bound to a key.
struct validated_records {
    const record_set& records;
    record_set* owned;  ///< the same records, when the tree may take them over; else null
    std::size_t count;
    std::uint32_t root;
    const std::vector<std::uint32_t>& parent;         ///< the parent record, or none
    const std::vector<std::uint32_t>& child_count;    ///< per record
    const std::vector<std::uint32_t>& slot;           ///< per record: its type in slot_types
    const std::vector<const node_type*>& slot_types;  ///< at most 65535
    std::vector<param> params;                        ///< checked parameters, record by record
    std::vector<std::uint32_t> params_begin;          ///< per record, and one past the last
    std::vector<blackboard_key> keys;                 ///< the program's, then the file's
    /// Per record: its entry in conditions, or 0xFFFFFFFF (none); may be empty.
    std::vector<std::uint32_t> condition_of_record;
    std::vector<node_conditions> conditions;
    std::vector<std::shared_ptr<const script>> scripts;  ///< every compiled script
    bool interrupts_on_error = false;                    ///< tree_layout::interrupts_on_error
    bool fails_as_btcpp = false;                         ///< tree_layout::fails_as_btcpp
    const enum_table& enums;                             ///< the registry's, for the creators
};

/// Builds the tree, or reports (a node's creator refusing its parameters, say) and gives null.
std::shared_ptr<const tree> assemble_tree(validated_records records, diagnostic_sink& sink);

}  // namespace canopy::detail
