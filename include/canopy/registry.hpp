#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "canopy/node.hpp"
#include "canopy/param.hpp"

namespace canopy {

/// How many children a node of a type must have.
enum class arity : std::uint8_t {
    leaf,       ///< none
    decorator,  ///< exactly one
    composite,  ///< one or more
};

/// "leaf", "decorator" or "composite".
std::string_view to_string(arity a) noexcept;

/// Makes the node object for one tree node from its checked parameters. It may throw an
/// exception derived from std::exception to reject values that are well-typed but invalid
/// (a negative count, say); the loader reports its message at the record's location.
using node_creator = std::function<std::unique_ptr<node>(const param_list&)>;

/// Everything the builder must know about a node type.
struct node_type {
    std::string name;                   ///< what files call it, e.g. "Sequence"
    std::optional<std::int64_t> id;     ///< the numeric type id files may use instead
    canopy::arity arity = arity::leaf;  ///< how many children its nodes take
    std::vector<param_spec> params;     ///< the parameters it accepts
    node_creator create;                ///< may be empty: its nodes then have no object
};

/// Maps node type names and numeric type ids to node types. Registration is explicit: an
/// application fills its own registry, e.g. with register_builtin_nodes(), before loading.
/// Trees copy what they need, so a registry may be destroyed before the trees built with it.
class registry {
public:
    /// Adds a node type and returns it.
    /// @warning throws registry_error if the name is empty, the name or id is taken, two
    /// params share a name, or a default value does not have its param's type.
    const node_type& add(node_type type);

    /// Adds a leaf type without parameters or node object, e.g. a demo's condition.
    const node_type& add_leaf(std::string name, std::optional<std::int64_t> id = std::nullopt);

    /// Makes `alias` another name for the registered type `target` (e.g. "Fallback" for
    /// "Selector"). Trees print a node by its type's registered name, whatever the file said.
    void add_alias(std::string alias, std::string_view target);

    /// The type of that name or alias, or null.
    const node_type* find(std::string_view name) const;
    /// The type of that numeric id, or null.
    const node_type* find(std::int64_t id) const;

    /// The registered name or alias nearest to `name` (ignoring case, a few edits at most),
    /// or an empty view when nothing is close: "Sequnce" gives "Sequence".
    std::string_view nearest_name(std::string_view name) const;

    /// The registered types in registration order.
    const std::deque<node_type>& types() const noexcept { return types_; }
    /// Every alias and the name it stands for, sorted by alias.
    std::vector<std::pair<std::string, std::string>> aliases() const;

private:
    void check_name_free(const std::string& name) const;

    std::deque<node_type> types_;  // a deque keeps references stable as types are added
    std::unordered_map<std::string, const node_type*> by_name_;
    std::unordered_map<std::int64_t, const node_type*> by_id_;
    std::vector<std::string> alias_names_;
};

}  // namespace canopy
