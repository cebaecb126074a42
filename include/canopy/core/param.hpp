#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/core/type_id.hpp"
#include "canopy/core/value_type.hpp"

namespace canopy {

class script;  // canopy/run/script.hpp

/// The value types a node parameter may have.
enum class param_type : std::uint8_t {
    integer,
    number,
    boolean,
    string,
    /// The name of a blackboard key the registry declares (registry::add_key). The file gives
    /// the name; the node reads the key's slot as an integer: params.get<std::int64_t>(...).
    key,
    /// A value of the type of the node's one `key` parameter, converted to it at load.
    key_value,
    /// Any value, kept as the file wrote it, or any key: the parameters of node types that
    /// lenient loading learns from a file (see load_options::lenient). Optional even
    /// without a default.
    any,
    /// A script (docs/scripting.md), as text, which the builder compiles against the tree's
    /// blackboard when it builds the tree; the node reads it with param_list::script().
    script,
    /// A C++ type the program registered (registry::add_type), named by the spec's or key's
    /// `custom` descriptor; a file's literal is read with the type's from_text.
    custom,
};

/// The languages a `script` parameter may be written in: BehaviorTree.CPP 4's scripts
/// (docs/scripting.md) or behavior3's expressions (docs/behavior3.md, "Expressions").
enum class script_dialect : std::uint8_t { btcpp, behavior3 };

/// "integer", "number", "boolean", "string", "key", "key-value", "any", "script" or "custom".
std::string_view to_string(param_type type) noexcept;

/// A parameter value. An integer is accepted where a number is expected.
using param_value = std::variant<bool, std::int64_t, double, std::string>;

/// The type a value holds.
param_type type_of(const param_value& value) noexcept;

/// One parameter a node type accepts: its name, type and, unless it is required, a default.
///
/// A file may give any parameter as `"{key}"`: the node then reads the blackboard key's value
/// at each tick (see input in canopy/run/port.hpp). An output parameter is always a key, which the
/// node writes (see output).
struct param_spec {
    std::string name;
    param_type type = param_type::string;
    std::optional<param_value> default_value;  ///< absent: the file must give the parameter
    bool output = false;  ///< the node writes the key the file names; never a literal
    /// A custom parameter's type (registry::add_type; find it with registry::find_type<T>);
    /// its default_value is then text for the type's from_text.
    std::shared_ptr<const value_type> custom = nullptr;
    /// A `script` parameter's language.
    script_dialect dialect = script_dialect::btcpp;
    /// The file may leave the parameter out though it has no default: the node then has no
    /// such parameter (param_list::find_param gives null), as a BehaviorTree.CPP port the
    /// XML does not give, which its getInput then reports.
    bool omissible = false;
    /// For a `key` parameter, where keys take their type when written (a BehaviorTree.CPP
    /// file's dynamic entries): the type the entry it names is declared with, as the port of
    /// BehaviorTree.CPP's node declares it (Switch's `variable`: a string). None: untyped.
    std::optional<param_type> declares_entry = std::nullopt;
    /// Where keys are implicit (behavior3 files): the registered type a key this parameter
    /// names gets when no other use gives the key a type, instead of string. behavior3's
    /// `any` slots take it (dynamic_value_type(), in canopy/core/dynamic_value.hpp), so that
    /// a variable only they use holds whatever they write.
    std::shared_ptr<const value_type> implicit_key_type = nullptr;
    /// The file must give a literal: a `"{key}"` is refused at load (a canopy::setting, which
    /// the node reads once, when the tree is built).
    bool literal_only = false;
    /// A `custom` parameter declared by its C++ type (a canopy::input<Pose2D>), which
    /// registry::add resolves to the type registered for it (`custom`).
    type_id cpp_type{};
    /// For an input of a registered type: the other registered types whose keys it reads,
    /// which its node converts (BehaviorTree.CPP's polymorphic casts between shared_ptrs).
    std::vector<type_id> converts_from = {};
    /// What the parameter means to whoever writes a tree ("metres per second"), which
    /// editors' palettes show (registry::describe); may be empty.
    std::string description = {};

    /// The name of the parameter's type: to_string(type), or the registered type's name.
    std::string_view type_name() const noexcept {
        return custom != nullptr ? std::string_view(custom->name) : to_string(type);
    }

    static param_spec required(std::string name, param_type type) {
        return {std::move(name), type, std::nullopt, false, nullptr};
    }
    static param_spec optional(std::string name, param_value default_value) {
        param_type type = type_of(default_value);
        return {std::move(name), type, std::move(default_value), false, nullptr};
    }
    /// A required `script` parameter in the given language.
    static param_spec script(std::string name, script_dialect dialect) {
        param_spec spec{std::move(name), param_type::script, std::nullopt, false, nullptr};
        spec.dialect = dialect;
        return spec;
    }
    /// An output port of a value type (integer, number, boolean or string); optional: a node
    /// whose file leaves it out writes nowhere.
    static param_spec output_port(std::string name, param_type type) {
        return {std::move(name), type, std::nullopt, true, nullptr};
    }
    /// A parameter of a registered type: required, or with a default read from
    /// `default_text`, as a file's literal is.
    static param_spec required(std::string name, std::shared_ptr<const value_type> type) {
        return {std::move(name), param_type::custom, std::nullopt, false, std::move(type)};
    }
    static param_spec optional(std::string name, std::shared_ptr<const value_type> type,
                               std::string default_text) {
        return {std::move(name), param_type::custom, std::move(default_text), false,
                std::move(type)};
    }
    static param_spec output_port(std::string name, std::shared_ptr<const value_type> type) {
        return {std::move(name), param_type::custom, std::nullopt, true, std::move(type)};
    }
};

/// A parameter of one tree node, already checked against its type's spec.
struct param {
    static constexpr std::uint32_t no_key = 0xFFFFFFFF;

    std::string name;
    param_value value;  ///< the literal; for a parameter bound to a key, its type's zero
    /// The blackboard slot the parameter reads (`"{key}"`) or, for an output, writes; no_key
    /// for a literal, and for an output the file left out.
    std::uint32_t key = no_key;
    bool output = false;     ///< an output port (param_spec::output)
    bool names_key = false;  ///< a `key` parameter: the value is the named key's slot
    /// Bound to a dynamic entry of a BehaviorTree.CPP file (docs/btcpp-xml.md, "Dynamic
    /// entries"): input and output convert as BehaviorTree.CPP's getInput and setOutput do.
    bool dynamic = false;
    /// For an input bound to a key: what the key's value is multiplied by to give the
    /// parameter's (0.001 where a BehaviorTree.CPP file's key holds milliseconds and the
    /// parameter is in seconds); 1 for most.
    double key_scale = 1;
    /// A `script` parameter: the script compiled, owned by the tree; the value holds its text.
    const canopy::script* compiled = nullptr;
    /// A custom literal, read from `value`'s text with its type's from_text at load.
    std::shared_ptr<const void> object = nullptr;
    type_id object_type{};  ///< the C++ type of `object`
};

/// Names of integer constants scripts may use (registry::add_enum).
using enum_table = std::unordered_map<std::string, std::int64_t>;

/// The parameters of one tree node: every parameter its type declares, in declaration order,
/// defaults filled in. A view into storage owned by a tree (or by the builder while it runs).
class param_list {
public:
    param_list() = default;
    param_list(const param* first, std::size_t count, const enum_table* enums = nullptr,
               bool btcpp_rules = false)
        : first_(first), count_(count), enums_(enums), btcpp_rules_(btcpp_rules) {}

    /// While its nodes are made: whether the tree is a BehaviorTree.CPP file's
    /// (runtime_rules::btcpp). A built-in then makes the node that ticks as 4.10's node of the
    /// name where Canopy's own differs (docs/btcpp-xml.md), so that Canopy's trees carry none
    /// of it.
    bool btcpp_rules() const noexcept { return btcpp_rules_; }

    /// The enums of the registry the tree is built with, while its nodes are made (empty
    /// elsewhere): for a node that reads names among them as BehaviorTree.CPP's do (Switch's
    /// cases). A node that needs them later keeps a copy.
    const enum_table& enums() const noexcept {
        static const enum_table none;
        return enums_ != nullptr ? *enums_ : none;
    }

    const param* begin() const noexcept { return first_; }
    const param* end() const noexcept { return first_ + count_; }
    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }

    /// The value of a parameter, or null if the node type declares none of that name.
    const param_value* find(std::string_view name) const noexcept {
        for (const param& p : *this) {
            if (p.name == name) return &p.value;
        }
        return nullptr;
    }

    /// The parameter of that name, or null if the node type declares none.
    const param* find_param(std::string_view name) const noexcept {
        for (const param& p : *this) {
            if (p.name == name) return &p;
        }
        return nullptr;
    }

    /// The literal value of a declared parameter as T (bool, std::int64_t, double or
    /// std::string), for values a node fixes when the tree is built.
    /// @warning throws param_error for an undeclared name, for a parameter the file bound to
    /// a blackboard key (read those with canopy::input, which a creator that calls get()
    /// does not support: the loader reports the message, located), and for the wrong T.
    template <typename T>
    const T& get(std::string_view name) const {
        const param* found = find_param(name);
        if (found == nullptr) detail::throw_param_error("no parameter '" + std::string(name) + "'");
        if (found->key != param::no_key) {
            detail::throw_param_error("parameter '" + std::string(name) +
                                      "' takes a literal value here, not a blackboard key");
        }
        const T* value = std::get_if<T>(&found->value);
        if (value == nullptr) {
            detail::throw_param_error("parameter '" + std::string(name) + "' is " +
                                      std::string(to_string(type_of(found->value))) +
                                      ", not read as the type asked for");
        }
        return *value;
    }

    /// The compiled script of a declared `script` parameter, owned by the tree.
    /// @warning throws param_error for an undeclared name or a parameter of another type.
    const canopy::script& script(std::string_view name) const {
        const param* found = find_param(name);
        if (found == nullptr) detail::throw_param_error("no parameter '" + std::string(name) + "'");
        if (found->compiled == nullptr) {
            detail::throw_param_error("parameter '" + std::string(name) + "' is not a script");
        }
        return *found->compiled;
    }

private:
    const param* first_ = nullptr;
    std::size_t count_ = 0;
    const enum_table* enums_ = nullptr;
    bool btcpp_rules_ = false;
};

}  // namespace canopy
