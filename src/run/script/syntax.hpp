#pragma once

// The script language's tokens and syntax tree (docs/scripting.md): what the lexer makes of a
// script's text and what the parser makes of its tokens, before names are bound.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "canopy/run/script.hpp"
#include "run/script/behavior3_expression.hpp"

namespace canopy::detail::script_syntax {

enum class token_kind : std::uint8_t {
    end,
    name,
    integer,  // value in token::integer, unsigned: the sign is an operator
    real,     // value in token::real
    string,   // the text between the quotes
    kw_true,
    kw_false,
    open,
    close,
    semicolon,
    question,
    colon,
    plus,
    minus,
    times,
    divide,
    concat,
    bit_and,
    bit_or,
    bit_xor,
    complement,
    logical_not,
    logical_and,
    logical_or,
    equal,
    not_equal,
    less,
    greater,
    less_equal,
    greater_equal,
    assign_create,
    assign,
    assign_plus,
    assign_minus,
    assign_times,
    assign_divide,
};

/// How an operator is spelled, for messages.
std::string_view spelling(token_kind kind) noexcept;

struct token {
    token_kind kind = token_kind::end;
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    std::uint64_t integer = 0;
    double real = 0;
};

/// The most bytes a script's text may have: offsets are 32-bit.
inline constexpr std::size_t max_text_bytes = 1000000;

/// The tokens of a script, the last one `end`, or the first problem.
std::variant<std::vector<token>, script_problem> lex(std::string_view text);

/// The first token lex() takes that BehaviorTree.CPP 4.10's tokenizer refuses (a string in
/// double quotes, a name with bytes of UTF-8), for a BehaviorTree.CPP file's scripts.
std::optional<script_problem> btcpp_refused_token(std::string_view text);

enum class node_kind : std::uint8_t {
    integer,  // value
    real,     // real
    boolean,  // value 0 or 1
    string,   // text
    name,     // text, `@` included
    unary,    // op, kids[0]
    chain,    // kids[0] ops[0] kids[1] ops[1] kids[2]...: one precedence level, left to right
    compare,  // kids[0] ops[0] kids[1]...: BehaviorTree.CPP's chained comparison
    ternary,  // kids: condition, then, else
    assign,   // op, kids[0] the name node, kids[1] the value; assignment: index
};

struct node {
    node_kind kind = node_kind::integer;
    token_kind op = token_kind::end;
    std::uint32_t offset = 0;  // of the node's first character, or of a unary's operator
    std::int64_t value = 0;
    double real = 0;
    std::uint32_t assignment = 0;
    std::string text;
    std::vector<std::uint32_t> kids;
    std::vector<token_kind> ops;
    std::vector<std::uint32_t> op_offsets;
};

}  // namespace canopy::detail::script_syntax

namespace canopy {

struct parsed_script::syntax {
    std::string text;
    script_dialect dialect = script_dialect::btcpp;
    std::vector<detail::script_syntax::node> nodes;
    std::vector<std::uint32_t> statements;  // root node of each
    std::vector<script_assignment> assignments;
    std::vector<std::uint32_t> assignment_nodes;  // per assignment, its assign node
    // A behavior3 expression: its postfix, as behavior3-ts evaluates it (no nodes).
    detail::behavior3_expression::expression behavior3;
};

}  // namespace canopy
