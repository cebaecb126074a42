#include "run/btcpp_entry.hpp"

#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>

#include "canopy/core/error.hpp"
#include "canopy/run/context.hpp"
#include "canopy/run/port.hpp"
#include "canopy/run/tree.hpp"
#include "core/bytes.hpp"
#include "run/javascript_port.hpp"

namespace canopy::detail {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw error(error_code::script, message);
}

// What BehaviorTree.CPP's demangle names a value's or entry's type.
std::string type_name(const btcpp_any& value) {
    switch (value.held) {
        case btcpp_any::kind::integer: return "long";
        case btcpp_any::kind::real: return "double";
        case btcpp_any::kind::string: return "std::string";
        default: return "void";
    }
}

std::string type_name(btcpp_entry::declared type) {
    switch (type) {
        case btcpp_entry::declared::any: return "BT::AnyTypeAllowed";
        case btcpp_entry::declared::any_value: return "BT::Any";
        case btcpp_entry::declared::integer: return "int";
        case btcpp_entry::declared::real: return "double";
        case btcpp_entry::declared::boolean: return "bool";
        case btcpp_entry::declared::object: return "a program's type";
        default: return "std::string";
    }
}

// An entry's value's type, as BT::Any::type() gives it: an empty typed entry's is the type
// it was declared with.
std::string type_name(const btcpp_entry& entry) {
    if (!entry.value.empty()) return type_name(entry.value);
    return type_name(entry.type);
}

bool typed(btcpp_entry::declared type) noexcept {
    return type != btcpp_entry::declared::any && type != btcpp_entry::declared::any_value;
}

// The kind of value a strongly typed entry holds.
btcpp_any::kind kind_of(btcpp_entry::declared type) noexcept {
    switch (type) {
        case btcpp_entry::declared::integer:
        case btcpp_entry::declared::boolean: return btcpp_any::kind::integer;
        case btcpp_entry::declared::real: return btcpp_any::kind::real;
        default: return btcpp_any::kind::string;
    }
}

// std::from_chars on the whole text, its end ignored: "3abc" reads as 3, as BT::Any's
// string-to-number cast reads.
template <typename N>
std::optional<N> number_prefix(std::string_view text) {
    N value{};
    const auto read = std::from_chars(text.data(), text.data() + text.size(), value);
    if (read.ec != std::errc()) return std::nullopt;
    return value;
}

// convertFromString<T> of the declared type's converter (basic_types.cpp).
btcpp_any converted(std::string_view text, btcpp_entry::declared type) {
    switch (type) {
        case btcpp_entry::declared::integer: {
            const auto value = number_prefix<std::int64_t>(text);
            if (!value) fail("Can't convert string [" + std::string(text) + "] to integer");
            if (*value < std::numeric_limits<int>::min() ||
                *value > std::numeric_limits<int>::max())
                fail("Value out of bound when converting [" + std::string(text) + "] to integer");
            return btcpp_any::integer(*value);
        }
        case btcpp_entry::declared::real: {
            const auto value = number_prefix<double>(text);
            if (!value) fail("Can't convert string [" + std::string(text) + "] to double");
            return btcpp_any::real(*value);
        }
        case btcpp_entry::declared::boolean:
            if (text == "true" || text == "True" || text == "TRUE" || text == "1")
                return btcpp_any::integer(1);
            if (text == "false" || text == "False" || text == "FALSE" || text == "0")
                return btcpp_any::integer(0);
            fail("convertFromString(): invalid bool conversion");
        case btcpp_entry::declared::string:
        case btcpp_entry::declared::object: return btcpp_any::text(std::string(text));
        default:
            fail(
                "You didn't implement the template specialization of convertFromString for this "
                "type: BT::Any");
    }
}

// Whether the declared type has a converter; AnyTypeAllowed has none.
bool converts(btcpp_entry::declared type) noexcept {
    return type != btcpp_entry::declared::any;
}

// StringToDouble: "true" 1, "false" 0, an enum's name its value, else the text as a real.
double string_to_double(const btcpp_any& value, const enum_lookup& enums) {
    if (value.s == "true") return 1.0;
    if (value.s == "false") return 0.0;
    if (enums) {
        if (const auto found = enums(value.s)) return static_cast<double>(*found);
    }
    return cast_real(value);
}

// BT::Any::copyInto: into an empty value anything; between equal kinds the value; between
// numbers the value in the destination's kind, when it fits.
bool copy_into(const btcpp_any& from, btcpp_any& to) {
    if (to.empty() || from.held == to.held) {
        to = from;
        return true;
    }
    if (from.is_number() && to.is_number()) {
        try {
            if (to.held == btcpp_any::kind::integer) {
                to.i = cast_integer(from);
            } else {
                to.d = cast_real(from);
            }
            return true;
        } catch (const error&) {
            return false;
        }
    }
    return false;
}

// A value from text, as BehaviorTree.CPP stores a SubTree's literal port: an integer when the
// whole text is one (without '.' or an exponent), else a real when it is one, else the text;
// and the inverse of the type's to_text, which quotes strings: 'abc' is the string abc.
btcpp_any literal_value(std::string_view text) {
    const char* first = text.data();
    const char* last = first + text.size();
    if (text.find_first_of(".eE") == std::string_view::npos) {
        std::int64_t whole = 0;
        auto [end, e] = std::from_chars(first, last, whole);
        if (e == std::errc() && end == last && first != last) return btcpp_any::integer(whole);
    }
    double real = 0;
    auto [end, e] = std::from_chars(first, last, real);
    if (e == std::errc() && end == last && first != last) return btcpp_any::real(real);
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
        return btcpp_any::text(std::string(text.substr(1, text.size() - 2)));
    return btcpp_any::text(std::string(text));
}

// A program's plain value written into an entry, as Blackboard::set<T> writes it.
template <typename V>
void write_plain(void* at, V value) {
    auto& entry = *static_cast<btcpp_entry*>(at);
    if constexpr (std::is_same_v<V, bool>) {
        write_output(entry, btcpp_any::integer(value ? 1 : 0), btcpp_entry::declared::boolean);
    } else if constexpr (std::is_same_v<V, std::int64_t>) {
        write_output(entry, btcpp_any::integer(value), btcpp_entry::declared::integer);
    } else if constexpr (std::is_same_v<V, double>) {
        write_output(entry, btcpp_any::real(value), btcpp_entry::declared::real);
    } else {
        write_output(entry, btcpp_any::text(std::string(value)), btcpp_entry::declared::string);
    }
}

constexpr value_type::plain_writes plain_writes{&write_plain<bool>, &write_plain<std::int64_t>,
                                                &write_plain<double>,
                                                &write_plain<std::string_view>};

std::shared_ptr<const value_type> made_entry_type() {
    auto type = std::make_shared<value_type>(*make_value_type<btcpp_entry>(
        "BT::Any",
        [](std::string_view text) {
            btcpp_entry entry;
            entry.exists = true;
            if (text == "true" || text == "false") {  // the text below gives a boolean's
                entry.type = btcpp_entry::declared::boolean;
                entry.value = btcpp_any::integer(text == "true" ? 1 : 0);
            } else {
                entry.value = literal_value(text);
            }
            return entry;
        },
        [](const btcpp_entry& entry) -> std::string {
            switch (entry.value.held) {
                case btcpp_any::kind::integer:
                    // A boolean entry's value, which BT::Any keeps as an integer of type bool.
                    if (entry.type == btcpp_entry::declared::boolean)
                        return entry.value.i != 0 ? "true" : "false";
                    return std::to_string(entry.value.i);
                case btcpp_any::kind::real: return text::of_number(entry.value.d);
                case btcpp_any::kind::string: return "'" + entry.value.s + "'";
                default: return "";
            }
        }));
    type->takes_plain = &plain_writes;
    // The entry whole for a snapshot: whether it exists and its declared type, which its text
    // does not say.
    type->save = [](const void* value) {
        const auto& entry = *static_cast<const btcpp_entry*>(value);
        std::string bytes;
        put(bytes, static_cast<std::uint8_t>(entry.exists));
        put(bytes, static_cast<std::uint8_t>(entry.type));
        put(bytes, static_cast<std::uint8_t>(entry.value.held));
        put(bytes, entry.value.i);
        put(bytes, entry.value.d);
        bytes += entry.value.s;
        return bytes;
    };
    type->restore = [](void* at, std::string_view saved) {
        byte_reader in(saved);
        btcpp_entry entry;
        entry.exists = in.get<std::uint8_t>("an entry") != 0;
        const auto declared = in.get<std::uint8_t>("an entry's type");
        const auto held = in.get<std::uint8_t>("an entry's value");
        if (declared > static_cast<std::uint8_t>(btcpp_entry::declared::object) ||
            held > static_cast<std::uint8_t>(btcpp_any::kind::string))
            in.fail("an entry", "not a BT::Any entry");
        entry.type = static_cast<btcpp_entry::declared>(declared);
        entry.value.held = static_cast<btcpp_any::kind>(held);
        entry.value.i = in.get<std::int64_t>("an entry's integer");
        entry.value.d = in.get<double>("an entry's real");
        entry.value.s = std::string(in.get_bytes(in.left(), "an entry's string"));
        *static_cast<btcpp_entry*>(at) = std::move(entry);
    };
    return type;
}

}  // namespace

std::shared_ptr<const value_type> btcpp_entry_type() {
    static const std::shared_ptr<const value_type> type = made_entry_type();
    return type;
}

bool is_btcpp_entry(const value_type* type) noexcept {
    return type != nullptr && type->is<btcpp_entry>();
}

btcpp_entry::declared declared_by(param_type port) noexcept {
    switch (port) {
        case param_type::integer: return btcpp_entry::declared::integer;
        case param_type::number: return btcpp_entry::declared::real;
        case param_type::boolean: return btcpp_entry::declared::boolean;
        case param_type::string: return btcpp_entry::declared::string;
        case param_type::custom: return btcpp_entry::declared::object;
        default: return btcpp_entry::declared::any;
    }
}

btcpp_any value_of(const blackboard& board, std::uint32_t slot) {
    switch (board.type(slot)) {
        case param_type::integer: return btcpp_any::integer(board.get<std::int64_t>(slot));
        case param_type::boolean: return btcpp_any::integer(board.get<bool>(slot) ? 1 : 0);
        case param_type::number: return btcpp_any::real(board.get<double>(slot));
        default: return btcpp_any::text(std::string(board.get<std::string_view>(slot)));
    }
}

double cast_real(const btcpp_any& value) {
    switch (value.held) {
        case btcpp_any::kind::integer: {
            constexpr std::int64_t exact = (std::int64_t{1} << 53) - 1;
            if (value.i > exact || value.i < -exact)
                fail(
                    "Loss of precision when converting a large integer number to floating "
                    "point:" +
                    std::to_string(value.i));
            return static_cast<double>(value.i);
        }
        case btcpp_any::kind::real: return value.d;
        case btcpp_any::kind::string: {
            const auto number = number_prefix<double>(value.s);
            if (!number) fail("Any failed string to number conversion");
            return *number;
        }
        default: fail("Any::cast failed because it is empty");
    }
}

std::int64_t cast_integer(const btcpp_any& value) {
    switch (value.held) {
        case btcpp_any::kind::integer: return value.i;
        case btcpp_any::kind::real: {
            // 2^63 as a double; every double below it in magnitude converts without overflow.
            constexpr double limit = 9223372036854775808.0;
            const double d = value.d;
            if (!(d >= -limit && d < limit) || d != std::nearbyint(d))
                fail("Invalid floating point to integer conversion");
            return static_cast<std::int64_t>(d);
        }
        case btcpp_any::kind::string: {
            const auto number = number_prefix<std::int64_t>(value.s);
            if (!number) fail("Any failed string to number conversion");
            return *number;
        }
        default: fail("Any::cast failed because it is empty");
    }
}

bool cast_boolean(const btcpp_any& value) {
    switch (value.held) {
        case btcpp_any::kind::integer:
            if (value.i < 0) fail("Value is negative and can't be converted to unsigned");
            if (value.i > 1) fail("Implicit casting to bool is not allowed");
            return value.i == 1;
        case btcpp_any::kind::real:
            if (value.d < 0) fail("Value is negative and can't be converted to unsigned");
            return value.d != 0;
        case btcpp_any::kind::string:
            fail("[Any::convert]: no known safe conversion between [std::string] and [bool]");
        default: fail("Any::cast failed because it is empty");
    }
}

std::string cast_text(const btcpp_any& value) {
    switch (value.held) {
        case btcpp_any::kind::integer: return std::to_string(value.i);
        case btcpp_any::kind::real: return std::to_string(value.d);
        case btcpp_any::kind::string: return value.s;
        default: fail("Any::cast failed because it is empty");
    }
}

btcpp_any unary(char op, const btcpp_any& operand) {
    if (operand.is_number()) {
        const double v = cast_real(operand);
        if (op == '-') return btcpp_any::real(-v);
        if (op == '!') return btcpp_any::real(v == 0 ? 1.0 : 0.0);
        if (!(v >= static_cast<double>(std::numeric_limits<std::int64_t>::min()) &&
              v <= static_cast<double>(std::numeric_limits<std::int64_t>::max())))
            fail("Number out of range for bitwise operation");
        // The upper bound above rounds to 2^63, which does not fit: saturate as the cast
        // of an in-range value would.
        const std::int64_t whole = v >= 9223372036854775807.0
                                       ? std::numeric_limits<std::int64_t>::max()
                                       : static_cast<std::int64_t>(v);
        return btcpp_any::real(static_cast<double>(~whole));
    }
    if (operand.is_string()) fail("Invalid operator for std::string");
    fail("ExprUnaryArithmetic: undefined");
}

btcpp_any binary(std::string_view op, const btcpp_any& left, const btcpp_any& right) {
    if (left.empty())
        fail("The left operand of the operator [" + std::string(op) + "] is not initialized");
    if (right.empty())
        fail("The right operand of the operator [" + std::string(op) + "] is not initialized");
    if (left.is_number() && right.is_number()) {
        if (op == "+") return btcpp_any::real(cast_real(left) + cast_real(right));
        if (op == "-") return btcpp_any::real(cast_real(left) - cast_real(right));
        if (op == "*") return btcpp_any::real(cast_real(left) * cast_real(right));
        if (op == "/") return btcpp_any::real(cast_real(left) / cast_real(right));
        if (op == "&" || op == "|" || op == "^") {
            std::int64_t l = 0;
            std::int64_t r = 0;
            try {
                l = cast_integer(left);
                r = cast_integer(right);
            } catch (const error&) {
                fail("Binary operators are not allowed if one of the operands is not an integer");
            }
            const std::int64_t result = op == "&" ? (l & r) : op == "|" ? (l | r) : (l ^ r);
            return btcpp_any::real(static_cast<double>(result));
        }
        if (op == "&&" || op == "||") {
            bool l = false;
            bool r = false;
            try {
                l = cast_boolean(left);
                r = cast_boolean(right);
            } catch (const error&) {
                fail(
                    "Logic operators are not allowed if one of the operands is not castable to "
                    "bool");
            }
            return btcpp_any::real((op == "&&" ? (l && r) : (l || r)) ? 1.0 : 0.0);
        }
        return {};  // `..` of two numbers: BehaviorTree.CPP gives nothing
    }
    if (left.is_string() && right.is_string() && op == "+")
        return btcpp_any::text(left.s + right.s);
    if (op == "..") return btcpp_any::text(cast_text(left) + cast_text(right));
    fail("Operation not permitted");
}

bool compare(std::string_view op, const btcpp_any& left, const btcpp_any& right,
             const enum_lookup& enums) {
    if (left.empty())
        fail("The left operand of the operator [" + std::string(op) + "] is not initialized");
    if (right.empty())
        fail("The right operand of the operator [" + std::string(op) + "] is not initialized");
    if (left.is_string() && right.is_string()) {
        const int order = left.s.compare(right.s);
        if (op == "==") return order == 0;
        if (op == "!=") return order != 0;
        if (op == "<") return order < 0;
        if (op == ">") return order > 0;
        if (op == "<=") return order <= 0;
        return order >= 0;
    }
    const double l = left.is_string() ? string_to_double(left, enums) : cast_real(left);
    const double r = right.is_string() ? string_to_double(right, enums) : cast_real(right);
    // BehaviorTree.CPP's == between reals allows float's epsilon.
    const auto epsilon = static_cast<double>(std::numeric_limits<float>::epsilon());
    if (op == "==") return std::abs(l - r) <= epsilon;
    if (op == "!=") return !(std::abs(l - r) <= epsilon);
    // Each order as the negation of its opposite, as there: with a NaN (0 / 0) all hold.
    if (op == "<") return !(l >= r);
    if (op == ">") return !(l <= r);
    if (op == "<=") return !(l > r);
    return !(l < r);
}

bool ternary_truth(const btcpp_any& condition) {
    return cast_real(condition) != 0.0;
}

const btcpp_any& assign(btcpp_entry& entry, std::string_view op, const btcpp_any& value,
                        std::string_view key, const enum_lookup& enums) {
    if (value.empty())
        fail("The right operand of the operator [" + std::string(op) + "] is not initialized");
    btcpp_any& dst = entry.value;
    const std::string prefix = "Error assigning a value to entry [" + std::string(key) +
                               "] with type [" + type_name(entry) + "]. ";
    if (op == ":=" || op == "=") {
        const bool dst_string =
            dst.is_string() ||
            (dst.empty() && kind_of(entry.type) == btcpp_any::kind::string && typed(entry.type));
        if (dst.empty() && entry.type == btcpp_entry::declared::any) {
            dst = value;
        } else if (value.is_string() && !dst_string) {
            if (converts(entry.type)) {
                dst = converted(value.s, entry.type);
            } else if (dst.is_number()) {
                dst = btcpp_any::real(string_to_double(value, enums));
            } else {
                fail(prefix + "\nThe right operand is a string, can't convert to " +
                     type_name(entry));
            }
        } else if (!copy_into(value, dst)) {
            fail(prefix + "\nThe right operand has type [" + type_name(value) +
                 "] and can't be converted to [" + type_name(entry) + "]");
        }
        return dst;
    }
    if (dst.empty())
        fail("The left operand of the operator [" + std::string(op) + "] is not initialized");
    btcpp_any result = dst;
    if (value.is_number()) {
        if (!result.is_number())
            fail("This Assignment operator can't be used with a non-numeric type");
        const double l = cast_real(result);
        const double r = cast_real(value);
        result = btcpp_any::real(op == "+="   ? l + r
                                 : op == "-=" ? l - r
                                 : op == "*=" ? l * r
                                              : l / r);
    } else if (op == "+=") {
        result = btcpp_any::text(cast_text(result) + value.s);
    } else {
        fail("Operator not supported for strings");
    }
    if (!copy_into(result, dst)) {
        fail(dst.held == btcpp_any::kind::integer && result.held == btcpp_any::kind::real
                 ? "Invalid floating point to integer conversion"
                 : "Any::copyInto fails");
    }
    return dst;
}

void set_from_blackboard_node(btcpp_entry& entry, const btcpp_any& value,
                              std::optional<btcpp_entry::declared> made_as) {
    btcpp_any stored = value;
    if (!entry.exists && made_as) {  // the source's entry's type
        entry.exists = true;
        entry.type = *made_as;
        entry.value = {};
    }
    if (entry.exists && entry.type != btcpp_entry::declared::string &&
        entry.type != btcpp_entry::declared::text && stored.is_string()) {
        if (entry.type == btcpp_entry::declared::any) {
            stored = {};  // no converter: nothing
        } else {
            try {
                stored = converted(stored.s, entry.type);
            } catch (const error& e) {
                fail("Can't convert string [" + value.s + "] to type [" + type_name(entry.type) +
                     "]: " + e.what());
            }
        }
    }
    if (!entry.exists) {  // Blackboard::set of a new key: typed by the value
        entry.exists = true;
        entry.type = stored.is_string()                     ? btcpp_entry::declared::text
                     : stored.held == btcpp_any::kind::real ? btcpp_entry::declared::real
                                                            : btcpp_entry::declared::integer;
        entry.value = std::move(stored);
        return;
    }
    if (!typed(entry.type)) {
        entry.type = btcpp_entry::declared::any_value;
        entry.value = std::move(stored);
        return;
    }
    if (!stored.empty() && stored.held != kind_of(entry.type))
        fail(
            "Blackboard::set: once declared, the type of a port shall not change. Previously "
            "declared type [" +
            type_name(entry.type) + "], current type [BT::Any]");
    entry.value = std::move(stored);
}

namespace {

const btcpp_any& held_value(const btcpp_entry& entry) {
    if (!entry.exists || entry.value.empty()) fail("it holds no value");
    return entry.value;
}

}  // namespace

std::int64_t read_integer(const btcpp_entry& entry) {
    const btcpp_any& value = held_value(entry);
    if (value.is_string()) return converted(value.s, btcpp_entry::declared::integer).i;
    return cast_integer(value);
}

double read_real(const btcpp_entry& entry) {
    const btcpp_any& value = held_value(entry);
    if (value.is_string()) return converted(value.s, btcpp_entry::declared::real).d;
    return cast_real(value);
}

bool read_boolean(const btcpp_entry& entry) {
    const btcpp_any& value = held_value(entry);
    if (value.is_string()) return converted(value.s, btcpp_entry::declared::boolean).i != 0;
    return cast_boolean(value);
}

std::string read_text(const btcpp_entry& entry) {
    return cast_text(held_value(entry));
}

void write_output(btcpp_entry& entry, const btcpp_any& value, btcpp_entry::declared as) {
    if (!entry.exists || !typed(entry.type)) {
        // A new entry written a string stays untyped; set<T> types one that exists.
        entry.type =
            !entry.exists && as == btcpp_entry::declared::string ? btcpp_entry::declared::any : as;
        entry.exists = true;
        entry.value = value;
        return;
    }
    btcpp_any stored = value;
    if (stored.held != kind_of(entry.type)) {
        if (stored.is_string()) {
            stored = converted(stored.s, entry.type);
        } else if (!(stored.is_number() && kind_of(entry.type) != btcpp_any::kind::string &&
                     copy_into(value, entry.value))) {
            fail(
                "Blackboard::set: once declared, the type of a port shall not change. "
                "Previously declared type [" +
                type_name(entry.type) + "], current type [" + type_name(value) + "]");
        } else {
            return;
        }
    }
    if (!copy_into(stored, entry.value)) fail("Any::copyInto fails");
}

// ---- ports over dynamic entries (canopy/run/port.hpp) ------------------------------------

namespace {

[[noreturn]] void fail_port(const context& ctx, std::uint32_t slot, const char* verb,
                            const error& e) {
    throw error(error_code::blackboard, "node " + std::to_string(ctx.tree().record_id(ctx.node())) +
                                            " ('" + std::string(ctx.tree().type_name(ctx.node())) +
                                            "') " + verb + " key '" +
                                            ctx.blackboard().keys()[slot].name + "': " + e.what());
}

template <typename Read>
auto read_port(const context& ctx, std::uint32_t slot, const Read& read) {
    try {
        return read(ctx.blackboard().get_ref<btcpp_entry>(slot));
    } catch (const error& e) {
        fail_port(ctx, slot, "reads", e);
    }
}

void write_port(context& ctx, std::uint32_t slot, const btcpp_any& value,
                btcpp_entry::declared as) {
    blackboard board = ctx.blackboard();
    btcpp_entry entry = board.get_ref<btcpp_entry>(slot);
    try {
        write_output(entry, value, as);
    } catch (const error& e) {
        fail_port(ctx, slot, "writes", e);
    }
    board.set_object(slot, type_id_of<btcpp_entry>(), &entry);
}

}  // namespace

std::int64_t read_dynamic_integer(const context& ctx, std::uint32_t slot) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::read_integer(ctx, slot);
    return read_port(ctx, slot, read_integer);
}

double read_dynamic_number(const context& ctx, std::uint32_t slot) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::read_number(ctx, slot);
    return read_port(ctx, slot, read_real);
}

bool read_dynamic_boolean(const context& ctx, std::uint32_t slot) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::read_boolean(ctx, slot);
    return read_port(ctx, slot, read_boolean);
}

std::string_view read_dynamic_string(const context& ctx, std::uint32_t slot) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::read_string(ctx, slot);
    // Text is read in place, valid until the entry changes, as a string key's is.
    const auto& entry = ctx.blackboard().get_ref<btcpp_entry>(slot);
    if (entry.exists && entry.value.is_string()) return entry.value.s;
    // A number's text (`std::to_string`, as there) needs a place of its own: one of a few per
    // thread, so that a node may hold several such reads at once.
    thread_local std::string texts[4];
    thread_local std::size_t next = 0;
    std::string& text = texts[next++ % std::size(texts)];
    text = read_port(ctx, slot, read_text);
    return text;
}

void write_dynamic(context& ctx, std::uint32_t slot, std::int64_t value) {
    if (holds_javascript(ctx.blackboard(), slot))
        return javascript_port::write(ctx, slot, static_cast<double>(value));
    write_port(ctx, slot, btcpp_any::integer(value), btcpp_entry::declared::integer);
}

void write_dynamic(context& ctx, std::uint32_t slot, double value) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::write(ctx, slot, value);
    write_port(ctx, slot, btcpp_any::real(value), btcpp_entry::declared::real);
}

void write_dynamic(context& ctx, std::uint32_t slot, bool value) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::write(ctx, slot, value);
    write_port(ctx, slot, btcpp_any::integer(value ? 1 : 0), btcpp_entry::declared::boolean);
}

void write_dynamic(context& ctx, std::uint32_t slot, std::string_view value) {
    if (holds_javascript(ctx.blackboard(), slot)) return javascript_port::write(ctx, slot, value);
    write_port(ctx, slot, btcpp_any::text(std::string(value)), btcpp_entry::declared::string);
}

}  // namespace canopy::detail
