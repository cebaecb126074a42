#pragma once
// load_options::substitutions: BehaviorTree.CPP's substitution rules applied to a tree's
// records once its subtrees are in place, before it is built.

#include <string_view>
#include <vector>

#include "canopy/core/diagnostic.hpp"
#include "canopy/load/substitution.hpp"
#include "canopy/records/records.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// Gives each record a rule matches a type that runs the rule's replacement in place of its
/// own (test_node.hpp), added to `overlay` unless there already; the names, types and paths
/// are BehaviorTree.CPP's (substitution_rule). Types are looked up in `overlay`, then `reg`.
/// A rule whose replacement is neither a config nor a type is reported where the rules say
/// it, as is a replacement that cannot hold the children of the node it replaces.
void apply_substitutions(record_set& records, const substitution_rules& rules, const registry& reg,
                         registry& overlay, std::vector<diagnostic>& out);

}  // namespace canopy::detail
