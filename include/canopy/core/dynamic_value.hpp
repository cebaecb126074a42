#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "canopy/core/value_type.hpp"

namespace canopy {

/// A value whose kind is known only when the tree runs, as behavior3's variables are: null, a
/// boolean, a number, a string, an array or an object (docs/behavior3.md, "Values"). Its text
/// is compact JSON.
///
/// Copying shares the array or object. Changed through mutable_array() or mutable_object(),
/// a shared one is copied first (a value); through shared_array() or shared_object(), every
/// copy sees the change (JavaScript's references, which behavior3's nodes use: they store no
/// value into itself, and a tree's literals reach an agent only as clone()s). A null, boolean
/// or number never allocates.
class dynamic_value {
public:
    enum class kind : std::uint8_t { null, boolean, number, string, array, object };
    using array_type = std::vector<dynamic_value>;
    /// Fields in the order they were first set, as JavaScript keeps an object's own
    /// (non-numeric) keys.
    using object_type = std::vector<std::pair<std::string, dynamic_value>>;

    dynamic_value() noexcept = default;  ///< null
    dynamic_value(std::nullptr_t) noexcept {}
    dynamic_value(bool value) noexcept : value_(value) {}
    dynamic_value(double value) noexcept : value_(value) {}
    dynamic_value(int value) noexcept : value_(static_cast<double>(value)) {}
    dynamic_value(std::int64_t value) noexcept : value_(static_cast<double>(value)) {}
    dynamic_value(std::string value) : value_(std::move(value)) {}
    dynamic_value(std::string_view value) : value_(std::string(value)) {}
    dynamic_value(const char* value) : value_(std::string(value)) {}
    dynamic_value(array_type value) : value_(std::make_shared<array_type>(std::move(value))) {}
    dynamic_value(object_type value) : value_(std::make_shared<object_type>(std::move(value))) {}

    kind type() const noexcept { return static_cast<kind>(value_.index()); }
    bool is_null() const noexcept { return type() == kind::null; }
    bool is_number() const noexcept { return type() == kind::number; }
    bool is_string() const noexcept { return type() == kind::string; }
    bool is_array() const noexcept { return type() == kind::array; }
    bool is_object() const noexcept { return type() == kind::object; }

    /// The boolean, number or string held. @warning undefined for another kind.
    bool boolean() const noexcept { return *std::get_if<bool>(&value_); }
    double number() const noexcept { return *std::get_if<double>(&value_); }
    const std::string& string() const noexcept { return *std::get_if<std::string>(&value_); }

    /// The elements of an array, or null for another kind.
    const array_type* array() const noexcept;
    /// The elements to change; copies them first when another value shares them.
    /// Null for another kind.
    array_type* mutable_array();
    /// The fields of an object, or null for another kind.
    const object_type* object() const noexcept;
    object_type* mutable_object();
    /// The elements or fields to change in place, as JavaScript changes an array or object:
    /// every value that shares them sees the change (behavior3's variables,
    /// docs/behavior3.md "Values"). Null for another kind.
    array_type* shared_array() const noexcept;
    object_type* shared_object() const noexcept;
    /// The array or object itself, which JavaScript's `===` compares, or null for another kind.
    const void* identity() const noexcept;
    /// A copy that shares no array or object with this one.
    dynamic_value clone() const;

    /// An array's element or an object's field, as JavaScript's `value[key]` reads it: an
    /// array by a whole number from 0 (also given as its text, "2"), an object by a string or
    /// a number's text; missing() when there is none.
    const dynamic_value& at(const dynamic_value& key) const noexcept;
    /// An object's field, or missing().
    const dynamic_value& field(std::string_view name) const noexcept;
    /// What at() and field() give for an element or field that is not there, JavaScript's
    /// undefined: a null, told from a stored null by its address.
    static const dynamic_value& missing() noexcept;

    /// JavaScript's ToNumber: a number itself, a boolean 1 or 0, null 0, a string its decimal
    /// value (0 when blank, NaN when not a number), an object NaN, an array its text's number
    /// ([] 0, [7] 7, [1,2] NaN).
    double to_number() const noexcept;
    /// JavaScript's truthiness: false for null, false, 0, NaN and "".
    bool truthy() const noexcept;
    /// A string as JavaScript's Number(text) reads the decimal forms.
    static double text_to_number(std::string_view text) noexcept;

    /// Equal kinds and contents: numbers as doubles (NaN unequal to itself), arrays element by
    /// element, objects field by field in any order.
    friend bool operator==(const dynamic_value& a, const dynamic_value& b) noexcept;
    friend bool operator!=(const dynamic_value& a, const dynamic_value& b) noexcept {
        return !(a == b);
    }

    /// Compact JSON: `[1,"a",{"k":null}]`. Numbers in the shortest text that reads back the
    /// same (JavaScript's own for whole numbers: 3, not 3.0); NaN and infinities as null, as
    /// JSON.stringify writes them.
    std::string to_json() const;
    /// How deep arrays and objects nest in it: 0 for a null, boolean, number or string, 1 for
    /// `[1,2]`. Copying, comparing, writing and destroying a value recurse this deep, so the
    /// nodes that build values refuse to go past max_depth.
    int depth() const noexcept;
    /// A value from JSON text (surrounding spaces allowed).
    /// @warning throws canopy::error, naming the 1-based column, for text that is not JSON or
    /// nests deeper than max_depth.
    static dynamic_value from_json(std::string_view text);
    static constexpr int max_depth = 256;
    /// Appends the value as bytes that from_bytes reads back exactly, NaN and the infinities
    /// included, which JSON cannot say: how a snapshot keeps it (agent::save). An array or
    /// object that several values share comes back as a copy for each, except within one
    /// snapshot, whose values come back sharing what they shared.
    void append_bytes(std::string& out) const;
    /// @warning throws canopy::error (code `snapshot`) for bytes append_bytes did not write.
    static dynamic_value from_bytes(std::string_view bytes);

private:
    using storage = std::variant<std::monostate, bool, double, std::string,
                                 std::shared_ptr<array_type>, std::shared_ptr<object_type>>;
    storage value_;
};

/// The blackboard type of dynamic values, named "json" (the type behavior3editor gives such
/// arguments): register it with registry::add_type. Keys of this type start as null, and a
/// file's text for one is JSON.
std::shared_ptr<const value_type> dynamic_value_type();

}  // namespace canopy
