#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/core/param.hpp"
#include "canopy/run/context.hpp"

namespace canopy {

namespace detail {

// Characters are not numbers to a port; std::int8_t and std::uint8_t (signed and unsigned
// char) are.
template <typename T>
inline constexpr bool character_type = std::is_same_v<T, char> || std::is_same_v<T, wchar_t> ||
                                       std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>;
template <typename T>
inline constexpr bool integer_port =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !character_type<T>;
template <typename T>
inline constexpr bool string_port =
    std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>;
// A port whose value is a parameter value (bool, an integer, a number or a string) rather
// than a type the program registered.
template <typename T>
inline constexpr bool builtin_port =
    std::is_same_v<T, bool> || integer_port<T> || std::is_floating_point_v<T> || string_port<T>;

// How a built-in port's value is held in a parameter and on the blackboard.
template <typename T>
using held_t = std::conditional_t<
    std::is_same_v<T, bool>, bool,
    std::conditional_t<integer_port<T>, std::int64_t,
                       std::conditional_t<std::is_floating_point_v<T>, double, std::string>>>;

template <typename T>
constexpr param_type port_type() noexcept {
    if constexpr (std::is_same_v<T, bool>) {
        return param_type::boolean;
    } else if constexpr (integer_port<T>) {
        return param_type::integer;
    } else if constexpr (std::is_floating_point_v<T>) {
        return param_type::number;
    } else if constexpr (string_port<T>) {
        return param_type::string;
    } else {
        return param_type::custom;
    }
}

template <typename T>
void check_port_type() {
    static_assert(!std::is_reference_v<T> && !std::is_const_v<T> && !std::is_pointer_v<T>,
                  "a port's type is a value type: int, double, std::string, Pose2D");
    static_assert(!character_type<T>,
                  "a port holds text as std::string or std::string_view, and small numbers as "
                  "an integer type other than char");
}

// Whether a value the parameter holds (an integer, a number) fits the port's type.
template <typename T>
bool fits(std::int64_t value) noexcept {
    if constexpr (std::is_signed_v<T>) {
        return value >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
               value <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
    } else {
        return value >= 0 && static_cast<std::uint64_t>(value) <= std::numeric_limits<T>::max();
    }
}
template <typename T>
bool fits(double value) noexcept {
    return !std::isfinite(value) ||
           std::fabs(value) <= static_cast<double>(std::numeric_limits<T>::max());
}

// The C++ names of the types ports hold, for messages: "int", "std::uint8_t".
std::string cpp_name(type_id type);

// Ports while a registry makes node objects. registry::add<Node> makes one Node to learn
// the ports its members declare (a declaring scope), and then each node's object binds its
// ports to the node's parameters as its members are made (a binding scope): so a port is
// declared once, by the member that reads it. The scope is the innermost one on the thread.
class port_scope {
public:
    explicit port_scope(std::vector<param_spec>& declared) noexcept;
    explicit port_scope(const param_list& params) noexcept;
    ~port_scope();
    port_scope(const port_scope&) = delete;
    port_scope& operator=(const port_scope&) = delete;

    /// The innermost scope on this thread, or null.
    static port_scope* current() noexcept;
    /// Where a declaring scope collects the ports' declarations; null when binding.
    std::vector<param_spec>* declared() const noexcept { return declared_; }
    /// The node's parameters, when binding.
    const param_list& params() const noexcept { return params_; }

private:
    std::vector<param_spec>* declared_ = nullptr;
    param_list params_;
    port_scope* outer_;
};

// The slot of a port that no node's parameters bound: one made to declare (in the object
// registry::add<Node> makes to learn its ports) or outside a registry (by a hand-written
// creator). Reading it is an error; it counts as "from the blackboard", so that a
// constructor that checks literals (`!port.from_blackboard()`) leaves it alone.
inline constexpr std::uint32_t unbound_port = param::no_key - 1;

[[noreturn]] void throw_unbound_port(const context& ctx);
[[noreturn]] void throw_out_of_range(const context& ctx, std::uint32_t slot, type_id type);
[[noreturn]] void throw_literal_mismatch(const param& found, type_id type, param_type wanted);
[[noreturn]] void throw_no_object(type_id type);

// Where a port being made goes: outside a registry (a lambda's port) it keeps its
// declaration in `kept`; in a registry's declaring scope its declaration joins the node
// type's; in a binding scope it is bound, and the result is the node's parameters to bind it
// to (else null). `declaration` makes the port's param_spec, only when it is wanted.
template <typename Declaration>
const param_list* declare_or_bind(Declaration declaration,
                                  std::shared_ptr<const param_spec>& kept) {
    port_scope* scope = port_scope::current();
    if (scope == nullptr) {
        kept = std::make_shared<const param_spec>(declaration());
    } else if (scope->declared() != nullptr) {
        scope->declared()->push_back(declaration());
    } else {
        return &scope->params();
    }
    return nullptr;
}

// The node's parameter a port binds to.
// @warning throws param_error when the node's type declares none of that name.
const param& bound_param(const param_list& params, std::string_view name);

// A registered type's literal, checked to be a T.
template <typename T>
std::shared_ptr<const void> literal_object(const param& found) {
    if (found.object == nullptr || found.object_type != type_id_of<T>())
        throw_literal_mismatch(found, type_id_of<T>(), param_type::custom);
    return found.object;
}

// A declared port's default, as a parameter value: T for an integer (checked to fit), a number
// or a boolean, text for a string or a registered type.
template <typename T, typename Default>
param_value default_value(std::string_view name, const Default& value) {
    if constexpr (integer_port<T>) {
        if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
            if (value > static_cast<T>(std::numeric_limits<std::int64_t>::max())) {
                detail::throw_registry_error("the default of port '" + std::string(name) +
                                             "' is larger than an integer parameter holds");
            }
        }
        return static_cast<std::int64_t>(value);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<double>(value);
    } else if constexpr (std::is_same_v<T, bool>) {
        return value;
    } else {
        return std::string(value);
    }
}

// The declaration of a port of type T, and of its default.
template <typename T>
param_spec port_declaration(std::string_view name, bool output, bool literal_only) {
    param_spec spec{std::string(name), port_type<T>(), std::nullopt, output, nullptr};
    if constexpr (!builtin_port<T>) spec.cpp_type = type_id_of<T>();
    spec.literal_only = literal_only;
    return spec;
}
template <typename T, typename Default>
param_spec port_declaration(std::string_view name, const std::optional<Default>& default_value,
                            bool literal_only) {
    param_spec spec = port_declaration<T>(name, false, literal_only);
    if (default_value) spec.default_value = detail::default_value<T>(name, *default_value);
    return spec;
}

// A literal parameter as a built-in port's T: checked to fit.
template <typename T>
held_t<T> literal_as(const param& found) {
    using held = held_t<T>;
    const held* value = std::get_if<held>(&found.value);
    if (value == nullptr) throw_literal_mismatch(found, type_id_of<T>(), port_type<T>());
    if constexpr (integer_port<T> || std::is_floating_point_v<T>) {
        if (!fits<T>(*value)) throw_literal_mismatch(found, type_id_of<T>(), port_type<T>());
    }
    return *value;
}

// What get() gives of a held value: T itself (its range was checked), a view of a string.
template <typename T>
using port_value_t = std::conditional_t<std::is_same_v<T, std::string_view>, std::string_view,
                                        std::conditional_t<builtin_port<T>, T, const T&>>;

// A value read from a key (an integer, a number) as T, or a located error when it does not
// fit.
template <typename T, typename Held>
T narrowed(const context& ctx, std::uint32_t slot, Held value) {
    if constexpr ((integer_port<T> && !std::is_same_v<T, std::int64_t>) ||
                  std::is_same_v<T, float> || std::is_same_v<T, long double>) {
        if (CANOPY_UNLIKELY(!fits<T>(value))) throw_out_of_range(ctx, slot, type_id_of<T>());
    }
    return static_cast<T>(value);
}

// A key that is a dynamic entry of a BehaviorTree.CPP file (param::dynamic), read and written
// as BehaviorTree.CPP's getInput<T> and setOutput<T> convert (docs/btcpp-xml.md, "Dynamic
// entries"): text read as T, a number cast to T, with BehaviorTree.CPP's failures, which
// throw canopy::error (code `blackboard`) naming the node. A string read is valid until the
// entry changes; a number read as text, until the fourth such read after it on the thread.
// A `json` key (a behavior3 file's variable) is read as behavior3-ts's nodes read a JavaScript
// value; one not set gives the parameter's default, as there.
std::int64_t read_dynamic_integer(const context& ctx, std::uint32_t slot);
double read_dynamic_number(const context& ctx, std::uint32_t slot);
bool read_dynamic_boolean(const context& ctx, std::uint32_t slot);
std::string_view read_dynamic_string(const context& ctx, std::uint32_t slot);
bool holds_javascript(const blackboard& board, std::uint32_t slot) noexcept;
void write_dynamic(context& ctx, std::uint32_t slot, std::int64_t value);
void write_dynamic(context& ctx, std::uint32_t slot, double value);
void write_dynamic(context& ctx, std::uint32_t slot, bool value);
void write_dynamic(context& ctx, std::uint32_t slot, std::string_view value);

template <typename T>
T read_dynamic(const context& ctx, std::uint32_t slot) {
    if constexpr (std::is_same_v<T, bool>) {
        return read_dynamic_boolean(ctx, slot);
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return read_dynamic_integer(ctx, slot);
    } else if constexpr (std::is_same_v<T, double>) {
        return read_dynamic_number(ctx, slot);
    } else {
        return read_dynamic_string(ctx, slot);
    }
}

}  // namespace detail

/// A parameter a node reads at each tick: the file's literal, or the current value of the
/// blackboard key the file named as `"{key}"`. The loader checked the key's type against the
/// parameter's, so reading is one branch and, for a key, one load from the agent's block.
///
/// T is bool, any integer type, float or double, std::string or std::string_view, or a type
/// registered with registry::add_type (Pose2D). A node class declares the port once, as a
/// member, with its name and, for an optional one, its default:
///
///     canopy::input<double> speed_{"speed", 1.5};
///     canopy::input<Pose2D> goal_{"goal"};           // a registered type: its default is text
///
/// and registry::add<Node> learns the node type's parameters from those members, then binds
/// each node's members to the node's parameters. A lambda takes its ports as arguments
/// (registry::add_action). A literal that T cannot hold (300 for a std::uint8_t) is an error
/// at load, located; a key's value that does not fit, an error naming the node at the tick
/// that reads it.
template <typename T>
class input {
    static constexpr bool builtin = detail::builtin_port<T>;
    using held = std::conditional_t<builtin, detail::held_t<T>, std::shared_ptr<const void>>;

public:
    /// What get() returns: T (a copy of a string for std::string), std::string_view for a
    /// std::string_view port, a reference for a registered type.
    using value_type = detail::port_value_t<T>;
    /// A default's type: T, or text (for a string, or for a registered type's from_text).
    using default_type =
        std::conditional_t<builtin && !detail::string_port<T>, T, std::string_view>;

    /// A required port.
    explicit input(std::string_view name) { declare_or_bind(name, std::optional<default_type>()); }
    /// An optional port, with its default.
    input(std::string_view name, default_type default_value) {
        declare_or_bind(name, std::optional<default_type>(default_value));
    }
    /// Binds to a parameter the node's type declares as a param_spec (node_type::params), for
    /// classes that list their parameters in `parameters()`.
    /// @warning throws param_error when the node's type declares no such parameter, or
    /// declares it of another type than T.
    input(const param_list& params, std::string_view name) {
        detail::check_port_type<T>();
        bind(params, name);
    }

    /// The value for this tick.
    /// @warning throws canopy::error (code `blackboard`), naming the node, for a key that
    /// holds no value (context::require_value) or a value T cannot hold.
    value_type get(const context& ctx) const {
        if (key_ == param::no_key) return literal();
        return read(ctx);
    }
    /// Whether the value comes from the blackboard (else it is literal()). True for a port
    /// no node bound (in the object registry::add<Node> makes to learn the ports).
    bool from_blackboard() const noexcept { return key_ != param::no_key; }
    /// The key's slot, or param::no_key.
    std::uint32_t key() const noexcept { return key_; }
    /// The file's value; meaningful only when !from_blackboard().
    value_type literal() const {
        if constexpr (builtin) {
            return static_cast<value_type>(literal_);
        } else {
            if (literal_ == nullptr) detail::throw_no_object(type_id_of<T>());
            return *static_cast<const T*>(literal_.get());
        }
    }

    /// The declaration of a port made outside a registry (a lambda's, which
    /// registry::add_action reads), or null.
    const param_spec* declaration() const noexcept { return declared_.get(); }
    /// Binds the port to the node's parameter of its name (what a registry does).
    /// @warning throws param_error as the constructor from a param_list does.
    void bind(const param_list& params, std::string_view name) {
        const param& found = detail::bound_param(params, name);
        key_ = found.key;
        dynamic_ = found.dynamic;
        declared_ = nullptr;
        if constexpr (std::is_floating_point_v<T>) scale_ = static_cast<T>(found.key_scale);
        if constexpr (builtin) {
            // A key's parameter holds the type's zero, or the default a dynamic entry falls
            // back on.
            if (key_ == param::no_key || std::holds_alternative<held>(found.value))
                literal_ = detail::literal_as<T>(found);
        } else if (key_ == param::no_key) {
            literal_ = detail::literal_object<T>(found);
        }
    }

private:
    template <typename Default>
    void declare_or_bind(std::string_view name, const std::optional<Default>& default_value) {
        detail::check_port_type<T>();
        const auto declaration = [&] {
            return detail::port_declaration<T>(name, default_value, false);
        };
        if (const param_list* params = detail::declare_or_bind(declaration, declared_))
            bind(*params, name);
    }

    value_type read(const context& ctx) const {
        if (CANOPY_UNLIKELY(key_ == detail::unbound_port)) detail::throw_unbound_port(ctx);
        const canopy::blackboard board = ctx.blackboard();
        if (!board.is_set(key_)) {
            if constexpr (builtin) {
                if (dynamic_ && detail::holds_javascript(board, key_)) return literal();
            }
            ctx.require_value(key_);
        }
        if constexpr (std::is_same_v<T, std::string>) {
            return std::string(dynamic_ ? detail::read_dynamic_string(ctx, key_)
                                        : board.get<std::string_view>(key_));
        } else if constexpr (builtin) {
            using read_as = std::conditional_t<detail::string_port<T>, std::string_view, held>;
            const read_as value =
                dynamic_ ? detail::read_dynamic<read_as>(ctx, key_) : board.get<read_as>(key_);
            if constexpr (detail::string_port<T>) {
                return value;
            } else if constexpr (std::is_floating_point_v<T>) {
                return detail::narrowed<T>(ctx, key_, value) * scale_;
            } else {
                return detail::narrowed<T>(ctx, key_, value);
            }
        } else {
            return board.template get_ref<T>(key_);
        }
    }

    held literal_{};
    std::uint32_t key_ = detail::unbound_port;
    bool dynamic_ = false;
    // A floating-point key's value is multiplied by it (param::key_scale).
    std::conditional_t<std::is_floating_point_v<T>, T, char> scale_ = 1;
    std::shared_ptr<const param_spec> declared_;  // made outside a registry: its declaration
};

/// An output parameter: the blackboard key the file named, which the node writes. A node
/// whose file left the output out writes nowhere. T as for input; a member declares it:
/// `canopy::output<int> count_{"count"};`.
template <typename T>
class output {
    using argument = std::conditional_t<detail::string_port<T>, std::string_view, const T&>;

public:
    /// An output port.
    explicit output(std::string_view name) {
        detail::check_port_type<T>();
        const auto declaration = [&] { return detail::port_declaration<T>(name, true, false); };
        if (const param_list* params = detail::declare_or_bind(declaration, declared_))
            bind(*params, name);
    }
    /// Binds to a parameter the node's type declares as a param_spec.
    /// @warning throws param_error when the node's type declares no such parameter.
    output(const param_list& params, std::string_view name) {
        detail::check_port_type<T>();
        bind(params, name);
    }

    /// Writes the value to the key, if the file named one.
    /// @warning throws canopy::error, naming the node, for a port no node bound.
    void set(context& ctx, argument value) const {
        if (key_ == param::no_key) return;
        if (CANOPY_UNLIKELY(key_ == detail::unbound_port)) detail::throw_unbound_port(ctx);
        if constexpr (detail::builtin_port<T>) {
            using held =
                std::conditional_t<detail::string_port<T>, std::string_view, detail::held_t<T>>;
            if (dynamic_) return detail::write_dynamic(ctx, key_, static_cast<held>(value));
            ctx.blackboard().set(key_, static_cast<held>(value));
        } else {
            ctx.blackboard().set(key_, value);
        }
    }
    /// Unsets the key (blackboard::unset), if the file named one.
    void unset(context& ctx) const {
        if (key_ == param::no_key) return;
        if (CANOPY_UNLIKELY(key_ == detail::unbound_port)) detail::throw_unbound_port(ctx);
        ctx.blackboard().unset(key_);
    }
    /// Whether the file named a key.
    bool connected() const noexcept {
        return key_ != param::no_key && key_ != detail::unbound_port;
    }
    /// The key's slot, or param::no_key.
    std::uint32_t key() const noexcept { return key_; }

    /// As input::declaration and input::bind.
    const param_spec* declaration() const noexcept { return declared_.get(); }
    void bind(const param_list& params, std::string_view name) {
        const param& found = detail::bound_param(params, name);
        key_ = found.key;
        dynamic_ = found.dynamic;
        declared_ = nullptr;
    }

private:
    std::uint32_t key_ = detail::unbound_port;
    bool dynamic_ = false;
    std::shared_ptr<const param_spec> declared_;
};

/// A parameter fixed when the tree is built: the file gives a literal (a `"{key}"` is an error
/// at load, located), which the node reads as value() from then on, in its constructor as
/// well. For what shapes a node (a count of cycles, a policy): `canopy::setting<int>
/// cycles_{"num_cycles", 1};`. T and defaults as for input.
template <typename T>
class setting {
    static constexpr bool builtin = detail::builtin_port<T>;
    using held = std::conditional_t<builtin, detail::held_t<T>, std::shared_ptr<const void>>;

public:
    using default_type = typename input<T>::default_type;
    /// T for a number or a boolean, a reference to the text for std::string, a view for
    /// std::string_view, a reference for a registered type.
    using value_type =
        std::conditional_t<std::is_same_v<T, std::string>, const std::string&,
                           std::conditional_t<std::is_same_v<T, std::string_view>, std::string_view,
                                              std::conditional_t<builtin, T, const T&>>>;

    explicit setting(std::string_view name) {
        declare_or_bind(name, std::optional<default_type>());
    }
    setting(std::string_view name, default_type default_value) {
        declare_or_bind(name, std::optional<default_type>(default_value));
    }

    /// The file's value (in the object registry::add<Node> makes to learn its ports, the
    /// default or zero; a registered type's is absent there, and reading it throws).
    value_type value() const {
        if constexpr (builtin) {
            return static_cast<value_type>(value_);
        } else {
            if (value_ == nullptr) detail::throw_no_object(type_id_of<T>());
            return *static_cast<const T*>(value_.get());
        }
    }
    value_type operator*() const { return value(); }

    /// As input::declaration and input::bind.
    const param_spec* declaration() const noexcept { return declared_.get(); }
    void bind(const param_list& params, std::string_view name) {
        const param& found = detail::bound_param(params, name);
        if (found.key != param::no_key) {
            detail::throw_param_error("parameter '" + std::string(name) +
                                      "' takes a literal value here, not a blackboard key");
        }
        declared_ = nullptr;
        if constexpr (builtin) {
            value_ = detail::literal_as<T>(found);
        } else {
            value_ = detail::literal_object<T>(found);
        }
    }

private:
    template <typename Default>
    void declare_or_bind(std::string_view name, const std::optional<Default>& default_value) {
        detail::check_port_type<T>();
        const auto declaration = [&] {
            return detail::port_declaration<T>(name, default_value, true);
        };
        if (const param_list* params = detail::declare_or_bind(declaration, declared_))
            return bind(*params, name);
        if constexpr (builtin) {
            if (default_value) value_ = held(*default_value);
        }
    }

    held value_{};
    std::shared_ptr<const param_spec> declared_;
};

namespace detail {

template <typename P>
struct is_port : std::false_type {};
template <typename T>
struct is_port<input<T>> : std::true_type {};
template <typename T>
struct is_port<output<T>> : std::true_type {};
template <typename T>
struct is_port<setting<T>> : std::true_type {};

// What a lambda registered with ports receives for each: an input's value for this tick, a
// setting's value, an output itself (to set).
template <typename T>
typename input<T>::value_type port_argument(const input<T>& port, const context& ctx) {
    return port.get(ctx);
}
template <typename T>
typename setting<T>::value_type port_argument(const setting<T>& port, const context& /*ctx*/) {
    return port.value();
}
template <typename T>
const output<T>& port_argument(const output<T>& port, const context& /*ctx*/) {
    return port;
}
template <typename P>
using port_argument_t =
    decltype(port_argument(std::declval<const P&>(), std::declval<const context&>()));

}  // namespace detail

}  // namespace canopy
