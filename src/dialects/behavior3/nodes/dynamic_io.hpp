#pragma once
// How behavior3's array and object nodes read and write variables whose kind only the running
// tree knows. A variable is a key of any type: a `json` key (dynamic_value) holds anything; a
// number, integer, boolean or string key holds what fits it, so that a variable the tree only
// uses as a number stays a plain number, which allocates nothing.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/param.hpp"
#include "canopy/core/status.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/registry.hpp"

namespace canopy::detail {

/// A parameter that takes any value (param_spec of type `any`): a literal, or a key of any
/// type. A string literal that is the JSON text of an array or object (behavior3's reader keeps
/// such arguments as text) is that array or object.
class any_input {
public:
    any_input(const param_list& params, std::string_view name);
    /// Whether the file gave the parameter at all.
    bool given() const noexcept { return given_; }
    /// Whether it names a variable, and which.
    bool from_key() const noexcept { return key_ != param::no_key; }
    std::uint32_t key() const noexcept { return key_; }
    /// The value written in the file, when it names no variable (null when not given).
    const dynamic_value& literal() const noexcept { return literal_; }
    /// The value for this tick: a reference to a `json` key's value (no copy) or to the literal,
    /// else `scratch` filled from the key.
    const dynamic_value& get(const blackboard& board, dynamic_value& scratch) const;

private:
    bool given_ = false;
    std::uint32_t key_ = param::no_key;
    dynamic_value literal_;
};

/// A key's value as a dynamic value, into `scratch` unless the key is `json`.
const dynamic_value& read_dynamic(const blackboard& board, std::uint32_t slot,
                                  dynamic_value& scratch);

/// Writes `value` to a key if the key's type can hold it (a `json` key anything; a number key
/// a number; an integer key a whole number; a boolean key a boolean; a string key a string);
/// false when it cannot, which the node reports as its failure.
bool write_dynamic(blackboard board, std::uint32_t slot, const dynamic_value& value);

/// Whether a value may go into an array or object a node builds: at most max_stored_values
/// values (each element or field counted where it appears, a shared one at each use), nested
/// less than dynamic_value::max_depth. Counting stops at the limit, so asking costs at most
/// that many steps. A value built only of such values is at most about twice as large, so
/// copying, comparing and printing a variable stay bounded, however often `Push a a` doubles
/// `a`.
bool fits_in_a_value(const dynamic_value& value);
inline constexpr std::size_t max_stored_values = std::size_t{1} << 20;

/// The slot of a parameter the file must wire to a variable (a `json` input).
/// @warning throws param_error when it is a literal.
std::uint32_t key_of(const param_list& params, std::string_view name);
/// An output slot's key, or param::no_key when the file left it out.
std::uint32_t output_key(const param_list& params, std::string_view name);
/// Throws canopy::error (code `script`) when `key` names a variable that is undefined: what
/// behavior3-ts's node throws for an input it needs and has no default for.
void require_defined(const blackboard& board, std::uint32_t key, std::string_view name);
/// write_dynamic to an output slot's key; true for an output the file left out.
bool write_output(blackboard board, std::uint32_t key, const dynamic_value& value);
/// Unsets an output slot's key (blackboard::unset), as behavior3-ts writes undefined to each
/// output slot a finished node did not fill; nothing for an output the file left out.
void unset_output(blackboard board, std::uint32_t key);
/// `result`, the output slot's key unset first unless it is success: for the nodes of one
/// output, which a failure leaves undefined since it fills none.
status unset_unless_success(blackboard board, std::uint32_t key, status result);

/// The `json` key's value a node changes in place, or null when the key is of another type.
dynamic_value* dynamic_slot(blackboard board, std::uint32_t slot);

/// A required input slot that must hold an array or object: a `json` key.
param_spec json_input(std::string name);
/// An output slot that writes whatever the node found: any key, a `json` one if no other use
/// types it.
param_spec any_output(std::string name);
/// An input slot or argument that takes any value, `json` if no other use types its key.
param_spec any_param(std::string name);

/// Registers the `json` blackboard type in `reg` unless it is there.
void ensure_dynamic_type(registry& reg);

}  // namespace canopy::detail
