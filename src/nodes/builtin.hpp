#pragma once
// The built-in node library, registered in parts by register_builtin_nodes(). The semantics
// of every node are in docs/nodes.md, one row each.

#include <cstdint>
#include <string>

#include "canopy/run/registry.hpp"
#include "core/seconds.hpp"

namespace canopy::detail {

/// Writes a `key_value` parameter's value to a key: another key's value, or its literal
/// (SetBlackboard, behavior3's Let).
void write_value(blackboard board, std::uint32_t key, const param& value);

/// Registers `Own` under `name` as add<Own> does, its nodes made as `Btcpp` in a
/// BehaviorTree.CPP file's tree (param_list::btcpp_rules): the form that ticks as 4.10's node
/// of the name where Canopy's differs, so that Canopy's own trees pay nothing for it. Both
/// take the same parameters and hooks and say the same traits.
template <typename Own, typename Btcpp>
void add_with_btcpp_form(registry& reg, const std::string& name, std::int64_t id, arity a) {
    registry forms;  // add<> finds each class's hooks and traits
    node_type type = forms.add<Own>(name, id, a);
    const node_type& btcpp = forms.add<Btcpp>(name + "/btcpp", std::nullopt, a);
    if (btcpp.hooks != type.hooks || btcpp.sees_errors != type.sees_errors ||
        btcpp.ticks_in_order != type.ticks_in_order ||
        btcpp.waits_on_children != type.waits_on_children ||
        btcpp.params.size() != type.params.size())
        throw registry_error("the two forms of '" + name + "' differ in more than their ticks");
    type.create = [own = type.create, other = btcpp.create](const param_list& p) {
        return p.btcpp_rules() ? other(p) : own(p);
    };
    reg.add(std::move(type));
}

void register_composites(registry& reg);
void register_decorators(registry& reg);
void register_leaves(registry& reg);
void register_script_nodes(registry& reg);
void register_blackboard_nodes(registry& reg);

}  // namespace canopy::detail
