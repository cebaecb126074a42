#pragma once
// behavior3's expressions as behavior3-ts evaluates them (docs/behavior3.md, "Expressions"):
// its tokens, its shunting-yard into postfix and its check of the postfix decide what loads;
// its stack machine, over JavaScript's values, what an expression gives. A behavior3 file's
// variables hold any value, so the values' kinds are known only when the expression runs.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "canopy/core/dynamic_value.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"

namespace canopy::detail::behavior3_expression {

enum class op : std::uint8_t {
    number,  // value
    boolean,
    word,  // a name or a quoted literal, as written (quotes kept): read when an operator needs it
    negate,
    plus,
    logical_not,
    question,
    colon,
    dot,
    bracket,
    greater,
    greater_equal,
    equal,
    not_equal,
    less,
    less_equal,
    add,
    subtract,
    multiply,
    divide,
    remainder,
    logical_and,
    logical_or,
    bit_and,
    bit_or,
    shift_left,
    shift_right,
    shift_right_unsigned,
    parenthesis,  // a `(` never closed, which behavior3-ts leaves in the postfix
};

struct item {
    op kind = op::number;
    std::uint32_t offset = 0;  // in the text
    double value = 0;
    std::string text;        // as written
    std::uint32_t slot = 0;  // a name's key, when bound
    bool bound = false;
    param_type key_type = param_type::custom;  // the bound key's
    bool json_key = false;                     // the bound key holds a dynamic_value
};

struct expression {
    std::vector<item> postfix;
    /// Set by bind(): only numbers, booleans, bound names and operators over numbers, short
    /// enough for quick_stack cells, so that a quick pass over numbers may answer it.
    bool numbers_only = false;
    static constexpr std::size_t quick_stack = 32;
    /// Set by the compiler when typed_form() gives one that compiles: the same expression in
    /// BehaviorTree.CPP's script language over the same keys, which gives the same result
    /// once every key in `typed_slots` holds a value (the typed instructions, no walk).
    std::shared_ptr<const script> typed;
    std::vector<std::uint32_t> typed_slots;
    bool typed_boolean = false;  ///< it gives a boolean, else a number
    /// The words that name variables (not quoted literals, not the field after a `.`), once
    /// each, in text order: views into the items.
    std::vector<std::string_view> names() const;
    /// The names whose fields or elements it reads (`obj` in `obj.hp`, `list` in `list[i]`),
    /// once each: views into the items.
    std::vector<std::string_view> object_names() const;
};

/// The postfix of an expression, or why behavior3-ts refuses it when it builds the tree.
std::variant<expression, script_problem> parse(std::string_view text);

/// Binds each name to the key `scope` gives it; a name without one reads as undefined.
void bind(expression& e, const script_scope& scope);

/// Whether what it gives is always a number or undefined, when every name `numeric` accepts
/// holds a number or nothing: what lets the variable it is stored into be a number key.
bool gives_number(const expression& e, const std::function<bool(std::string_view)>& numeric);

/// An expression over number keys and literals that behavior3-ts and Canopy's typed scripts
/// compute alike, written in the latter: comparisons of numbers, `&&`, `||` and `!` over
/// booleans, `+`, `-`, `*`, `/` and unary `-` over number keys (not integer ones) and
/// literals, and `==`/`!=` between two of a kind. Anything else (text, `%`, bitwise operators, a
/// number tested for truth inside `&&`, `json` keys) has none.
struct typed_text {
    std::string text;
    std::vector<std::uint32_t> slots;  // every key it reads
    bool boolean = false;              // it gives a boolean, else a number
};
std::optional<typed_text> typed_form(const expression& e);

/// What an expression gives: a JavaScript value, or undefined.
struct result {
    bool defined = false;
    dynamic_value value;
};

/// Evaluates it on one agent's blackboard.
/// @warning throws canopy::error (code `script`) where behavior3-ts's evaluator throws, with
/// its message ("value indexed by 'x' is not found").
result evaluate(const expression& e, const blackboard& board);

/// JavaScript's truthiness of what it gives, as `Check` tests it: evaluate() and truthy()
/// without making the value.
/// The blackboard by value, as the script's entry points hold it (two pointers): a reference
/// would make them keep it in memory.
/// @warning throws as evaluate() does.
bool test(const expression& e, blackboard board);

/// What it gives as a number (a boolean as 1 or 0, undefined as NaN), without making the
/// value: for a number variable, which no expression that gives undefined is written to.
/// @warning throws as evaluate() does.
double number(const expression& e, blackboard board);

/// JavaScript's truthiness of a result.
bool truthy(const result& r) noexcept;

}  // namespace canopy::detail::behavior3_expression
