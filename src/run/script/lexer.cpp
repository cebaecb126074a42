// The script language's lexer: BehaviorTree.CPP 4's tokens (include/behaviortree_cpp/scripting/
// any_types.hpp there): names starting with a letter, `_` or `@`; decimal and hexadecimal
// integers; reals with a fraction or an exponent; strings in single or double quotes.

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>

#include "run/script/syntax.hpp"

namespace canopy::detail::script_syntax {

std::string_view spelling(token_kind kind) noexcept {
    switch (kind) {
        case token_kind::end: return "the end";
        case token_kind::name: return "a name";
        case token_kind::integer: return "an integer";
        case token_kind::real: return "a number";
        case token_kind::string: return "a string";
        case token_kind::kw_true: return "true";
        case token_kind::kw_false: return "false";
        case token_kind::open: return "(";
        case token_kind::close: return ")";
        case token_kind::semicolon: return ";";
        case token_kind::question: return "?";
        case token_kind::colon: return ":";
        case token_kind::plus: return "+";
        case token_kind::minus: return "-";
        case token_kind::times: return "*";
        case token_kind::divide: return "/";
        case token_kind::concat: return "..";
        case token_kind::bit_and: return "&";
        case token_kind::bit_or: return "|";
        case token_kind::bit_xor: return "^";
        case token_kind::complement: return "~";
        case token_kind::logical_not: return "!";
        case token_kind::logical_and: return "&&";
        case token_kind::logical_or: return "||";
        case token_kind::equal: return "==";
        case token_kind::not_equal: return "!=";
        case token_kind::less: return "<";
        case token_kind::greater: return ">";
        case token_kind::less_equal: return "<=";
        case token_kind::greater_equal: return ">=";
        case token_kind::assign_create: return ":=";
        case token_kind::assign: return "=";
        case token_kind::assign_plus: return "+=";
        case token_kind::assign_minus: return "-=";
        case token_kind::assign_times: return "*=";
        case token_kind::assign_divide: return "/=";
    }
    return "?";
}

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// Bytes of UTF-8 sequences are taken as letters: BehaviorTree.CPP takes Unicode identifiers.
bool is_name_start(char c) {
    return is_alpha(c) || c == '_' || c == '@' || static_cast<unsigned char>(c) >= 0x80;
}
bool is_name_char(char c) {
    return is_alpha(c) || is_digit(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool is_hex(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// BehaviorTree.CPP 4.10's: no vertical tab or form feed.
bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

script_problem problem(std::size_t offset, std::string message) {
    return {offset, std::move(message)};
}

std::string shown(char c) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        static const char digits[] = "0123456789abcdef";
        const auto byte = static_cast<unsigned char>(c);
        return std::string("byte 0x") + digits[byte >> 4] + digits[byte & 15];
    }
    return std::string("'") + c + "'";
}

}  // namespace

std::variant<std::vector<token>, script_problem> lex(std::string_view text) {
    if (text.size() > max_text_bytes) {
        return problem(max_text_bytes, "a script has at most " + std::to_string(max_text_bytes) +
                                           " bytes, this one " + std::to_string(text.size()));
    }
    std::vector<token> tokens;
    const std::size_t size = text.size();
    std::size_t at = 0;
    auto peek = [&](std::size_t ahead) { return at + ahead < size ? text[at + ahead] : '\0'; };
    while (true) {
        while (at < size) {
            if (is_space(text[at])) {
                ++at;
            } else {
                break;
            }
        }
        token t;
        t.offset = static_cast<std::uint32_t>(at);
        if (at == size) {
            tokens.push_back(t);
            return tokens;
        }
        const char c = text[at];
        std::size_t length = 1;
        if (is_name_start(c)) {
            while (at + length < size && is_name_char(text[at + length])) ++length;
            const std::string_view word = text.substr(at, length);
            t.kind = word == "true"    ? token_kind::kw_true
                     : word == "false" ? token_kind::kw_false
                                       : token_kind::name;
            if (c == '@' && length == 1) return problem(at, "'@' must begin a key's name");
        } else if (is_digit(c)) {
            const std::uint64_t limit = std::uint64_t{1} << 63;  // -2^63 is an integer too
            bool too_big = false;
            if (c == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
                length = 2;
                std::uint64_t value = 0;
                while (at + length < size && is_hex(text[at + length])) {
                    const char h = text[at + length];
                    const unsigned digit = is_digit(h) ? h - '0' : (h | 0x20) - 'a' + 10;
                    if (value > (limit - digit) / 16) too_big = true;
                    value = value * 16 + digit;
                    ++length;
                }
                if (length == 2) return problem(at + 2, "expected hexadecimal digits after 0x");
                t.kind = token_kind::integer;
                t.integer = value;
            } else {
                while (at + length < size && is_digit(text[at + length])) ++length;
                bool real = false;
                if (peek(length) == '.' && is_digit(peek(length + 1))) {
                    real = true;
                    ++length;
                    while (at + length < size && is_digit(text[at + length])) ++length;
                }
                if (peek(length) == 'e' || peek(length) == 'E') {
                    std::size_t digits = length + 1;
                    if (peek(digits) == '+' || peek(digits) == '-') ++digits;
                    if (is_digit(peek(digits))) {
                        real = true;
                        length = digits;
                        while (at + length < size && is_digit(text[at + length])) ++length;
                    }
                }
                const std::string_view number = text.substr(at, length);
                if (real) {
                    t.kind = token_kind::real;
                    // Locale-independent. Past double's range, BehaviorTree.CPP's std::stod
                    // throws: a problem here.
                    const auto read =
                        std::from_chars(number.data(), number.data() + length, t.real);
                    if (read.ec == std::errc::result_out_of_range) {
                        return problem(at, "number literal out of range");
                    }
                } else {
                    t.kind = token_kind::integer;
                    std::uint64_t value = 0;
                    for (char d : number) {
                        const auto digit = static_cast<unsigned>(d - '0');
                        if (value > (limit - digit) / 10) too_big = true;
                        value = value * 10 + digit;
                    }
                    t.integer = value;
                }
            }
            if (too_big) {
                return problem(at, "integer literal out of range (a 64-bit signed integer)");
            }
            const char next = peek(length);
            if (is_name_char(next) || next == '.') {
                return problem(at + length, "invalid suffix " + shown(next) + " on a number");
            }
        } else if (c == '\'' || c == '"') {
            const std::size_t close = text.find(c, at + 1);
            if (close == std::string_view::npos) {
                return problem(at, std::string("string not closed: expected ") + c);
            }
            length = close + 1 - at;
            t.kind = token_kind::string;
        } else {
            const char n = peek(1);
            auto two = [&](token_kind kind) {
                t.kind = kind;
                length = 2;
            };
            switch (c) {
                case '(': t.kind = token_kind::open; break;
                case ')': t.kind = token_kind::close; break;
                case ';': t.kind = token_kind::semicolon; break;
                case '?': t.kind = token_kind::question; break;
                case ':':
                    if (n == '=')
                        two(token_kind::assign_create);
                    else
                        t.kind = token_kind::colon;
                    break;
                case '+':
                    if (n == '=')
                        two(token_kind::assign_plus);
                    else
                        t.kind = token_kind::plus;
                    break;
                case '-':
                    if (n == '=')
                        two(token_kind::assign_minus);
                    else
                        t.kind = token_kind::minus;
                    break;
                case '*':
                    if (n == '=')
                        two(token_kind::assign_times);
                    else
                        t.kind = token_kind::times;
                    break;
                case '/':
                    if (n == '=')
                        two(token_kind::assign_divide);
                    else
                        t.kind = token_kind::divide;
                    break;
                case '.':
                    if (n != '.') return problem(at, "unexpected '.' (concatenation is '..')");
                    two(token_kind::concat);
                    break;
                case '&':
                    if (n == '&')
                        two(token_kind::logical_and);
                    else
                        t.kind = token_kind::bit_and;
                    break;
                case '|':
                    if (n == '|')
                        two(token_kind::logical_or);
                    else
                        t.kind = token_kind::bit_or;
                    break;
                case '^': t.kind = token_kind::bit_xor; break;
                case '~': t.kind = token_kind::complement; break;
                case '!':
                    if (n == '=')
                        two(token_kind::not_equal);
                    else
                        t.kind = token_kind::logical_not;
                    break;
                case '=':
                    if (n == '=')
                        two(token_kind::equal);
                    else
                        t.kind = token_kind::assign;
                    break;
                case '<':
                    if (n == '=')
                        two(token_kind::less_equal);
                    else
                        t.kind = token_kind::less;
                    break;
                case '>':
                    if (n == '=')
                        two(token_kind::greater_equal);
                    else
                        t.kind = token_kind::greater;
                    break;
                case '\\':
                    if (n == '\n' || n == '\r') {
                        return problem(at,
                                       "a backslash before a line break: BehaviorTree.CPP "
                                       "4.10's scripts have no line continuation (versions "
                                       "before 4.10 took one), and it refuses the script; "
                                       "remove the backslash, as a line break alone "
                                       "separates tokens");
                    }
                    return problem(at, "unexpected character " + shown(c));
                default: return problem(at, "unexpected character " + shown(c));
            }
        }
        t.length = static_cast<std::uint32_t>(length);
        tokens.push_back(t);
        at += length;
    }
}

std::optional<script_problem> btcpp_refused_token(std::string_view text) {
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '\'') {  // a string: anything goes up to its close
            const std::size_t close = text.find('\'', at + 1);
            if (close == std::string_view::npos) return std::nullopt;  // lex() says it
            at = close;
        } else if (c == '"') {
            return problem(at,
                           "a string in double quotes: BehaviorTree.CPP takes single quotes "
                           "only ('text'), and refuses the script");
        } else if (static_cast<unsigned char>(c) >= 0x80) {
            return problem(at,
                           "a name with a letter outside ASCII: BehaviorTree.CPP 4.10's "
                           "names are ASCII letters, digits and '_', and it refuses the "
                           "script");
        }
    }
    return std::nullopt;
}

}  // namespace canopy::detail::script_syntax
