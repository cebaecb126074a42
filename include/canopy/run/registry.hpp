#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "canopy/core/arity.hpp"
#include "canopy/core/error.hpp"
#include "canopy/core/param.hpp"
#include "canopy/core/status.hpp"
#include "canopy/core/value_type.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/host.hpp"
#include "canopy/run/node.hpp"
#include "canopy/run/port.hpp"

namespace canopy {

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
    /// May be empty: its nodes then have no object. For a type without parameters, a tree
    /// calls it once and shares the object between all the type's nodes.
    node_creator create;
    /// A leaf that only checks something (add_condition): editors' palettes list it as a
    /// condition rather than an action. Loading and ticking do not depend on it.
    bool condition = false;
    /// The node::hook bits the runtime calls on this type's nodes: add<Node> finds those
    /// Node overrides; a hand-written creator's nodes get every hook.
    std::uint8_t hooks = node::all_hooks;
    /// The host type this type's nodes take (an action taking `Host&`, a class declaring
    /// `using host_type = Host;`), or none: agents of a tree using the type must be given a
    /// host of that type. A hand-written node_type sets it to detail::host_type_of<Host>().
    detail::host_type host{};
    /// Its nodes read keys' update stamps or unset keys (blackboard::stamp, is_set, unset):
    /// the agents of a tree using the type keep a stamp per key, which trees without such a
    /// type do without. add<Node> sets it when Node has `static constexpr bool
    /// watches_updates = true`.
    bool watches_updates = false;
    /// Its nodes hear every event (node::on_event) whatever their status, and the agent's own
    /// (agent_event), not only while running: nodes that run their child between ticks, as
    /// behavior3's Listen and Delay. add<Node> sets it when Node has `static constexpr bool
    /// listens_while_idle = true`; a tree without such a node pays nothing for it.
    bool listens_while_idle = false;
    /// Its nodes receive a child's status::error as error, and handle it (behavior3-ts's
    /// Sequence, Invert, IfElse and loops pass it up); a parent of another type receives
    /// failure instead. add<Node> sets it when Node has `static constexpr bool sees_errors =
    /// true`.
    bool sees_errors = false;
    /// In a behavior3 file's tree, its nodes may leave a running child abandoned, as
    /// behavior3-ts's Timeout, Race and Watchdog drop it from their stack (context::abandon):
    /// only a tree with such a node pays for behavior3-ts's last status on every step.
    /// add<Node> sets it when Node has `static constexpr bool abandons_children = true`.
    bool abandons_children = false;
    /// Its nodes tick a child only once every child before it has succeeded or been skipped
    /// (a Sequence). add<Node> sets it when Node has `static constexpr bool ticks_in_order =
    /// true`. With runs_scripts_whole, it tells the builder where a key surely holds a value.
    bool ticks_in_order = false;
    /// Its nodes succeed only after running each of their `script` parameters to its end
    /// (Script): a key such a script assigns in a statement of its own holds a value once the
    /// node has succeeded, and a later sibling under a ticks_in_order parent reads it without
    /// the check a key that starts unset needs. add<Node> sets it when Node has `static
    /// constexpr bool runs_scripts_whole = true`.
    bool runs_scripts_whole = false;
    /// Its nodes, skipped because a child was, are not running to BehaviorTree.CPP 4.10,
    /// whose node of the name does not set itself running as its tick starts (Switch,
    /// Precondition): in a BehaviorTree.CPP file's tree no reset halts them then
    /// (detail::left_running_code). add<Node> sets it when Node has `static constexpr bool
    /// stays_idle_when_skipped = true`.
    bool stays_idle_when_skipped = false;
    /// While running with a running child, its nodes' tick ticks only their running
    /// children and, while those return running and change nothing, returns running and
    /// changes nothing itself (a Sequence, which resumes at its running child; not a
    /// ReactiveSequence, which ticks its conditions again): an agent of a canopy::world sleeps
    /// through such nodes (context::unchanged_until). A node that times its child (Timeout)
    /// says when that ends with context::unchanged_until. add<Node> sets it when Node has
    /// `static constexpr bool waits_on_children = true`.
    bool waits_on_children = false;
    /// What the type does, for whoever writes a tree: editors' palettes show it
    /// (registry::describe); may be empty.
    std::string description = {};
};

namespace detail {

// The Host of an action or condition taking (Host&, context&, ports...): the callable's first
// parameter when it is not the context, for a function pointer or a class with one
// operator() (a lambda that is not generic).
template <typename First>
using host_of_first = std::conditional_t<std::is_same_v<std::decay_t<First>, context>, void,
                                         std::remove_reference_t<First>>;
template <typename F, typename = void>
struct host_parameter {
    using type = void;
};
template <typename R, typename First, typename... Rest>
struct host_parameter<R (*)(First, Rest...), void> {
    using type = host_of_first<First>;
};
template <typename R, typename C, typename First, typename... Rest>
struct host_parameter<R (C::*)(First, Rest...) const, void> {
    using type = host_of_first<First>;
};
template <typename R, typename C, typename First, typename... Rest>
struct host_parameter<R (C::*)(First, Rest...), void> {
    using type = host_of_first<First>;
};
template <typename F>
struct host_parameter<F, std::void_t<decltype(&F::operator())>>
    : host_parameter<decltype(&F::operator())> {};

// Leaves made from callables: the callable is a member of the node's own class, so a
// lambda's body is inlined into the one virtual tick() call, as a built-in leaf's is. One
// taking the host gets it unchecked: the agent checked its type once, when given it. The
// ports the callable takes after the context are bound to the node's parameters, and read
// into its arguments at each call.
template <typename Callable, typename... Ports>
class callable_leaf : public node {
    using host = typename host_parameter<Callable>::type;

public:
    callable_leaf(Callable callable, std::tuple<Ports...> ports)
        : callable_(std::move(callable)), ports_(std::move(ports)) {}

protected:
    decltype(auto) call(context& ctx) const {
        return std::apply(
            [&](const Ports&... ports) -> decltype(auto) {
                if constexpr (std::is_void_v<host>) {
                    return callable_(ctx, port_argument(ports, ctx)...);
                } else {
                    return callable_(ctx.host<host>(unchecked), ctx, port_argument(ports, ctx)...);
                }
            },
            ports_);
    }

private:
    Callable callable_;
    std::tuple<Ports...> ports_;
};

template <typename Action, typename... Ports>
class action_leaf final : public callable_leaf<Action, Ports...> {
public:
    using callable_leaf<Action, Ports...>::callable_leaf;
    status tick(context& ctx) const override { return this->call(ctx); }
};

template <typename Condition, typename... Ports>
class condition_leaf final : public callable_leaf<Condition, Ports...> {
public:
    using callable_leaf<Condition, Ports...>::callable_leaf;
    status tick(context& ctx) const override {
        return this->call(ctx) ? status::success : status::failure;
    }
};

// Whether a callable taking the host (or not) and the context can take these ports' values.
template <typename Result, typename F, typename... Ports>
constexpr bool callable_with() {
    using host = typename host_parameter<F>::type;
    if constexpr (std::is_void_v<host>) {
        return std::is_invocable_r_v<Result, const F&, context&, port_argument_t<Ports>...>;
    } else {
        return std::is_invocable_r_v<Result, const F&, host&, context&, port_argument_t<Ports>...>;
    }
}

template <typename... Ports>
inline constexpr bool all_ports = (is_port<Ports>::value && ...);

template <typename T>
struct is_std_function : std::false_type {};
template <typename Signature>
struct is_std_function<std::function<Signature>> : std::true_type {};

// Whether a callable may be null, and is.
template <typename F>
bool is_null_callable(const F& f) {
    if constexpr (std::is_pointer_v<F> || std::is_member_pointer_v<F> ||
                  is_std_function<F>::value) {
        return !f;
    } else {
        return false;
    }
}

// Whether Node declares `static constexpr bool NAME = true`: detail::NAME<Node>::value.
#define CANOPY_DETAIL_FLAG_TRAIT(NAME)        \
    template <typename Node, typename = void> \
    struct NAME : std::false_type {};         \
    template <typename Node>                  \
    struct NAME<Node, std::void_t<decltype(Node::NAME)>> : std::bool_constant<Node::NAME> {};
CANOPY_DETAIL_FLAG_TRAIT(watches_updates)
CANOPY_DETAIL_FLAG_TRAIT(listens_while_idle)
CANOPY_DETAIL_FLAG_TRAIT(sees_errors)
CANOPY_DETAIL_FLAG_TRAIT(abandons_children)
CANOPY_DETAIL_FLAG_TRAIT(ticks_in_order)
CANOPY_DETAIL_FLAG_TRAIT(runs_scripts_whole)
CANOPY_DETAIL_FLAG_TRAIT(stays_idle_when_skipped)
CANOPY_DETAIL_FLAG_TRAIT(waits_on_children)
#undef CANOPY_DETAIL_FLAG_TRAIT

// The host type Node declares it needs, `using host_type = Host;`, or void.
template <typename Node, typename = void>
struct declared_host {
    using type = void;
};
template <typename Node>
struct declared_host<Node, std::void_t<typename Node::host_type>> {
    using type = typename Node::host_type;
};

// Whether Node declares its parameters: `static std::vector<param_spec> parameters()`.
template <typename Node, typename = void>
struct declares_parameters : std::false_type {};
template <typename Node>
struct declares_parameters<Node, std::void_t<decltype(Node::parameters())>>
    : std::is_convertible<decltype(Node::parameters()), std::vector<param_spec>> {};

}  // namespace detail

/// Maps node type names and numeric type ids to node types. Registration is explicit: an
/// application fills its own registry, e.g. with register_builtin_nodes(), before loading.
/// Trees copy what they need, so a registry may be destroyed before the trees built with it.
class registry {
public:
    registry() = default;
    // Its lookup tables point into its own storage: moving keeps them valid, copying would not.
    registry(registry&&) noexcept = default;
    registry& operator=(registry&&) noexcept = default;
    registry(const registry&) = delete;
    registry& operator=(const registry&) = delete;

    /// Adds a node type and returns it.
    /// @warning throws registry_error if the name is empty, the name or id is taken, two
    /// params share a name, or a default value does not have its param's type.
    const node_type& add(node_type type);

    /// Adds a leaf type without parameters or behaviour: trees using it load and print, but
    /// agents refuse to run them.
    const node_type& add_leaf(std::string name, std::optional<std::int64_t> id = std::nullopt);

    /// Adds a leaf that runs `action` on each tick: any callable as `status(context&)`, or as
    /// `status(Host&, context&)` to be given the agent's host (then every agent of a tree
    /// using the type must have a Host, checked when the agent is given it). The callable is
    /// copied into each node's object, so a lambda costs what a built-in leaf does: one
    /// virtual call per visit.
    ///
    /// The ports after it (canopy::input, output, setting) are the type's parameters, and the
    /// callable takes them, after the context, as arguments: an input's value for this tick,
    /// a setting's value, an output to set:
    ///
    ///     reg.add_action("Say", [](canopy::context&, std::string_view text) { ...; },
    ///                    canopy::input<std::string_view>("text"));
    ///
    /// @warning throws registry_error for a null function pointer or empty std::function.
    template <typename Action, typename... Ports,
              typename = std::enable_if_t<detail::all_ports<Ports...>>>
    const node_type& add_action(std::string name, Action action, Ports... ports) {
        return add_action(std::move(name), std::move(action), std::nullopt, std::move(ports)...);
    }
    /// The same, with the numeric type id files may use instead of the name.
    template <typename Action, typename... Ports,
              typename = std::enable_if_t<detail::all_ports<Ports...>>>
    const node_type& add_action(std::string name, Action action, std::optional<std::int64_t> id,
                                Ports... ports) {
        static_assert(detail::callable_with<status, Action, Ports...>(),
                      "an action is called as canopy::status(canopy::context&, ports...) const, "
                      "or as canopy::status(Host&, canopy::context&, ports...) const, where each "
                      "port gives an argument: an input<T> or setting<T> its value (T, or "
                      "std::string_view for a string port, const T& for a registered type), an "
                      "output<T> itself, as const canopy::output<T>&");
        return add_callable<detail::action_leaf<Action, Ports...>>(
            "action", std::move(name), std::move(action), id, {}, std::move(ports)...);
    }
    /// Adds an action whose callable reads its parameters from the context (ctx.params()),
    /// declared as param_specs: for the parameter types ports do not cover (key, script).
    template <typename Action>
    const node_type& add_action(std::string name, Action action, std::optional<std::int64_t> id,
                                std::vector<param_spec> params) {
        static_assert(detail::callable_with<status, Action>(),
                      "an action is called as canopy::status(canopy::context&) const, or as "
                      "canopy::status(Host&, canopy::context&) const");
        return add_callable<detail::action_leaf<Action>>("action", std::move(name),
                                                         std::move(action), id, std::move(params));
    }
    /// Adds a leaf that succeeds when `condition` holds and fails otherwise: any callable as
    /// `bool(context&)` or `bool(Host&, context&)`, with ports as add_action; costs as
    /// add_action.
    /// @warning throws registry_error for a null function pointer or empty std::function.
    template <typename Condition, typename... Ports,
              typename = std::enable_if_t<detail::all_ports<Ports...>>>
    const node_type& add_condition(std::string name, Condition condition, Ports... ports) {
        return add_condition(std::move(name), std::move(condition), std::nullopt,
                             std::move(ports)...);
    }
    template <typename Condition, typename... Ports,
              typename = std::enable_if_t<detail::all_ports<Ports...>>>
    const node_type& add_condition(std::string name, Condition condition,
                                   std::optional<std::int64_t> id, Ports... ports) {
        static_assert(detail::callable_with<bool, Condition, Ports...>(),
                      "a condition is called as bool(canopy::context&, ports...) const, or as "
                      "bool(Host&, canopy::context&, ports...) const, where each port gives an "
                      "argument as add_action says");
        return add_callable<detail::condition_leaf<Condition, Ports...>>(
            "condition", std::move(name), std::move(condition), id, {}, std::move(ports)...);
    }
    template <typename Condition>
    const node_type& add_condition(std::string name, Condition condition,
                                   std::optional<std::int64_t> id, std::vector<param_spec> params) {
        static_assert(detail::callable_with<bool, Condition>(),
                      "a condition is called as bool(canopy::context&) const, or as "
                      "bool(Host&, canopy::context&) const");
        return add_callable<detail::condition_leaf<Condition>>(
            "condition", std::move(name), std::move(condition), id, std::move(params));
    }
    /// Adds a type whose nodes are Node objects.
    ///
    /// Node declares its parameters as members, where it reads them: canopy::input,
    /// canopy::output and canopy::setting, each with its name (and default):
    ///
    ///     class move_to final : public canopy::node {
    ///         canopy::input<Pose2D> goal_{"goal"};
    ///         canopy::input<double> speed_{"speed", 1.0};
    ///         ...
    ///
    /// To learn them, add<Node> makes one Node here, default-constructed, whose ports
    /// declare themselves (they hold their defaults, read as from the blackboard; what its
    /// constructor throws is ignored); each node's object then has its ports bound to the
    /// node's parameters, checked and converted at load, as its members are made. A class
    /// may also list parameters the ports do not cover (key, script) as param_specs in
    /// `static std::vector<param_spec> parameters()`, and take `const param_list&` in its
    /// constructor to read them. The runtime calls the hooks (enter, exit, halt) that Node
    /// overrides, and no other.
    ///
    /// A class whose nodes need the agent's host says so with `using host_type = Robot;`:
    /// every agent of a tree using the type is then checked, when it is made or given a host,
    /// to have a Robot (as for an action taking `Robot&`), so a node on a branch rarely taken
    /// cannot find a missing host only in play. Its nodes read it with ctx.host<Robot>().
    template <typename Node>
    const node_type& add(std::string name, std::optional<std::int64_t> id = std::nullopt,
                         canopy::arity arity = arity::leaf) {
        static_assert(std::is_base_of_v<node, Node>, "Node must derive from canopy::node");
        static_assert(!std::is_abstract_v<Node>, "Node must override tick(context&) const");
        std::vector<param_spec> params;
        if constexpr (detail::declares_parameters<Node>::value) params = Node::parameters();
        if constexpr (std::is_default_constructible_v<Node>) {
            const detail::port_scope declaring(params);
            // Its ports are declared before the constructor's body runs; a check of a
            // setting's default or zero may refuse it, and is the loader's to report.
            detail::call_ignoring_errors([] { [[maybe_unused]] const Node prototype{}; });
        }
        node_type type{std::move(name), id, arity, std::move(params),
                       [](const param_list& p) -> std::unique_ptr<node> {
                           const detail::port_scope binding(p);
                           if constexpr (std::is_constructible_v<Node, const param_list&>) {
                               return std::make_unique<Node>(p);
                           } else {
                               return std::make_unique<Node>();
                           }
                       }};
        type.hooks = detail::overridden_hooks<Node>();
        type.watches_updates = detail::watches_updates<Node>::value;
        type.listens_while_idle = detail::listens_while_idle<Node>::value;
        type.sees_errors = detail::sees_errors<Node>::value;
        type.abandons_children = detail::abandons_children<Node>::value;
        type.ticks_in_order = detail::ticks_in_order<Node>::value;
        type.runs_scripts_whole = detail::runs_scripts_whole<Node>::value;
        type.stays_idle_when_skipped = detail::stays_idle_when_skipped<Node>::value;
        type.waits_on_children = detail::waits_on_children<Node>::value;
        using host = typename detail::declared_host<Node>::type;
        static_assert(std::is_void_v<host> || std::is_class_v<host> || std::is_union_v<host>,
                      "`using host_type = Host;` names the class of the agent's host (as "
                      "`robot`, not `robot*` or `robot&`)");
        if constexpr (!std::is_void_v<host>) type.host = detail::host_type_of<host>();
        return add(std::move(type));
    }

    /// Declares a blackboard key, of type integer, number, boolean or string, that trees
    /// built with this registry give every agent, and that parameters may name. Each agent's
    /// value starts as `initial`, or else 0, 0.0, false or "".
    /// @warning throws registry_error for a taken name, another type, or an initial value
    /// not of the key's type.
    void add_key(std::string name, param_type type, std::optional<param_value> initial = {});
    const std::vector<blackboard_key>& keys() const noexcept { return keys_; }

    /// Registers a name scripts may use for an integer constant (docs/scripting.md), as
    /// BehaviorTree.CPP's registerScriptingEnum does: `state == RUNNING`.
    /// @warning throws registry_error for an empty name or a name already registered.
    void add_enum(std::string name, std::int64_t value);
    /// The value of an enum name, if registered.
    std::optional<std::int64_t> find_enum(std::string_view name) const;
    const enum_table& enums() const noexcept { return enums_; }
    /// Registers a C++ type for the blackboard under `name`, which files use to declare keys
    /// of it: `from_text` reads a value from a file's text (BehaviorTree.CPP's
    /// convertFromString<T>, throwing for text it cannot read) and `to_text` shows one (its
    /// toStr), for print, trace and viewer. E.g.
    /// `reg.add_type<pose>("Pose2D", read_pose, show_pose)` for `"1;2;0.5"`.
    /// @warning throws registry_error for an empty or taken name (the built-in type names
    /// included), or the same T under two names.
    template <typename T>
    const value_type& add_type(std::string name, std::function<T(std::string_view)> from_text,
                               std::function<std::string(const T&)> to_text) {
        return add_type(
            make_value_type<T>(std::move(name), std::move(from_text), std::move(to_text)));
    }
    /// Registers a type made by make_value_type.
    const value_type& add_type(std::shared_ptr<const value_type> type);
    /// Registers BehaviorTree.CPP's vector types (builtin_value_types()): std::vector<int>,
    /// std::vector<double> and std::vector<std::string>, read from "1;2;3".
    void add_builtin_types();
    /// The registered type of that name, or null.
    std::shared_ptr<const value_type> find_type(std::string_view name) const;
    /// The registered type whose C++ type is T, or null.
    template <typename T>
    std::shared_ptr<const value_type> find_type() const {
        for (const auto& type : value_types_)
            if (type->is<T>()) return type;
        return nullptr;
    }
    const std::vector<std::shared_ptr<const value_type>>& value_types() const noexcept {
        return value_types_;
    }
    /// Declares a blackboard key of a registered type (as the other add_key does): each
    /// agent's value starts as `initial_text` read with the type's from_text, or else as T().
    /// @warning throws registry_error for an unregistered type, a taken name, or an initial
    /// text the type cannot read.
    void add_key(std::string name, std::string_view type_name,
                 std::optional<std::string> initial_text);

    /// Makes `alias` another name for the registered type `target` (e.g. "Fallback" for
    /// "Selector"). Trees print a node by its type's registered name, whatever the file said.
    void add_alias(std::string alias, std::string_view target);

    /// Describes a registered type for editors' palettes (write_palette): what it does and, by
    /// parameter name, what each parameter means, as
    ///
    ///     reg.describe("Chase", "Runs at the target until within reach",
    ///                  {{"speed", "metres per second"}, {"target", "the entity chased"}});
    ///
    /// Parameters it does not name keep their descriptions. Returns the type.
    /// @warning throws registry_error for a name no type has, or a parameter the type lacks.
    const node_type& describe(std::string_view type_name, std::string description,
                              const std::vector<std::pair<std::string, std::string>>& params = {});

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

    // A leaf type whose nodes are Leaf objects, each holding a copy of the callable and of
    // the ports, bound to the node's parameters.
    template <typename Leaf, typename Callable, typename... Ports>
    const node_type& add_callable(const char* kind, std::string name, Callable callable,
                                  std::optional<std::int64_t> id, std::vector<param_spec> params,
                                  Ports... ports) {
        if (detail::is_null_callable(callable)) {
            detail::throw_registry_error(std::string(kind) + " '" + name + "' has no function");
        }
        if (((ports.declaration() == nullptr) || ...)) {
            detail::throw_registry_error(
                std::string(kind) + " '" + name +
                "' is given a port bound to a node already: give it ports made "
                "for it, as canopy::input<int>(\"name\")");
        }
        (params.push_back(*ports.declaration()), ...);
        node_type type{
            std::move(name), id, arity::leaf, std::move(params),
            [callable = std::move(callable),
             ports = std::make_tuple(std::move(ports)...)](const param_list& p) {
                std::tuple<Ports...> bound = ports;
                std::apply([&](Ports&... each) { (each.bind(p, each.declaration()->name), ...); },
                           bound);
                return std::unique_ptr<node>(new Leaf(callable, std::move(bound)));
            }};
        type.condition = std::is_same_v<Leaf, detail::condition_leaf<Callable, Ports...>>;
        type.hooks = 0;
        using host = typename detail::host_parameter<Callable>::type;
        if constexpr (!std::is_void_v<host>) type.host = detail::host_type_of<host>();
        return add(std::move(type));
    }

    std::deque<node_type> types_;  // a deque keeps references stable as types are added
    std::unordered_map<std::string, const node_type*> by_name_;
    std::unordered_map<std::int64_t, const node_type*> by_id_;
    std::vector<std::string> alias_names_;
    std::vector<blackboard_key> keys_;
    enum_table enums_;
    std::vector<std::shared_ptr<const value_type>> value_types_;
};

}  // namespace canopy
