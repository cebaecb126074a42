// Runs a compiled script: one loop over typed instructions, no recursion, no lookup by name,
// and no allocation unless the script makes strings (or needs more than a small stack).

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/error.hpp"
#include "run/script/behavior3_expression.hpp"
#include "run/script/dynamic.hpp"
#include "run/script/program.hpp"

namespace canopy {

namespace detail::script_code {

std::optional<double> text_to_number(std::string_view text) {
    if (text == "true") return 1.0;
    if (text == "false") return 0.0;
    double value = 0;
    const char* end = text.data() + text.size();
    const auto read = std::from_chars(text.data(), end, value);
    if (text.empty() || read.ec != std::errc() || read.ptr != end) return std::nullopt;
    return value;
}

std::optional<std::int64_t> text_to_integer(std::string_view text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto read = std::from_chars(text.data(), end, value);
    if (text.empty() || read.ec != std::errc() || read.ptr != end) return std::nullopt;
    return value;
}

std::optional<bool> text_to_boolean(std::string_view text) {
    if (text == "true" || text == "True" || text == "TRUE" || text == "1") return true;
    if (text == "false" || text == "False" || text == "FALSE" || text == "0") return false;
    return std::nullopt;
}

std::optional<std::int64_t> exact_integer(double value) {
    // 2^63 as a double; every double below it in magnitude converts without overflow.
    constexpr double limit = 9223372036854775808.0;
    if (!(value >= -limit && value < limit)) return std::nullopt;
    const auto integer = static_cast<std::int64_t>(value);
    if (static_cast<double>(integer) != value) return std::nullopt;
    return integer;
}

std::string number_text(double value) {
    return std::to_string(value);
}

namespace {

// The condition `i` is, as a quick_term, where it is one.
std::optional<quick_term> quick_term_of(const instruction& i) {
    quick_term t;
    t.slot = i.a;
    switch (i.op) {
        case opcode::push_int:
            t.what = quick_term::kind::constant;
            t.truth = i.imm.i != 0;
            return t;
        case opcode::load_bool: t.what = quick_term::kind::boolean_key; return t;
        case opcode::compare_key_num:
            t.what = quick_term::kind::number_key;
            t.sub = i.sub;
            t.number = i.imm.d;
            return t;
        default: break;
    }
    // The six integer comparisons are told apart by their place in the opcode list, in
    // key_test::comparison's order.
    using key_comparison = key_test::comparison;
    constexpr auto place = [](opcode op) {
        return static_cast<int>(op) - static_cast<int>(opcode::compare_key_int_equal);
    };
    constexpr auto index = [](key_comparison c) { return static_cast<int>(c); };
    static_assert(
        place(opcode::compare_key_int_not_equal) == index(key_comparison::not_equal) &&
            place(opcode::compare_key_int_less) == index(key_comparison::less) &&
            place(opcode::compare_key_int_greater) == index(key_comparison::greater) &&
            place(opcode::compare_key_int_less_equal) == index(key_comparison::less_equal) &&
            place(opcode::compare_key_int_greater_equal) == index(key_comparison::greater_equal),
        "the integer key comparisons in key_test::comparison's order");
    const auto comparison =
        static_cast<unsigned>(i.op) - static_cast<unsigned>(opcode::compare_key_int_equal);
    if (comparison > static_cast<unsigned>(key_comparison::greater_equal)) return std::nullopt;
    key_test test;
    test.op = static_cast<key_comparison>(comparison);
    test.constant = i.imm.i;
    t.what = quick_term::kind::integer_key;
    t.range = test.range();
    return t;
}

}  // namespace

void choose_quick_form(program& p) {
    p.quick = quick_condition{};
    // Under BehaviorTree.CPP's rules a condition that is not a boolean is cast to one, with
    // checks the loop makes.
    if (p.checked_truth && p.result != param_type::boolean) return;
    quick_condition q;
    instruction rest[3];
    std::size_t count = 0;
    std::size_t checks = 0;
    for (const instruction& i : p.code) {
        if (i.op == opcode::require_value) {
            // Terms have no effect, and both are evaluated: the checks may all come first.
            if (checks == 2) return;
            q.checked_slots[checks++] = i.a;
        } else {
            if (count == 3) return;
            rest[count++] = i;
        }
    }
    if (count != 1 && count != 3) return;
    if (count == 3) {
        if (rest[2].op != opcode::logical_and && rest[2].op != opcode::logical_or) return;
        q.join_and = rest[2].op == opcode::logical_and;
    }
    q.terms = static_cast<std::uint8_t>(count == 1 ? 1 : 2);
    for (std::size_t k = 0; k < q.terms; ++k) {
        const std::optional<quick_term> t = quick_term_of(rest[k]);
        if (!t) return;
        q.term[k] = *t;
    }
    q.checked = checks != 0;
    if (checks == 1) q.checked_slots[1] = q.checked_slots[0];
    p.quick = q;
}

}  // namespace detail::script_code

namespace {

using namespace detail::script_code;

// A stack cell: trivial, so that the stack costs nothing to set up.
struct cell {
    union {
        std::int64_t i;
        double d;
    };
    const char* text;
    std::size_t length;
    std::string_view s() const { return {text, length}; }
    void set(std::string_view value) {
        text = value.data();
        length = value.size();
    }
};

// BehaviorTree.CPP's tolerance for == and != between numbers (scripting/operators.hpp).
constexpr double tolerance = static_cast<double>(std::numeric_limits<float>::epsilon());

template <typename T>
bool holds(T left, T right, comparison c) {
    switch (c) {
        case comparison::equal: return left == right;
        case comparison::not_equal: return left != right;
        case comparison::less: return left < right;
        case comparison::greater: return left > right;
        case comparison::less_equal: return left <= right;
        default: return left >= right;
    }
}

// BehaviorTree.CPP's comparison of numbers: `==` within float's epsilon. With `as_btcpp` (a
// BehaviorTree.CPP file's script, program::checked_truth) each order is the negation of its
// opposite, as there, so that with a NaN (0 / 0) every order holds; else none does.
bool holds_number(double left, double right, comparison c, bool as_btcpp) {
    switch (c) {
        case comparison::equal: return std::abs(left - right) <= tolerance;
        case comparison::not_equal: return !(std::abs(left - right) <= tolerance);
        default: {
            const bool result = holds(left, right, c);
            if (result || !as_btcpp) return result;
            return std::isnan(left) || std::isnan(right);
        }
    }
}

[[noreturn]] void fail(const program& p, const std::string& what) {
    throw error(error_code::script, "script '" + p.text + "': " + what);
}

// Out of the interpreter's loop, which it would otherwise slow: a read of a key that holds no
// value (opcode::require_value).
[[noreturn]]
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
void fail_unset(const program& p, const instruction& i) {
    fail(p, "key '" + p.strings[i.b] + "' holds no value: nothing wrote it yet");
}

// BehaviorTree.CPP's cast to bool refused a value (truth_*_checked, program::checked_truth).
[[noreturn]]
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
void fail_not_boolean(const program& p, const cell& value, param_type type) {
    switch (type) {
        case param_type::integer:
            fail(p, std::to_string(value.i) +
                        " is neither true nor false: an integer is a condition only when 0 or 1");
        case param_type::number:
            fail(p, number_text(value.d) +
                        " is neither true nor false: a negative number is no condition");
        default:
            fail(p, "its value '" + std::string(value.s()) +
                        "' is neither true nor false: a string is no condition");
    }
}

// BehaviorTree.CPP's cast to bool, of a value of type `type` (program::checked_truth): an
// integer must be 0 or 1, a number not negative, and a string is no condition.
inline void require_boolean(const program& p, const cell& value, param_type type) {
    switch (type) {
        case param_type::integer:
            if (value.i != 0 && value.i != 1) fail_not_boolean(p, value, type);
            break;
        case param_type::number:
            if (value.d < 0) fail_not_boolean(p, value, type);
            break;
        case param_type::string: fail_not_boolean(p, value, type);
        default: break;
    }
}

double as_number(const program& p, const cell& value, param_type type) {
    switch (type) {
        case param_type::number: return value.d;
        case param_type::string: {
            const auto number = text_to_number(value.s());
            if (!number) fail(p, "'" + std::string(value.s()) + "' is not a number");
            return *number;
        }
        default: return static_cast<double>(value.i);
    }
}

bool compare(const program& p, const cell& left, const cell& right, const instruction& i) {
    const auto left_type = static_cast<param_type>(i.a & 0xFF);
    const auto right_type = static_cast<param_type>(i.a >> 8);
    if (left_type == param_type::string && right_type == param_type::string) {
        return holds(left.s(), right.s(), i.sub);
    }
    const bool left_integral = left_type == param_type::integer || left_type == param_type::boolean;
    const bool right_integral =
        right_type == param_type::integer || right_type == param_type::boolean;
    if (left_integral && right_integral) return holds(left.i, right.i, i.sub);
    return holds_number(as_number(p, left, left_type), as_number(p, right, right_type), i.sub,
                        p.checked_truth);
}

void set_custom(blackboard board, std::uint32_t slot, const void* value) {
    board.set_object(slot, board.keys()[slot].custom->cpp_type, value);
}

// Text a key of a program's type reads, as BehaviorTree.CPP's convertFromString would.
std::shared_ptr<const void> custom_from_text(const program& p, blackboard board, std::uint32_t slot,
                                             std::string_view text) {
    const value_type& type = *board.keys()[slot].custom;
    try {
        return type.from_text(text);
    } catch (const std::exception& e) {
        fail(p, "'" + std::string(text) + "' is not a " + type.name + " for key '" +
                    board.keys()[slot].name + "': " + e.what());
    }
}

std::int64_t wrap(std::uint64_t value) {
    return static_cast<std::int64_t>(value);
}

// A script over dynamic entries, walked (run/script/dynamic.hpp); its value taken as
// BehaviorTree.CPP takes it. Out of the loop's way.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
bool execute_dynamic(const program& p, blackboard board, bool truth, double* number) {
    const detail::btcpp_any last = run_dynamic(*p.dynamic, p.text, board);
    try {
        if (number != nullptr) *number = detail::cast_real(last);
        return truth && detail::cast_boolean(last);
    } catch (const error& e) {
        fail(p, e.what());
    }
}

// Runs the program; with `truth`, gives the last statement's value as a boolean. `Strings`
// false is the path of a program that makes no string and needs at most 16 cells (numbers,
// booleans, enums, strings only compared): it holds nothing to free at its end.
// With `number`, gives the last value there as a number instead; `GivesString` (script::value)
// gives a string value there in `string_value`. A template parameter, so that the other runs'
// code is what it was without it (a pointer kept live through the loop costs them a register).
template <bool Strings, bool GivesString = false>
bool execute_as(const program& p, blackboard board, bool truth, double* number,
                [[maybe_unused]] std::string* string_value = nullptr) {
    cell small[16];
    cell* stack = small;
    [[maybe_unused]] std::conditional_t<Strings, std::unique_ptr<cell[]>, char> large{};
    // Reserved: the views on them stay valid.
    [[maybe_unused]] std::conditional_t<Strings, std::vector<std::string>, char> temporaries{};
    if constexpr (Strings) {
        if (p.max_stack > 16) {
            large = std::make_unique<cell[]>(p.max_stack);
            stack = large.get();
        }
        if (p.temporaries > 0) temporaries.reserve(p.temporaries);
    }
    auto make_text = [&](std::string text) -> std::string_view {
        if constexpr (Strings) {
            temporaries.push_back(std::move(text));
            return temporaries.back();
        } else {
            (void)text;  // never: such a program counts a temporary
            return {};
        }
    };

    cell* top = stack - 1;
    const instruction* code = p.code.data();
    const std::size_t size = p.code.size();
    for (std::size_t pc = 0; pc < size; ++pc) {
        const instruction& i = code[pc];
        switch (i.op) {
            case opcode::push_int: (++top)->i = i.imm.i; break;
            case opcode::push_num: (++top)->d = i.imm.d; break;
            case opcode::push_str: (++top)->set(p.strings[i.a]); break;
            case opcode::load_int: (++top)->i = board.get<std::int64_t>(i.a); break;
            case opcode::load_bool: (++top)->i = board.get<bool>(i.a) ? 1 : 0; break;
            case opcode::load_num: (++top)->d = board.get<double>(i.a); break;
            case opcode::load_str: (++top)->set(board.get<std::string_view>(i.a)); break;
            case opcode::store_int: board.set(i.a, top->i); break;
            case opcode::store_bool: board.set(i.a, top->i != 0); break;
            case opcode::store_num: board.set(i.a, top->d); break;
            case opcode::store_str: {
                const auto current = board.get<std::string_view>(i.a);
                if (top->text != current.data()) {
                    board.set(i.a, top->s());
                    top->set(board.get<std::string_view>(i.a));
                }
                break;
            }
            case opcode::pop: --top; break;
            case opcode::int_to_num: top->d = static_cast<double>(top->i); break;
            case opcode::num_to_int: {
                const auto value = exact_integer(top->d);
                if (!value) {
                    fail(p, number_text(top->d) + " is not an integer (it would lose precision)");
                }
                top->i = *value;
                break;
            }
            case opcode::trunc_to_int: {
                constexpr double limit = 9223372036854775808.0;
                if (!(top->d >= -limit && top->d < limit)) {
                    fail(p, number_text(top->d) + " is out of range for a bitwise operation");
                }
                top->i = static_cast<std::int64_t>(top->d);
                break;
            }
            case opcode::int_to_bool:
                if (top->i != 0 && top->i != 1) {
                    fail(p, std::to_string(top->i) + " is not a boolean (0 or 1)");
                }
                break;
            case opcode::num_to_bool:
                if (top->d != 0 && top->d != 1) {
                    fail(p, number_text(top->d) + " is not a boolean (0 or 1)");
                }
                top->i = top->d == 1 ? 1 : 0;
                break;
            case opcode::str_to_int: {
                const auto value = text_to_integer(top->s());
                if (!value) fail(p, "'" + std::string(top->s()) + "' is not an integer");
                top->i = *value;
                break;
            }
            case opcode::str_to_num: top->d = as_number(p, *top, param_type::string); break;
            case opcode::str_to_bool: {
                const auto value = text_to_boolean(top->s());
                if (!value) fail(p, "'" + std::string(top->s()) + "' is not a boolean");
                top->i = *value ? 1 : 0;
                break;
            }
            case opcode::int_to_str: top->set(make_text(std::to_string(top->i))); break;
            case opcode::num_to_str: top->set(make_text(number_text(top->d))); break;
            case opcode::bool_to_str: top->set(top->i != 0 ? "1" : "0"); break;
            case opcode::truth_int: top->i = top->i != 0 ? 1 : 0; break;
            case opcode::truth_num: top->i = top->d != 0 ? 1 : 0; break;
            case opcode::truth_str: top->i = top->length == 0 ? 0 : 1; break;
            case opcode::truth_int_checked: require_boolean(p, *top, param_type::integer); break;
            case opcode::truth_num_checked:
                require_boolean(p, *top, param_type::number);
                top->i = top->d != 0 ? 1 : 0;
                break;
            case opcode::neg_int: top->i = wrap(0 - static_cast<std::uint64_t>(top->i)); break;
            case opcode::neg_num: top->d = -top->d; break;
            case opcode::logical_not: top->i = top->i != 0 ? 0 : 1; break;
            case opcode::complement: top->i = ~top->i; break;
            case opcode::add_int:
                --top;
                top->i =
                    wrap(static_cast<std::uint64_t>(top->i) + static_cast<std::uint64_t>(top[1].i));
                break;
            case opcode::sub_int:
                --top;
                top->i =
                    wrap(static_cast<std::uint64_t>(top->i) - static_cast<std::uint64_t>(top[1].i));
                break;
            case opcode::mul_int:
                --top;
                top->i =
                    wrap(static_cast<std::uint64_t>(top->i) * static_cast<std::uint64_t>(top[1].i));
                break;
            case opcode::add_num:
                --top;
                top->d += top[1].d;
                break;
            case opcode::sub_num:
                --top;
                top->d -= top[1].d;
                break;
            case opcode::mul_num:
                --top;
                top->d *= top[1].d;
                break;
            case opcode::div_num:
                --top;
                top->d /= top[1].d;
                break;
            case opcode::bit_and:
                --top;
                top->i &= top[1].i;
                break;
            case opcode::bit_or:
                --top;
                top->i |= top[1].i;
                break;
            case opcode::bit_xor:
                --top;
                top->i ^= top[1].i;
                break;
            case opcode::logical_and:
                --top;
                top->i = (top->i != 0 && top[1].i != 0) ? 1 : 0;
                break;
            case opcode::logical_or:
                --top;
                top->i = (top->i != 0 || top[1].i != 0) ? 1 : 0;
                break;
            case opcode::concat: {
                --top;
                std::string joined;
                joined.reserve(top->length + top[1].length);
                joined.append(top->s()).append(top[1].s());
                top->set(make_text(std::move(joined)));
                break;
            }
            case opcode::compare:
                --top;
                top->i = compare(p, top[0], top[1], i) ? 1 : 0;
                break;
            case opcode::compare_chain:
                --top;
                if (compare(p, top[0], top[1], i)) {
                    top[0] = top[1];
                } else {
                    top->i = 0;
                    pc = i.b - 1;
                }
                break;
            case opcode::compare_key_int_equal:
                (++top)->i = board.get<std::int64_t>(i.a) == i.imm.i ? 1 : 0;
                break;
            case opcode::compare_key_int_not_equal:
                (++top)->i = board.get<std::int64_t>(i.a) != i.imm.i ? 1 : 0;
                break;
            case opcode::compare_key_int_less:
                (++top)->i = board.get<std::int64_t>(i.a) < i.imm.i ? 1 : 0;
                break;
            case opcode::compare_key_int_greater:
                (++top)->i = board.get<std::int64_t>(i.a) > i.imm.i ? 1 : 0;
                break;
            case opcode::compare_key_int_less_equal:
                (++top)->i = board.get<std::int64_t>(i.a) <= i.imm.i ? 1 : 0;
                break;
            case opcode::compare_key_int_greater_equal:
                (++top)->i = board.get<std::int64_t>(i.a) >= i.imm.i ? 1 : 0;
                break;
            case opcode::compare_key_num:
                (++top)->i =
                    holds_number(board.get<double>(i.a), i.imm.d, i.sub, p.checked_truth) ? 1 : 0;
                break;
            case opcode::compare_key_int_num:
                (++top)->i = holds_number(static_cast<double>(board.get<std::int64_t>(i.a)),
                                          i.imm.d, i.sub, p.checked_truth)
                                 ? 1
                                 : 0;
                break;
            case opcode::copy_custom:
                board.copy(i.a, board, i.b);
                (++top)->i = 0;
                break;
            case opcode::set_custom:
                set_custom(board, i.a, p.objects[i.b].get());
                (++top)->i = 0;
                break;
            case opcode::text_to_custom:
                set_custom(board, i.a, custom_from_text(p, board, i.a, top->s()).get());
                top->i = 0;
                break;
            case opcode::jump: pc = i.a - 1; break;
            case opcode::fail: fail(p, p.strings[i.a]);
            case opcode::require_value:
                if (!board.is_set(i.a)) fail_unset(p, i);
                break;
            case opcode::jump_if_false:
                if ((top--)->i == 0) pc = i.a - 1;
                break;
        }
    }
    if constexpr (GivesString) {
        if (p.result == param_type::string) {
            *string_value = std::string(top->s());
            return false;
        }
    }
    if (number != nullptr) {
        switch (p.result) {
            case param_type::number: *number = top->d; break;
            case param_type::integer:
            case param_type::boolean: *number = static_cast<double>(top->i); break;
            default: fail(p, "its value is not a number");
        }
        return false;
    }
    if (!truth) return false;
    // The value as test() takes it, while the temporaries it may view live.
    if (p.checked_truth) require_boolean(p, *top, p.result);
    switch (p.result) {
        case param_type::number: return top->d != 0;
        case param_type::string: {
            const auto value = text_to_boolean(top->s());
            if (!value) fail(p, "its value '" + std::string(top->s()) + "' is not a boolean");
            return *value;
        }
        case param_type::custom:
            fail(p, "its value is of a program's type, which is neither true nor false");
        default: return top->i != 0;
    }
}

// A behavior3 expression's truth (evaluated by script::run too, for its errors) or, with
// `number`, its number instead. The blackboard by value: a reference would keep the entry
// points' blackboard in memory, and test()'s quick path would reload it from there.
bool execute_behavior3(const program& p, blackboard board, double* number = nullptr) {
    try {
        if (number == nullptr) return detail::behavior3_expression::test(*p.behavior3, board);
        *number = detail::behavior3_expression::number(*p.behavior3, board);
        return false;
    } catch (const error& e) {
        fail(p, e.what());
    }
}

// Whether execute_as<false> runs the program: it makes no string and needs at most 16 cells.
bool on_small_stack(const program& p) {
    return p.temporaries == 0 && p.max_stack <= 16;
}

bool execute(const program& p, blackboard board, bool truth, double* number = nullptr) {
    if (on_small_stack(p)) return execute_as<false>(p, board, truth, number);
    if (p.max_stack == program::walked_stack) {
        if (p.behavior3 != nullptr) return execute_behavior3(p, board, number);
        return execute_dynamic(p, board, truth, number);
    }
    return execute_as<true>(p, board, truth, number);
}

}  // namespace

void script::run(blackboard board) const {
    (void)execute(*program_, board, false);
}

double script::number(blackboard board) const {
    double value = 0;
    (void)execute(*program_, board, false, &value);
    return value;
}

std::optional<dynamic_value> script::value(blackboard board) const {
    const program& p = *program_;
    if (p.dynamic != nullptr) {
        detail::btcpp_any last = run_dynamic(*p.dynamic, p.text, board);
        switch (last.held) {
            case detail::btcpp_any::kind::empty: return std::nullopt;
            case detail::btcpp_any::kind::string: return dynamic_value(std::move(last.s));
            case detail::btcpp_any::kind::integer: return dynamic_value(last.i);
            default: return dynamic_value(last.d);
        }
    }
    if (p.behavior3 == nullptr && p.result == param_type::string) {
        std::string text;
        if (on_small_stack(p)) {
            (void)execute_as<false, true>(p, board, false, nullptr, &text);
        } else {
            (void)execute_as<true, true>(p, board, false, nullptr, &text);
        }
        return dynamic_value(std::move(text));
    }
    if (p.behavior3 == nullptr) return dynamic_value(number(board));
    try {
        detail::behavior3_expression::result r =
            detail::behavior3_expression::evaluate(*p.behavior3, board);
        if (!r.defined) return std::nullopt;
        return std::move(r.value);
    } catch (const error& e) {
        fail(p, e.what());
    }
}

param_type script::result_type() const noexcept {
    return program_->result;
}

namespace {

// A quick_term's truth. Its key's type is the one the term was compiled for, so it is read
// without blackboard::get's check of the type.
inline bool term_holds(const quick_term& t, const blackboard& board, bool as_btcpp) {
    if (t.what == quick_term::kind::integer_key) {
        std::int64_t value = 0;
        std::memcpy(&value, board.address(t.slot), sizeof value);
        return t.range.holds(value);
    }
    if (t.what == quick_term::kind::boolean_key) {
        bool value = false;
        std::memcpy(&value, board.address(t.slot), sizeof value);
        return value;
    }
    if (t.what == quick_term::kind::number_key) {
        double value = 0;
        std::memcpy(&value, board.address(t.slot), sizeof value);
        return holds_number(value, t.number, t.sub, as_btcpp);
    }
    return t.truth;
}

// test() when the quick path cannot answer. Out of line and called last, with the
// blackboard as test() received it: so GCC passes it on in its registers, where an inlined
// call copied it through memory at test()'s entry, and the quick path reloaded it from there.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
bool test_by_loop(const program& p, blackboard board) {
    return execute(p, board, true);
}

}  // namespace

bool script::test(blackboard board) const {
    const program& p = *program_;
    const quick_condition& q = p.quick;
    if (q.terms != 0 && (!q.checked || board.are_set(q.checked_slots[0], q.checked_slots[1]))) {
        const bool first = term_holds(q.term[0], board, p.checked_truth);
        if (q.terms == 1) return first;
        const bool second = term_holds(q.term[1], board, p.checked_truth);
        return q.join_and ? first && second : first || second;
    }
    return test_by_loop(p, board);
}

namespace detail {

value_range key_test::range() const noexcept {
    using limits = std::numeric_limits<std::int64_t>;
    value_range made;
    std::int64_t low = limits::min();
    std::int64_t high = limits::max();
    switch (op) {
        case comparison::not_equal: made.outside = true; [[fallthrough]];
        case comparison::equal: low = high = constant; break;
        case comparison::less_equal: high = constant; break;
        case comparison::greater_equal: low = constant; break;
        case comparison::less:
            // Nothing is less than the least value: the whole range, outside.
            if (constant == limits::min())
                made.outside = true;
            else
                high = constant - 1;
            break;
        case comparison::greater:
            if (constant == limits::max())
                made.outside = true;
            else
                low = constant + 1;
            break;
    }
    made.low = low;
    made.width = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    return made;
}

}  // namespace detail

std::optional<detail::key_test> script::as_key_test() const noexcept {
    const program& p = *program_;
    if (p.code.size() != 1) return std::nullopt;
    const instruction& i = p.code.front();
    using comparison = detail::key_test::comparison;
    detail::key_test test;
    test.slot = i.a;
    test.constant = i.imm.i;
    switch (i.op) {
        case opcode::load_bool:
            test.boolean_key = true;
            test.op = comparison::not_equal;
            test.constant = 0;
            return test;
        case opcode::compare_key_int_equal: test.op = comparison::equal; return test;
        case opcode::compare_key_int_not_equal: test.op = comparison::not_equal; return test;
        case opcode::compare_key_int_less: test.op = comparison::less; return test;
        case opcode::compare_key_int_greater: test.op = comparison::greater; return test;
        case opcode::compare_key_int_less_equal: test.op = comparison::less_equal; return test;
        case opcode::compare_key_int_greater_equal:
            test.op = comparison::greater_equal;
            return test;
        default: return std::nullopt;
    }
}

}  // namespace canopy
