#pragma once

// BehaviorTree.CPP's dynamic blackboard entries (docs/btcpp-xml.md, "Dynamic entries"): in a
// BehaviorTree.CPP file, a key whose type only the run can tell (one SetBlackboard writes, or
// whose uses disagree) holds one of these. It is BehaviorTree.CPP's entry: its value (empty,
// an integer, a real or a string, as BT::Any keeps them) and the type it was declared with
// (none, or a port's), which decides how text written into it converts. The operations below
// are BehaviorTree.CPP 4.10's, with its failures; each throws canopy::error with BT.CPP's
// message, which callers place (script, node).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "canopy/core/param.hpp"
#include "canopy/core/value_type.hpp"
#include "canopy/run/blackboard.hpp"

namespace canopy::detail {

/// A value as BT::Any holds one: nothing, an integer (booleans too), a real, or a string.
struct btcpp_any {
    enum class kind : std::uint8_t { empty, integer, real, string };
    kind held = kind::empty;
    std::int64_t i = 0;
    double d = 0;
    std::string s;

    static btcpp_any integer(std::int64_t value) { return {kind::integer, value, 0, {}}; }
    static btcpp_any real(double value) { return {kind::real, 0, value, {}}; }
    static btcpp_any text(std::string value) { return {kind::string, 0, 0, std::move(value)}; }
    bool empty() const noexcept { return held == kind::empty; }
    bool is_number() const noexcept { return held == kind::integer || held == kind::real; }
    bool is_string() const noexcept { return held == kind::string; }
    friend bool operator==(const btcpp_any& a, const btcpp_any& b) noexcept {
        return a.held == b.held && a.i == b.i && (a.d == b.d || (a.d != a.d && b.d != b.d)) &&
               a.s == b.s;
    }
};

/// One entry: whether it exists (a script's `:=` or a write made it; a port's `{key}` makes
/// it when the tree is built), the type it was declared with, and its value.
struct btcpp_entry {
    /// BT::TypeInfo: `any` is AnyTypeAllowed (a script's or an untyped port's entry, no
    /// converter); `any_value` is BT::Any, what SetBlackboard makes an untyped entry (not
    /// typed either, but text cannot convert into it); integer to string a typed port's,
    /// converting text as its convertFromString does; `text` a string that text cannot
    /// convert into (what SetBlackboard makes of a new key); `object` a program's type's port
    /// (a Pose2D's): text written into it is kept as text, which that port converts with its
    /// convertFromString when it reads it.
    enum class declared : std::uint8_t {
        any,
        any_value,
        integer,
        real,
        boolean,
        string,
        text,
        object
    };
    bool exists = false;
    declared type = declared::any;
    btcpp_any value;

    friend bool operator==(const btcpp_entry& a, const btcpp_entry& b) noexcept {
        return a.exists == b.exists && a.type == b.type && a.value == b.value;
    }
};

/// The blackboard type of such keys, named "BT::Any". Its text is the value's: an integer
/// (`true` or `false` in a boolean entry, as BT::Any keeps a bool), a real in the shortest
/// form that reads back, a string between single quotes, or nothing.
std::shared_ptr<const value_type> btcpp_entry_type();
/// Whether a key's type is btcpp_entry_type().
bool is_btcpp_entry(const value_type* type) noexcept;
/// The entry a port of this type declares (its `{key}` makes it, empty, when the tree is
/// built); param_type::any (an untyped port) declares none.
btcpp_entry::declared declared_by(param_type port) noexcept;

// BT::Any's casts, with its failures (safe_any.hpp, convert_impl.hpp).
double cast_real(const btcpp_any& value);
std::int64_t cast_integer(const btcpp_any& value);
bool cast_boolean(const btcpp_any& value);
std::string cast_text(const btcpp_any& value);

/// Names the scripts may read: the program's enums, for StringToDouble.
using enum_lookup = std::function<std::optional<std::int64_t>(std::string_view)>;

/// A typed key's value as BT::Any holds it (a boolean as the integer 1 or 0): an integer,
/// number, boolean or string key's.
btcpp_any value_of(const blackboard& board, std::uint32_t slot);

/// BehaviorTree.CPP's script operators over such values (scripting/operators.hpp).
btcpp_any unary(char op, const btcpp_any& operand);  // '-', '~', '!'
/// `+ - * / & | ^ && || ..` as spelled.
btcpp_any binary(std::string_view op, const btcpp_any& left, const btcpp_any& right);
/// One link of a comparison chain (`== != < > <= >=`): whether it holds.
bool compare(std::string_view op, const btcpp_any& left, const btcpp_any& right,
             const enum_lookup& enums);
/// A ternary's condition: not 0 (a string read as a number).
bool ternary_truth(const btcpp_any& condition);
/// The assignment `entry op value` (`:=`, `=`, `+=`, ...) on an entry that exists; gives what
/// it stores. `key` names it in messages.
const btcpp_any& assign(btcpp_entry& entry, std::string_view op, const btcpp_any& value,
                        std::string_view key, const enum_lookup& enums);

/// Blackboard::set<BT::Any>, as SetBlackboard writes `value` (BehaviorTree.CPP's Any of its
/// text or of its source entry): makes the entry if it does not exist (with `made_as`, the
/// declared type of the source when there is one, else `text`), then stores it, converting
/// text into a declared type's value as SetBlackboard does (into an untyped entry: none, so
/// the entry is left empty).
void set_from_blackboard_node(btcpp_entry& entry, const btcpp_any& value,
                              std::optional<btcpp_entry::declared> made_as);

/// getInput<T>'s reading of an entry (tree_node.h): text converted by T's convertFromString,
/// a number cast to T. @warning throws canopy::error (code script) with its message.
std::int64_t read_integer(const btcpp_entry& entry);
double read_real(const btcpp_entry& entry);
bool read_boolean(const btcpp_entry& entry);
std::string read_text(const btcpp_entry& entry);

/// Blackboard::set<T>, as a node's setOutput writes.
void write_output(btcpp_entry& entry, const btcpp_any& value, btcpp_entry::declared as);

}  // namespace canopy::detail
