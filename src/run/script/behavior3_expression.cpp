#include "run/script/behavior3_expression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "canopy/core/error.hpp"

namespace canopy::detail::behavior3_expression {
namespace {

constexpr std::size_t max_text_bytes = 1000000;  // as for the scripts: offsets are 32-bit

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}
bool is_word(char c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
// A quoted literal as behavior3-ts tells it from a name: the same quote at both ends, no line
// break between.
bool is_quoted(std::string_view s) noexcept {
    if (s.size() < 2 || (s.front() != '\'' && s.front() != '"') || s.back() != s.front())
        return false;
    return s.find_first_of("\r\n") == std::string_view::npos;
}

struct raw_token {
    std::string_view text;
    std::uint32_t offset = 0;
};

struct failure {
    script_problem problem;
};
[[noreturn]] void fail(std::size_t offset, std::string message) {
    throw failure{{offset, std::move(message)}};
}

// behavior3-ts's tokenizer: a quoted literal, a number (digits with an optional fraction), a
// word, or an operator, each followed by any spaces. Spaces before the first token are not
// skipped: the expression must start with a token.
std::vector<raw_token> tokenize(std::string_view text) {
    std::vector<raw_token> tokens;
    std::size_t at = 0;
    auto rest = [&] { return text.substr(at); };
    while (at < text.size()) {
        const char c = text[at];
        std::size_t length = 0;
        if (c == '\'' || c == '"') {
            const std::size_t end = text.find(c, at + 1);
            if (end == std::string_view::npos)
                fail(at,
                     "invalid expression: '" + std::string(rest()) + "': a quote is not closed");
            length = end + 1 - at;
        } else if (is_digit(c)) {
            while (at + length < text.size() && is_digit(text[at + length])) ++length;
            if (at + length + 1 < text.size() && text[at + length] == '.' &&
                is_digit(text[at + length + 1])) {
                ++length;
                while (at + length < text.size() && is_digit(text[at + length])) ++length;
            }
        } else if (is_word(c)) {
            while (at + length < text.size() && is_word(text[at + length])) ++length;
        } else {
            static constexpr std::string_view longest_first[] = {
                "<<", ">>>", ">>", ">=", "<=", "==", "!=", ">", "<", "&&", "&", "||"};
            for (std::string_view op : longest_first) {
                if (rest().substr(0, op.size()) == op) {
                    length = op.size();
                    break;
                }
            }
            if (length == 0 &&
                std::string_view("-+*%!?/:.|^()[]").find(c) != std::string_view::npos)
                length = 1;
            if (length == 0)
                fail(at, "invalid expression: '" + std::string(rest()) + "': unexpected '" +
                             std::string(1, c) + "'");
        }
        tokens.push_back({text.substr(at, length), static_cast<std::uint32_t>(at)});
        at += length;
        while (at < text.size() && is_space(text[at])) ++at;
    }
    return tokens;
}

struct token {
    op kind = op::number;
    int precedence = 0;  // times 10, so that `?` goes just below `:`
    std::uint32_t offset = 0;
    double value = 0;
    std::string_view text;
    char bracket = 0;  // '(' or '[' on the operator stack, ')' or ']' in the input
};

bool starts_operand_after(std::string_view last) {
    // A `-` or `+` is unary first and after these (behavior3-ts's test of the previous token).
    return std::all_of(last.begin(), last.end(), [](char c) {
        return std::string_view("-+*%<>=!&~^?:(|[").find(c) != std::string_view::npos;
    });
}

token make_token(const raw_token& raw, const raw_token* last) {
    const std::string_view s = raw.text;
    token t;
    t.offset = raw.offset;
    t.text = s;
    if ((s == "-" || s == "+") && (last == nullptr || starts_operand_after(last->text))) {
        t.kind = s == "-" ? op::negate : op::plus;
        t.precedence = 150;
        return t;
    }
    if (is_quoted(s)) {
        t.kind = op::word;
        return t;
    }
    if (is_digit(s.front())) {
        t.kind = op::number;
        t.value = std::strtod(std::string(s).c_str(), nullptr);
        return t;
    }
    if (s == "true" || s == "false") {
        t.kind = op::boolean;
        t.value = s == "true" ? 1 : 0;
        return t;
    }
    if (is_word(s.front())) {
        t.kind = op::word;
        return t;
    }
    struct entry {
        std::string_view spelling;
        op kind;
        int precedence;
    };
    static constexpr entry operators[] = {
        {".", op::dot, 180},
        {"[", op::bracket, 180},
        {"!", op::logical_not, 150},
        {"%", op::remainder, 130},
        {"*", op::multiply, 130},
        {"/", op::divide, 130},
        {"+", op::add, 120},
        {"-", op::subtract, 120},
        {"<<", op::shift_left, 110},
        {">>", op::shift_right, 110},
        {">>>", op::shift_right_unsigned, 110},
        {">", op::greater, 100},
        {">=", op::greater_equal, 100},
        {"<", op::less, 100},
        {"<=", op::less_equal, 100},
        {"==", op::equal, 90},
        {"!=", op::not_equal, 90},
        {"&", op::bit_and, 80},
        {"|", op::bit_or, 60},
        {"&&", op::logical_and, 50},
        {"||", op::logical_or, 40},
        {":", op::colon, 20},
        {"?", op::question, 19},
    };
    if (s == "(" || s == ")" || s == "]") {
        t.kind = op::parenthesis;
        t.bracket = s.front();
        return t;
    }
    for (const entry& e : operators) {
        if (e.spelling == s) {
            t.kind = e.kind;
            t.precedence = e.precedence;
            if (s == "[") t.bracket = '[';
            return t;
        }
    }
    // `^`, which the tokenizer reads, has no operator behind it.
    fail(raw.offset, "unsupported operator '" + std::string(s) + "'");
}

bool is_operand(op kind) noexcept {
    return kind == op::number || kind == op::boolean || kind == op::word;
}
bool is_unary(op kind) noexcept {
    return kind == op::negate || kind == op::plus || kind == op::logical_not;
}

item to_item(const token& t) {
    item i;
    i.kind = t.kind;
    i.offset = t.offset;
    i.value = t.value;
    i.text = t.text;
    return i;
}

// The shunting-yard of behavior3-ts: operands go out; `(` and `[` wait on the stack; `)` and
// `]` send out what waits above the nearest of them (`]` then sends out the `[`, a binary
// operator); another operator first sends out every waiting one of the same or a higher
// precedence (which makes `[` give way to an operator inside its brackets).
std::vector<item> to_postfix(const std::vector<raw_token>& raw) {
    std::vector<item> out;
    std::vector<token> waiting;
    for (std::size_t k = 0; k < raw.size(); ++k) {
        const token t = make_token(raw[k], k > 0 ? &raw[k - 1] : nullptr);
        if (is_operand(t.kind)) {
            out.push_back(to_item(t));
        } else if (t.bracket == '(' || t.bracket == '[') {
            waiting.push_back(t);
        } else if (t.bracket == ')' || t.bracket == ']') {
            while (!waiting.empty() && waiting.back().bracket != '(' &&
                   waiting.back().bracket != '[')
                out.push_back(to_item(waiting.back())), waiting.pop_back();
            if (waiting.empty()) fail(t.offset, std::string("unmatched '") + t.bracket + "'");
            if (t.bracket == ')' && waiting.back().bracket != '(')
                fail(t.offset, "unmatched parentheses: '('");
            if (t.bracket == ']' && waiting.back().bracket != '[')
                fail(t.offset, "unmatched parentheses: '['");
            if (t.bracket == ']') out.push_back(to_item(waiting.back()));
            waiting.pop_back();
        } else {
            while (!waiting.empty() && t.precedence <= waiting.back().precedence)
                out.push_back(to_item(waiting.back())), waiting.pop_back();
            waiting.push_back(t);
        }
    }
    while (!waiting.empty()) out.push_back(to_item(waiting.back())), waiting.pop_back();
    return out;
}

// behavior3-ts's dry run: each operator has its operands, a `.` joins two words, and one value
// is left.
void check(const std::vector<item>& postfix) {
    std::vector<const item*> stack;
    for (const item& i : postfix) {
        if (is_operand(i.kind)) {
            stack.push_back(&i);
        } else if (i.kind == op::question) {
            if (stack.size() < 3) fail(i.offset, "not enough operands for '?'");
            stack.pop_back();
            stack.pop_back();
        } else if (is_unary(i.kind)) {
            if (stack.empty())
                fail(i.offset, "not enough operands for '" + std::string(i.text) + "'");
        } else {
            if (stack.size() < 2)
                fail(i.offset, "not enough operands for '" + std::string(i.text) + "'");
            const item* b = stack.back();
            stack.pop_back();
            const item* a = stack.back();
            if (i.kind == op::dot && (a->kind != op::word || b->kind != op::word))
                fail(i.offset, "'.' needs a name on each side");
            if (i.kind == op::colon) stack.push_back(b);
        }
    }
    if (stack.size() != 1) {
        fail(stack.size() > 1 ? stack[1]->offset : 0,
             stack.empty() ? "the expression gives no value" : "two operands without an operator");
    }
}

// ---- evaluation ----

// A number's text as JavaScript's String(number) writes it.
std::string number_text(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    return dynamic_value(d).to_json();
}

// JavaScript's truthiness of a number: neither 0 nor NaN.
bool truthy_number(double d) noexcept {
    return d != 0 && !std::isnan(d);
}

// JavaScript's ToInt32: the number truncated, modulo 2^32, as a signed 32-bit integer; NaN
// and the infinities are 0.
std::int32_t to_int32(double d) {
    if (!std::isfinite(d)) return 0;
    const double wrapped = std::fmod(std::trunc(d), 4294967296.0);
    const auto bits = static_cast<std::uint32_t>(
        static_cast<std::int64_t>(wrapped < 0 ? wrapped + 4294967296.0 : wrapped));
    return static_cast<std::int32_t>(bits);
}

// A bitwise operator (`&`, `|`, `<<`, `>>`, `>>>`) on two of JavaScript's numbers.
double bitwise(op kind, double x, double y) {
    const std::int32_t a = to_int32(x);
    const std::int32_t b = to_int32(y);
    const std::uint32_t count = static_cast<std::uint32_t>(b) & 31U;
    switch (kind) {
        case op::bit_and: return a & b;
        case op::bit_or: return a | b;
        case op::shift_left:
            return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) << count);
        case op::shift_right: return a >> count;
        default: return static_cast<std::uint32_t>(a) >> count;  // `>>>`
    }
}

// A value on the evaluator's stack: JavaScript's, where a string may still be a name to look
// up (behavior3-ts keeps names and quoted literals as strings until an operator reads them).
struct cell {
    enum class kind : std::uint8_t { undefined, null, boolean, number, string, object };
    kind is = kind::undefined;
    bool b = false;
    double d = 0;
    std::string_view s;
    const item* word = nullptr;        // a word of the expression: its bound key
    const dynamic_value* v = nullptr;  // an array or object in the blackboard
};

cell number_cell(double d) {
    cell c;
    c.is = cell::kind::number;
    c.d = d;
    return c;
}
cell boolean_cell(bool b) {
    cell c;
    c.is = cell::kind::boolean;
    c.b = b;
    return c;
}

cell of(const dynamic_value& v) {
    cell c;
    if (&v == &dynamic_value::missing()) return c;
    switch (v.type()) {
        case dynamic_value::kind::null: c.is = cell::kind::null; break;
        case dynamic_value::kind::boolean: c = boolean_cell(v.boolean()); break;
        case dynamic_value::kind::number: c = number_cell(v.number()); break;
        case dynamic_value::kind::string:
            c.is = cell::kind::string;
            c.s = v.string();
            break;
        default: c.is = cell::kind::object; c.v = &v;
    }
    return c;
}

std::string shown(const cell& c) {
    switch (c.is) {
        case cell::kind::undefined: return "undefined";
        case cell::kind::null: return "null";
        case cell::kind::boolean: return c.b ? "true" : "false";
        case cell::kind::number: return number_text(c.d);
        case cell::kind::string: return std::string(c.s);
        case cell::kind::object: return c.v->to_json();
    }
    return {};
}

[[noreturn]] void throw_error(const std::string& message) {
    throw error(error_code::script, message);
}

// One stack per thread, kept: evaluating allocates nothing once it has grown.
thread_local std::vector<cell> evaluation_stack;

class evaluator {
public:
    evaluator(const expression& e, const blackboard& board) : e_(e), board_(board) {}

    result run() {
        std::vector<cell>& stack = stack_;
        stack.clear();
        auto pop = [&] {
            if (stack.empty()) return cell{};
            cell c = stack.back();
            stack.pop_back();
            return c;
        };
        for (const item& i : e_.postfix) {
            switch (i.kind) {
                case op::number: stack.push_back(number_cell(i.value)); break;
                case op::boolean: stack.push_back(boolean_cell(i.value != 0)); break;
                case op::word: {
                    cell c;
                    c.is = cell::kind::string;
                    c.s = i.text;
                    c.word = &i;
                    stack.push_back(c);
                    break;
                }
                case op::question: {
                    const cell condition = pop();
                    const cell then = pop();
                    const cell otherwise = pop();
                    stack.push_back(truth(value(condition, false)) ? then : otherwise);
                    break;
                }
                case op::plus: stack.push_back(value(pop(), false)); break;
                case op::negate:
                    stack.push_back(number_cell(-number_of(value(pop(), false))));
                    break;
                case op::logical_not:
                    stack.push_back(boolean_cell(!truth(value(pop(), false))));
                    break;
                default: {
                    const cell b = pop();
                    const cell a = pop();
                    stack.push_back(binary(i, a, b));
                }
            }
        }
        return to_result(pop());
    }

private:
    cell binary(const item& i, const cell& a, const cell& b) {
        switch (i.kind) {
            case op::dot: return value(property(object_of(a), key_text(b)), true);
            case op::bracket: {
                const cell index = value(b, true);
                const cell object = object_of(a);
                const cell found = index.is == cell::kind::number
                                       ? element(object, index.d)
                                       : property(object, key_text(index));
                return object_of(found);
            }
            case op::greater: return boolean_cell(number(a) > number(b));
            case op::greater_equal: return boolean_cell(number(a) >= number(b));
            case op::less: return boolean_cell(number(a) < number(b));
            case op::less_equal: return boolean_cell(number(a) <= number(b));
            case op::equal: return boolean_cell(strictly_equal(value(a, false), value(b, false)));
            case op::not_equal:
                return boolean_cell(!strictly_equal(value(a, false), value(b, false)));
            case op::add: return number_cell(number(a) + number(b));
            case op::subtract: return number_cell(number(a) - number(b));
            case op::multiply: return number_cell(number(a) * number(b));
            case op::divide: return number_cell(number(a) / number(b));
            case op::remainder: return number_cell(std::fmod(number(a), number(b)));
            case op::shift_left:
            case op::shift_right:
            case op::shift_right_unsigned:
            case op::bit_and:
            case op::bit_or: {
                const double x = number(a);  // the left operand first, as JavaScript reads
                return number_cell(bitwise(i.kind, x, number(b)));
            }
            // JavaScript's && and || on the operands' values: the right one is read only
            // when the left does not decide (so `false && 'x'` does not fail).
            case op::logical_and: {
                const cell x = value(a, true);
                return truth(x) ? value(b, true) : x;
            }
            case op::logical_or: {
                const cell x = value(a, true);
                return truth(x) ? x : value(b, true);
            }
            case op::colon:
                // behavior3-ts pushes both values back for its `?` to pick from.
                stack_.push_back(value(a, true));
                return value(b, true);
            default: throw_error("unsupported operator '" + std::string(i.text) + "'");
        }
    }

    double number(const cell& c) { return number_of(value(c, true)); }

    // behavior3-ts's _toValue: a number, boolean or null as it is; a quoted literal its text
    // (not where a number is needed); another string names a variable, which must be set
    // (and hold a number where one is needed).
    cell value(const cell& c, bool need_number) {
        switch (c.is) {
            case cell::kind::null:
            case cell::kind::boolean:
            case cell::kind::number: return c;
            case cell::kind::string: {
                if (is_quoted(c.s)) {
                    if (need_number)
                        throw_error("value indexed by '" + std::string(c.s) + "' is not a number");
                    cell literal;
                    literal.is = cell::kind::string;
                    literal.s = c.s.substr(1, c.s.size() - 2);
                    return literal;
                }
                const cell found = variable(c);
                if (found.is == cell::kind::undefined)
                    throw_error("value indexed by '" + std::string(c.s) + "' is not found");
                if (need_number && found.is != cell::kind::number)
                    throw_error("value indexed by '" + std::string(c.s) + "' is not a number");
                return found;
            }
            default: throw_error("token '" + shown(c) + "' type not support");
        }
    }

    // behavior3-ts's _toObject: a string names a variable that must hold an array or object;
    // anything else is taken as it is.
    cell object_of(const cell& c) {
        if (c.is != cell::kind::string) return c;
        const cell found = variable(c);
        if (found.is != cell::kind::object)
            throw_error("value indexed by '" + std::string(c.s) + "' is not a object");
        return found;
    }

    // JavaScript's `object[key]`.
    static cell property(const cell& object, const std::string& key) {
        if (object.is == cell::kind::undefined || object.is == cell::kind::null)
            throw_error("cannot read property '" + key + "' of " + shown(object));
        if (object.is == cell::kind::string && key == "length")
            return number_cell(static_cast<double>(utf16_length(object.s)));
        if (object.is != cell::kind::object) return {};
        if (const auto* elements = object.v->array()) {
            if (key == "length") return number_cell(static_cast<double>(elements->size()));
            return of(object.v->at(dynamic_value(key)));
        }
        return of(object.v->field(key));
    }
    static cell element(const cell& object, double index) {
        if (object.is == cell::kind::object && object.v->array() != nullptr)
            return of(object.v->at(dynamic_value(index)));
        return property(object, key_text(number_cell(index)));
    }

    static std::size_t utf16_length(std::string_view s) {
        std::size_t n = 0;
        for (const char c : s) {
            const auto byte = static_cast<unsigned char>(c);
            if ((byte & 0xC0U) != 0x80U) n += byte >= 0xF0U ? 2 : 1;
        }
        return n;
    }

    // A property key as JavaScript's String(value) makes it.
    static std::string key_text(const cell& c) {
        switch (c.is) {
            case cell::kind::string: return std::string(c.s);
            case cell::kind::number: return number_text(c.d);
            case cell::kind::object: return c.v->is_array() ? "" : "[object Object]";
            default: return shown(c);
        }
    }

    // A variable's value: the word's bound key, or one looked up by name (a string read from
    // a field names a variable too).
    cell variable(const cell& name) {
        std::uint32_t slot = param::no_key;
        if (name.word != nullptr) {
            if (name.word->bound) slot = name.word->slot;
        } else {
            const auto& keys = board_.keys();
            for (std::uint32_t k = 0; k < keys.size(); ++k) {
                if (keys[k].name == name.s) slot = k;
            }
        }
        if (slot == param::no_key || !board_.is_set(slot)) return {};
        const blackboard_key& key = board_.keys()[slot];
        switch (key.type) {
            case param_type::number: return number_cell(board_.get<double>(slot));
            case param_type::integer:
                return number_cell(static_cast<double>(board_.get<std::int64_t>(slot)));
            case param_type::boolean: return boolean_cell(board_.get<bool>(slot));
            case param_type::string: {
                cell c;
                c.is = cell::kind::string;
                c.s = board_.get<std::string_view>(slot);
                return c;
            }
            default: return custom_variable(key, slot);
        }
    }

    // A key of a program's type: behavior3's JSON values are read, any other refused. Out of
    // line, so that the reads above stay tight in run()'s loop: inlined, it made
    // remainder_and_shift 10% slower (bench/README.md).
    [[gnu::noinline, gnu::cold]] cell custom_variable(const blackboard_key& key,
                                                      std::uint32_t slot) {
        if (key.custom != nullptr && key.custom->cpp_type == type_id_of<dynamic_value>()) {
            const auto& v = board_.get_ref<dynamic_value>(slot);
            return v.is_null() ? cell{} : of(v);
        }
        throw_error("variable '" + key.name + "' holds a " + key.custom->name +
                    ", which an expression cannot read");
    }

    static double number_of(const cell& c) {
        switch (c.is) {
            case cell::kind::undefined: return std::numeric_limits<double>::quiet_NaN();
            case cell::kind::null: return 0;
            case cell::kind::boolean: return c.b ? 1 : 0;
            case cell::kind::number: return c.d;
            case cell::kind::string: return dynamic_value::text_to_number(c.s);
            case cell::kind::object: return c.v->to_number();
        }
        return 0;
    }
    static bool truth(const cell& c) {
        switch (c.is) {
            case cell::kind::undefined:
            case cell::kind::null: return false;
            case cell::kind::boolean: return c.b;
            case cell::kind::number: return truthy_number(c.d);
            case cell::kind::string: return !c.s.empty();
            case cell::kind::object: return true;
        }
        return false;
    }
    static bool strictly_equal(const cell& a, const cell& b) {
        if (a.is != b.is) return false;
        switch (a.is) {
            case cell::kind::undefined:
            case cell::kind::null: return true;
            case cell::kind::boolean: return a.b == b.b;
            case cell::kind::number: return a.d == b.d;
            case cell::kind::string: return a.s == b.s;
            case cell::kind::object: return a.v->identity() == b.v->identity();
        }
        return false;
    }

    static result to_result(const cell& c) {
        result r;
        r.defined = c.is != cell::kind::undefined;
        switch (c.is) {
            case cell::kind::undefined:
            case cell::kind::null: break;
            case cell::kind::boolean: r.value = dynamic_value(c.b); break;
            case cell::kind::number: r.value = dynamic_value(c.d); break;
            case cell::kind::string: r.value = dynamic_value(c.s); break;
            case cell::kind::object: r.value = *c.v; break;  // the same array or object
        }
        return r;
    }

    const expression& e_;
    const blackboard& board_;
    std::vector<cell>& stack_ = evaluation_stack;
};

}  // namespace

std::vector<std::string_view> expression::object_names() const {
    // Which item made each value on the evaluator's stack, when it is a name.
    constexpr auto made = static_cast<std::size_t>(-1);
    std::vector<std::size_t> stack;
    std::vector<std::string_view> names;
    auto pop = [&] {
        const std::size_t k = stack.empty() ? made : stack.back();
        if (!stack.empty()) stack.pop_back();
        return k;
    };
    for (std::size_t k = 0; k < postfix.size(); ++k) {
        const op kind = postfix[k].kind;
        if (is_operand(kind)) {
            stack.push_back(kind == op::word && !is_quoted(postfix[k].text) ? k : made);
            continue;
        }
        if (kind == op::parenthesis) continue;
        (void)pop();
        if (!is_unary(kind)) {
            const std::size_t object = pop();
            if ((kind == op::dot || kind == op::bracket) && object != made &&
                std::find(names.begin(), names.end(), postfix[object].text) == names.end())
                names.push_back(postfix[object].text);
        }
        if (kind == op::question) (void)pop();         // `c ? a : b` takes three
        if (kind == op::colon) stack.push_back(made);  // gives both back, for `?` to pick
        stack.push_back(made);
    }
    return names;
}

std::vector<std::string_view> expression::names() const {
    std::vector<std::pair<std::uint32_t, std::string_view>> found;
    for (std::size_t k = 0; k < postfix.size(); ++k) {
        const item& i = postfix[k];
        if (i.kind != op::word || is_quoted(i.text)) continue;
        // The word right before a `.` in the postfix is the field it reads.
        if (k + 1 < postfix.size() && postfix[k + 1].kind == op::dot) continue;
        found.emplace_back(i.offset, i.text);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string_view> names;
    for (const auto& [offset, name] : found) {
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    return names;
}

std::variant<expression, script_problem> parse(std::string_view text) {
    expression e;
    try {
        if (text.empty()) fail(0, "the expression is empty");
        if (text.size() > max_text_bytes) fail(max_text_bytes, "the expression is too long");
        e.postfix = to_postfix(tokenize(text));
        check(e.postfix);
    } catch (failure& f) {
        return std::move(f.problem);
    }
    return e;
}

namespace {

bool over_numbers(op kind) noexcept {
    switch (kind) {
        case op::question:
        case op::colon:
        case op::dot:
        case op::bracket:
        case op::parenthesis:
        case op::plus: return false;
        default: return true;
    }
}

// A value of the quick pass: a number, or a boolean as 1 or 0.
struct quick_cell {
    double d = 0;
    bool boolean = false;
};

// The quick pass: every name a number, so no operator can throw and no string or object is
// met. Anything else (an undefined variable, another kind of value) gives up, and the walk of
// evaluate() starts over: reading has no side effects.
//
// The stack is two arrays, numbers and flags, each value written and read at its own width:
// cells of both, copied whole, were read back with loads wider than the stores that wrote
// them, which stalls store forwarding (most of this pass's time, measured with perf).
bool evaluate_numbers(const expression& e, const blackboard& board, quick_cell& out) {
    double value[expression::quick_stack];
    bool boolean[expression::quick_stack];
    std::size_t top = 0;
    auto push = [&](double d, bool b) {
        value[top] = d;
        boolean[top] = b;
        ++top;
    };
    for (const item& i : e.postfix) {
        switch (i.kind) {
            case op::number: push(i.value, false); continue;
            case op::boolean: push(i.value, true); continue;
            case op::word: {
                if (!board.is_set(i.slot)) return false;
                double d = 0;
                if (i.json_key) {
                    const auto& v = board.get_ref<dynamic_value>(i.slot);
                    if (!v.is_number()) return false;
                    d = v.number();
                } else if (i.key_type == param_type::number) {
                    d = board.get<double>(i.slot);
                } else if (i.key_type == param_type::integer) {
                    d = static_cast<double>(board.get<std::int64_t>(i.slot));
                } else {
                    return false;
                }
                push(d, false);
                continue;
            }
            case op::negate:
                if (top == 0) return false;  // the dry run let none through
                value[top - 1] = -value[top - 1];
                boolean[top - 1] = false;
                continue;
            case op::logical_not:
                if (top == 0) return false;
                value[top - 1] = truthy_number(value[top - 1]) ? 0.0 : 1.0;
                boolean[top - 1] = true;
                continue;
            default: break;
        }
        if (top < 2) return false;
        --top;
        const double x = value[top - 1];
        const double y = value[top];
        double& result = value[top - 1];
        bool& is_boolean = boolean[top - 1];
        const bool same_kind = is_boolean == boolean[top];
        bool gives_boolean = false;
        switch (i.kind) {
            case op::greater:
                result = x > y ? 1.0 : 0.0;
                gives_boolean = true;
                break;
            case op::greater_equal:
                result = x >= y ? 1.0 : 0.0;
                gives_boolean = true;
                break;
            case op::less:
                result = x < y ? 1.0 : 0.0;
                gives_boolean = true;
                break;
            case op::less_equal:
                result = x <= y ? 1.0 : 0.0;
                gives_boolean = true;
                break;
            case op::equal:
                result = same_kind && x == y ? 1.0 : 0.0;
                gives_boolean = true;
                break;
            case op::not_equal:
                result = same_kind && x == y ? 0.0 : 1.0;
                gives_boolean = true;
                break;
            case op::add: result = x + y; break;
            case op::subtract: result = x - y; break;
            case op::multiply: result = x * y; break;
            case op::divide: result = x / y; break;
            case op::remainder: result = std::fmod(x, y); break;
            case op::bit_and:
            case op::bit_or:
            case op::shift_left:
            case op::shift_right:
            case op::shift_right_unsigned: result = bitwise(i.kind, x, y); break;
            case op::logical_and:  // the first operand if falsy, else the second
            case op::logical_or:   // the first operand if truthy, else the second
                if (truthy_number(x) == (i.kind == op::logical_and)) {
                    result = y;
                    gives_boolean = boolean[top];
                } else {
                    gives_boolean = is_boolean;
                }
                break;
            default: return false;
        }
        is_boolean = gives_boolean;
    }
    if (top != 1) return false;
    out.d = value[0];
    out.boolean = boolean[0];
    return true;
}

}  // namespace

void bind(expression& e, const script_scope& scope) {
    const std::vector<std::string_view> names = e.names();
    for (item& i : e.postfix) {
        if (i.kind != op::word || std::find(names.begin(), names.end(), i.text) == names.end())
            continue;
        if (const auto key = scope.find_key(i.text)) {
            i.slot = key->slot;
            i.bound = true;
            i.key_type = key->type;
            i.json_key = key->type == param_type::custom && key->custom != nullptr &&
                         key->custom->is<dynamic_value>();
        }
    }
    // A name alone gives its own text, not its variable's value: not for the quick pass.
    e.numbers_only =
        e.postfix.size() > 1 && e.postfix.size() <= expression::quick_stack &&
        std::all_of(e.postfix.begin(), e.postfix.end(), [](const item& i) {
            return i.kind == op::word ? i.bound && !is_quoted(i.text) : over_numbers(i.kind);
        });
}

bool gives_number(const expression& e, const std::function<bool(std::string_view)>& numeric) {
    // What each value on the evaluator's stack is, kind by kind.
    enum class kind : std::uint8_t { number, boolean, other };
    // A name alone gives its own text.
    if (e.postfix.size() == 1 && e.postfix.front().kind == op::word) return false;
    std::vector<kind> stack;
    auto pop = [&] {
        const kind k = stack.empty() ? kind::other : stack.back();
        if (!stack.empty()) stack.pop_back();
        return k;
    };
    for (const item& i : e.postfix) {
        switch (i.kind) {
            case op::number: stack.push_back(kind::number); break;
            case op::boolean: stack.push_back(kind::boolean); break;
            case op::word:
                stack.push_back(!is_quoted(i.text) && numeric(i.text) ? kind::number : kind::other);
                break;
            case op::plus: stack.push_back(pop()); break;  // the value itself, as there
            case op::negate:
                (void)pop();
                stack.push_back(kind::number);
                break;
            case op::logical_not:
                (void)pop();
                stack.push_back(kind::boolean);
                break;
            case op::greater:
            case op::greater_equal:
            case op::equal:
            case op::not_equal:
            case op::less:
            case op::less_equal:
                (void)pop();
                (void)pop();
                stack.push_back(kind::boolean);
                break;
            case op::subtract:
            case op::multiply:
            case op::divide:
            case op::remainder:
            case op::bit_and:
            case op::bit_or:
            case op::shift_left:
            case op::shift_right:
            case op::shift_right_unsigned:
                (void)pop();
                (void)pop();
                stack.push_back(kind::number);
                break;
            case op::add: {  // numbers and booleans add up; anything else may join text
                const kind b = pop();
                const kind a = pop();
                stack.push_back(a != kind::other && b != kind::other ? kind::number : kind::other);
                break;
            }
            case op::logical_and:
            case op::logical_or: {  // either operand
                const kind b = pop();
                const kind a = pop();
                stack.push_back(a == b ? a : kind::other);
                break;
            }
            default: return false;  // `?:`, `.`, `[]`: not followed here
        }
    }
    return stack.size() == 1 && stack.front() == kind::number;
}

std::optional<typed_text> typed_form(const expression& e) {
    // A name alone gives its own text, where the typed language would read the variable.
    if (e.postfix.size() == 1 && e.postfix.front().kind == op::word) return std::nullopt;
    enum class kind : std::uint8_t { number, integer, boolean };
    struct operand {
        std::string text;
        kind is;
        std::string whole;  // a whole literal's text as an integer, for a comparison
    };
    std::vector<operand> stack;
    typed_text made;
    // A name the script language reads as one (a word of behavior3's may hold more).
    auto identifier = [](std::string_view name) {
        return !name.empty() && !is_digit(name.front()) &&
               std::all_of(name.begin(), name.end(), is_word);
    };
    for (const item& i : e.postfix) {
        switch (i.kind) {
            case op::number: {
                const std::string text = number_text(i.value);
                if (text.find_first_not_of("0123456789.") != std::string::npos) return {};
                // In arithmetic a real, as JavaScript's numbers are; compared, a whole one
                // may stay an integer, which compares with an integer key without converting.
                const bool whole = text.find('.') == std::string::npos;
                stack.push_back({whole ? text + ".0" : text, kind::number,
                                 whole && text.size() < 16 ? text : std::string()});
                continue;
            }
            case op::boolean:
                stack.push_back({i.value != 0 ? "true" : "false", kind::boolean, {}});
                continue;
            case op::word:
                if (!i.bound || i.json_key || !identifier(i.text)) return {};
                if (i.key_type != param_type::number && i.key_type != param_type::integer)
                    return {};
                stack.push_back(
                    {i.text, i.key_type == param_type::number ? kind::number : kind::integer, {}});
                made.slots.push_back(i.slot);
                continue;
            case op::negate:
            case op::logical_not: {
                if (stack.empty()) return {};
                operand& a = stack.back();
                const bool negate = i.kind == op::negate;
                if (a.is != (negate ? kind::number : kind::boolean)) return {};
                a.text = std::string(negate ? "(-" : "(!") + a.text + ")";
                a.whole.clear();
                continue;
            }
            default: break;
        }
        if (stack.size() < 2) return {};
        const operand b = stack.back();
        stack.pop_back();
        operand& a = stack.back();
        const bool numbers = a.is != kind::boolean && b.is != kind::boolean;
        kind gives = kind::boolean;
        switch (i.kind) {
            case op::greater:
            case op::greater_equal:
            case op::less:
            case op::less_equal:
                if (!numbers) return {};
                break;
            case op::equal:
            case op::not_equal:
                if (!numbers && (a.is != kind::boolean || b.is != kind::boolean)) return {};
                break;
            case op::add:
            case op::subtract:
            case op::multiply:
            case op::divide:  // IEEE's, as JavaScript's: by zero an infinity or NaN
                if (a.is != kind::number || b.is != kind::number) return {};
                gives = kind::number;
                break;
            case op::logical_and:
            case op::logical_or:
                if (a.is != kind::boolean || b.is != kind::boolean) return {};
                break;
            default: return {};
        }
        const bool compared = gives == kind::boolean && numbers;
        const std::string& left = compared && !a.whole.empty() ? a.whole : a.text;
        const std::string& right = compared && !b.whole.empty() ? b.whole : b.text;
        std::string joined = "(";
        joined += left;
        joined += ' ';
        joined += i.text;
        joined += ' ';
        joined += right;
        joined += ')';
        a.text = std::move(joined);
        a.is = gives;
        a.whole.clear();
    }
    if (stack.size() != 1 || stack.front().is == kind::integer || made.slots.empty()) return {};
    made.text = std::move(stack.front().text);
    made.boolean = stack.front().is == kind::boolean;
    return made;
}

namespace {

// Whether the typed form may answer: it has one, and every key it reads holds a value (an
// undefined one makes behavior3-ts's evaluator throw, which the walk reports).
bool typed_answers(const expression& e, const blackboard& board) {
    if (e.typed == nullptr) return false;
    return std::all_of(e.typed_slots.begin(), e.typed_slots.end(),
                       [&](std::uint32_t slot) { return board.is_set(slot); });
}

// The answer of the typed form or the quick pass, when either gives one: what the expression
// gives, over numbers (a boolean as 1 or 0, and `boolean` set).
bool number_answer(const expression& e, const blackboard& board, quick_cell& out) {
    if (typed_answers(e, board)) {
        out.boolean = e.typed_boolean;
        out.d = e.typed_boolean ? (e.typed->test(board) ? 1.0 : 0.0) : e.typed->number(board);
        return true;
    }
    return e.numbers_only && evaluate_numbers(e, board, out);
}

}  // namespace

result evaluate(const expression& e, const blackboard& board) {
    quick_cell quick{};
    if (number_answer(e, board, quick))
        return {true, quick.boolean ? dynamic_value(quick.d != 0) : dynamic_value(quick.d)};
    evaluator run(e, board);
    return run.run();
}

bool test(const expression& e, blackboard board) {
    quick_cell quick{};
    if (number_answer(e, board, quick)) return truthy_number(quick.d);
    evaluator run(e, board);
    return truthy(run.run());
}

double number(const expression& e, blackboard board) {
    quick_cell quick{};
    if (number_answer(e, board, quick)) return quick.d;
    evaluator run(e, board);
    const result r = run.run();
    return r.defined ? r.value.to_number() : std::numeric_limits<double>::quiet_NaN();
}

bool truthy(const result& r) noexcept {
    return r.defined && r.value.truthy();
}

}  // namespace canopy::detail::behavior3_expression
