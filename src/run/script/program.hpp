#pragma once

// A compiled script: typed instructions for a stack machine whose cells are 8-byte numbers or
// string views, with superinstructions for `key OP constant`. Jumps only go forward, so a run
// ends after at most code.size() instructions.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/param.hpp"
#include "canopy/run/script.hpp"

namespace canopy::detail::script_code {

struct dynamic_script;  // run/script/dynamic.hpp
}  // namespace canopy::detail::script_code
namespace canopy::detail::behavior3_expression {
struct expression;  // run/script/behavior3_expression.hpp
}  // namespace canopy::detail::behavior3_expression
namespace canopy::detail::script_code {

enum class opcode : std::uint8_t {
    push_int,  // imm.i (booleans are integers 0 or 1)
    push_num,  // imm.d
    push_str,  // strings[a]
    load_int,  // slot a (an integer or boolean key)
    load_bool,
    load_num,
    load_str,
    store_int,  // slot a, the value stays
    store_bool,
    store_num,
    store_str,
    pop,
    int_to_num,
    num_to_int,    // fails on a fraction or a value out of range
    trunc_to_int,  // for `~`: fails only out of range
    int_to_bool,   // for a boolean key: fails unless 0 or 1
    num_to_bool,
    str_to_int,
    str_to_num,
    str_to_bool,
    int_to_str,
    num_to_str,
    bool_to_str,
    truth_int,  // != 0
    truth_num,
    truth_str,  // not empty
    // BehaviorTree.CPP's cast to bool, of an operand of `&&` or `||` (a BehaviorTree.CPP
    // file's rules): an integer must be 0 or 1, a number not negative, else the run fails.
    truth_int_checked,
    truth_num_checked,
    neg_int,
    neg_num,
    logical_not,  // of a boolean
    complement,
    add_int,
    sub_int,
    mul_int,
    add_num,
    sub_num,
    mul_num,
    div_num,
    bit_and,
    bit_or,
    bit_xor,
    logical_and,  // of two booleans, both evaluated (BehaviorTree.CPP does not short-circuit)
    logical_or,
    concat,
    compare,        // sub: comparison; a: left type | right type << 8; pops two, pushes a boolean
    compare_chain,  // as compare, but keeps the right operand, or pushes false and jumps to b
    compare_key_int_equal,  // integer key a against imm.i, one opcode per comparison
    compare_key_int_not_equal,
    compare_key_int_less,
    compare_key_int_greater,
    compare_key_int_less_equal,
    compare_key_int_greater_equal,
    compare_key_num,      // number key a against imm.d
    compare_key_int_num,  // integer key a, as a number, against imm.d
    copy_custom,          // key a of a program's type from key b of that type; pushes 0
    set_custom,           // key a from objects[b], read from text at load; pushes 0
    text_to_custom,       // key a from the string on top, read by its type; replaces it by 0
    jump,                 // to a
    jump_if_false,        // pops a boolean; to a if false
    fail,                 // throws strings[a]: a statement whose problem shows when it runs
    require_value,        // fails unless key a holds a value (strings[b]: its name as written)
};

// In the order of the compare_key_int_* opcodes: the compiler adds one to compare_key_int_equal.
enum class comparison : std::uint8_t { equal, not_equal, less, greater, less_equal, greater_equal };

struct instruction {
    opcode op = opcode::pop;
    comparison sub = comparison::equal;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    union {
        std::int64_t i;
        double d;
    } imm{0};
};

// One term of a quick_condition: a key compared with a constant, a boolean key, or a constant.
struct quick_term {
    enum class kind : std::uint8_t { integer_key, boolean_key, number_key, constant };
    kind what = kind::constant;
    bool truth = false;                  // constant's value
    comparison sub = comparison::equal;  // number_key's comparison
    std::uint32_t slot = 0;
    value_range range;  // integer_key's
    double number = 0;  // number_key's constant
};

// The most common conditions, one term or two joined by `&&` or `||` (`a > 3 && b != 2`),
// which test() answers without the interpreter's loop. Over keys whose reads are checked
// (opcode::require_value, at most two), where they hold values; else the loop answers and
// fails where it stands.
struct quick_condition {
    std::uint8_t terms = 0;  // 0 where the loop answers
    bool join_and = true;    // of two terms: `&&`, else `||` (both evaluated, as the loop does)
    bool checked = false;
    std::uint32_t checked_slots[2] = {};  // the second the first again where one is checked
    quick_term term[2];
};

struct program {
    std::string text;
    std::vector<instruction> code;
    std::vector<std::string> strings;
    std::vector<std::shared_ptr<const void>> objects;  // values of a program's types
    param_type result = param_type::boolean;
    // A BehaviorTree.CPP file's rules: test() casts the result to bool as it does (an integer
    // must be 0 or 1, a number not negative, a string is no condition), or the run fails.
    bool checked_truth = false;
    std::size_t max_stack = 0;
    std::size_t temporaries = 0;  // strings a run may make: reserved so views stay valid
    // A condition test() answers without the loop (choose_quick_form), or none.
    quick_condition quick;
    // A BehaviorTree.CPP script over dynamic entries, walked instead of `code`, which is empty;
    // its max_stack is walked_stack, so that the typed paths never take it.
    std::shared_ptr<const dynamic_script> dynamic;
    // A behavior3 expression, walked as behavior3-ts evaluates it, with max_stack walked_stack.
    std::shared_ptr<const behavior3_expression::expression> behavior3;
    static constexpr std::size_t walked_stack = static_cast<std::size_t>(-1);
};

/// Sets program::quick where the program's form allows.
void choose_quick_form(program& p);

// Conversions BehaviorTree.CPP makes, shared by the compiler (constants) and the interpreter.
/// A string as a number: "true" 1, "false" 0, else the whole text as a real.
std::optional<double> text_to_number(std::string_view text);
/// A string as an integer: the whole text as a decimal integer.
std::optional<std::int64_t> text_to_integer(std::string_view text);
/// A string as a boolean: true/True/TRUE/1 or false/False/FALSE/0.
std::optional<bool> text_to_boolean(std::string_view text);
/// A real as an integer without loss, or nothing.
std::optional<std::int64_t> exact_integer(double value);
/// A number's text as BehaviorTree.CPP makes it (std::to_string).
std::string number_text(double value);

}  // namespace canopy::detail::script_code

namespace canopy {
struct script::program : detail::script_code::program {};
}  // namespace canopy
