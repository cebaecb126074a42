// The script language's parser: BehaviorTree.CPP 4's grammar and precedence (its
// include/behaviortree_cpp/scripting/operators.hpp, namespace Grammar), by recursive descent
// with an explicit depth counter, so that no text overflows the stack. Operators of one
// precedence level make one n-ary node, so a long `1+1+...+1` is a loop, not a deep tree.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "run/script/syntax.hpp"

namespace canopy {

namespace {

using namespace detail::script_syntax;

// The two families of operands BehaviorTree.CPP's comparison takes (dsl::groups): arithmetic
// and concatenation, or bitwise; mixing them needs parentheses.

struct parse_failure {
    script_problem problem;
};

// What both dialects' parsers share: the tokens and where the reading stands, the nesting
// bound, and the syntax they fill, one node at a time.
class token_reader {
protected:
    // `end` names the end of the text in messages: "the end of the script".
    token_reader(std::string_view text, std::vector<token> tokens, parsed_script::syntax& out,
                 std::string_view end)
        : text_(text), tokens_(std::move(tokens)), out_(out), end_(end) {}

    const token& peek() const { return tokens_[at_]; }
    const token& next() { return tokens_[at_++]; }

    [[noreturn]] static void fail(std::size_t offset, std::string message) {
        throw parse_failure{{offset, std::move(message)}};
    }

    std::string found() const {
        const token& t = peek();
        if (t.kind == token_kind::end) return std::string(end_);
        return "'" + std::string(text_.substr(t.offset, t.length)) + "'";
    }

    // Nesting: parentheses, unary operators and the ternary's middle.
    struct nesting {
        explicit nesting(token_reader& r, std::size_t offset) : r_(r) {
            if (++r_.depth_ > parsed_script::max_depth) {
                fail(offset, "nested more than " + std::to_string(parsed_script::max_depth) +
                                 " levels deep");
            }
        }
        ~nesting() { --r_.depth_; }
        nesting(const nesting&) = delete;
        nesting& operator=(const nesting&) = delete;
        token_reader& r_;
    };

    std::uint32_t add(node n) {
        out_.nodes.push_back(std::move(n));
        return static_cast<std::uint32_t>(out_.nodes.size() - 1);
    }

    // Operands of one level, left to right, in one node.
    template <typename Operand, typename IsOp>
    std::uint32_t parse_level(node_kind kind, std::uint32_t first, Operand operand, IsOp is_op) {
        if (!is_op(peek().kind)) return first;
        node n;
        n.kind = kind;
        n.offset = out_.nodes[first].offset;
        n.kids.push_back(first);
        while (is_op(peek().kind)) {
            const token op = next();
            n.ops.push_back(op.kind);
            n.op_offsets.push_back(op.offset);
            n.kids.push_back(operand());
        }
        return add(std::move(n));
    }

    std::string_view text_;
    std::vector<token> tokens_;
    parsed_script::syntax& out_;
    std::size_t at_ = 0;

private:
    std::string_view end_;
    std::size_t depth_ = 0;
};

class parser : token_reader {
public:
    parser(std::string_view text, std::vector<token> tokens, parsed_script::syntax& out)
        : token_reader(text, std::move(tokens), out, "the end of the script") {}

    void parse_script() {
        if (peek().kind == token_kind::end) fail(0, "the script is empty");
        while (true) {
            out_.statements.push_back(parse_expression());
            const node& statement = out_.nodes[out_.statements.back()];
            if (statement.kind == node_kind::assign)
                out_.assignments[statement.assignment].statement = true;
            // As BehaviorTree.CPP 4.10's parser: any number of ';' after a statement, none
            // needed before the next.
            while (peek().kind == token_kind::semicolon) next();
            if (peek().kind == token_kind::end) break;
        }
    }

private:
    static bool is_assignment(token_kind k) {
        return k == token_kind::assign_create || k == token_kind::assign ||
               k == token_kind::assign_plus || k == token_kind::assign_minus ||
               k == token_kind::assign_times || k == token_kind::assign_divide;
    }
    static bool is_comparison(token_kind k) {
        return k == token_kind::equal || k == token_kind::not_equal || k == token_kind::less ||
               k == token_kind::greater || k == token_kind::less_equal ||
               k == token_kind::greater_equal;
    }
    // expression := ternary [assign-op ternary]   (an assignment does not chain)
    std::uint32_t parse_expression() {
        const std::size_t start = peek().offset;
        const std::uint32_t target = parse_ternary();
        if (!is_assignment(peek().kind)) return target;
        const token op = next();
        if (out_.nodes[target].kind != node_kind::name) {
            fail(start, "the left of '" + std::string(spelling(op.kind)) +
                            "' must be a blackboard key's name");
        }
        const std::uint32_t value = parse_ternary();
        if (is_assignment(peek().kind)) {
            fail(peek().offset, "assignments do not chain: put the inner one in parentheses");
        }
        node n;
        n.kind = node_kind::assign;
        n.op = op.kind;
        n.offset = out_.nodes[target].offset;
        n.kids = {target, value};
        n.assignment = static_cast<std::uint32_t>(out_.assignments.size());
        script_assignment a;
        a.name = out_.nodes[target].text;
        a.creates = op.kind == token_kind::assign_create;
        a.offset = n.offset;
        a.index = out_.assignments.size();
        out_.assignments.push_back(std::move(a));
        const std::uint32_t id = add(std::move(n));
        out_.assignment_nodes.push_back(id);
        return id;
    }

    // ternary := or ['?' expression ':' ternary]   (`a ? b : c ? d : e` nests to the right)
    std::uint32_t parse_ternary() {
        const std::uint32_t condition = parse_or();
        if (peek().kind != token_kind::question) return condition;
        nesting level(*this, next().offset);
        const std::uint32_t then = parse_expression();
        if (peek().kind != token_kind::colon) {
            fail(peek().offset, "expected ':' of '?:', found " + found());
        }
        next();
        const std::uint32_t otherwise = parse_ternary();
        node n;
        n.kind = node_kind::ternary;
        n.offset = out_.nodes[condition].offset;
        n.kids = {condition, then, otherwise};
        return add(std::move(n));
    }

    // BehaviorTree.CPP 4.10's levels, loosest first, each grouping left to right:
    // or := and ('||' and)*
    std::uint32_t parse_or() {
        return parse_level(
            node_kind::chain, parse_and(), [this] { return parse_and(); },
            [](token_kind k) { return k == token_kind::logical_or; });
    }
    // and := comparison ('&&' comparison)*
    std::uint32_t parse_and() {
        return parse_level(
            node_kind::chain, parse_comparison(), [this] { return parse_comparison(); },
            [](token_kind k) { return k == token_kind::logical_and; });
    }
    // comparison := bit-or (comparison-op bit-or)*   (chained: a < b < c)
    std::uint32_t parse_comparison() {
        return parse_level(
            node_kind::compare, parse_bit_or(), [this] { return parse_bit_or(); }, is_comparison);
    }
    // bit-or := bit-and (('|' | '^') bit-and)*
    std::uint32_t parse_bit_or() {
        return parse_level(
            node_kind::chain, parse_bit_and(), [this] { return parse_bit_and(); },
            [](token_kind k) { return k == token_kind::bit_or || k == token_kind::bit_xor; });
    }
    // bit-and := sum ('&' sum)*
    std::uint32_t parse_bit_and() {
        return parse_level(
            node_kind::chain, parse_sum(), [this] { return parse_sum(); },
            [](token_kind k) { return k == token_kind::bit_and; });
    }
    // sum := product (('+' | '-' | '..') product)*   (concatenation is a sum's peer)
    std::uint32_t parse_sum() {
        return parse_level(
            node_kind::chain, parse_product(), [this] { return parse_product(); },
            [](token_kind k) {
                return k == token_kind::plus || k == token_kind::minus || k == token_kind::concat;
            });
    }
    // product := unary (('*' | '/') unary)*
    std::uint32_t parse_product() {
        return parse_level(
            node_kind::chain, parse_unary(), [this] { return parse_unary(); },
            [](token_kind k) { return k == token_kind::times || k == token_kind::divide; });
    }

    // unary := ('-' | '~' | '!') unary | '+' number | atom
    std::uint32_t parse_unary() {
        const token& t = peek();
        if (t.kind == token_kind::minus || t.kind == token_kind::complement ||
            t.kind == token_kind::logical_not) {
            nesting level(*this, t.offset);
            const token op = next();
            const token& operand = peek();
            if (op.kind == token_kind::minus && operand.offset == op.offset + 1 &&
                (operand.kind == token_kind::integer || operand.kind == token_kind::real)) {
                return number(next(), true, op.offset);  // a negative literal: -2^63 fits
            }
            node n;
            n.kind = node_kind::unary;
            n.op = op.kind;
            n.offset = op.offset;
            n.kids.push_back(parse_unary());
            return add(std::move(n));
        }
        if (t.kind == token_kind::plus) {
            const token op = next();
            if (peek().kind == token_kind::integer || peek().kind == token_kind::real) {
                return number(next(), false, op.offset);
            }
            fail(op.offset, "expected an operand, found '+'");
        }
        return parse_atom();
    }

    std::uint32_t number(const token& t, bool negative, std::size_t offset) {
        node n;
        n.offset = static_cast<std::uint32_t>(offset);
        if (t.kind == token_kind::real) {
            n.kind = node_kind::real;
            n.real = negative ? -t.real : t.real;
        } else {
            n.kind = node_kind::integer;
            const std::uint64_t max = std::uint64_t{1} << 63;
            if (t.integer == max && !negative) {
                fail(t.offset, "integer literal out of range (a 64-bit signed integer)");
            }
            // Two's complement: negating 2^63 gives -2^63.
            n.value = static_cast<std::int64_t>(negative ? ~t.integer + 1 : t.integer);
        }
        return add(std::move(n));
    }

    // atom := number | string | true | false | name | '(' expression ')'
    std::uint32_t parse_atom() {
        const token& t = peek();
        node n;
        n.offset = t.offset;
        switch (t.kind) {
            case token_kind::integer:
            case token_kind::real: return number(next(), false, t.offset);
            case token_kind::string:
                n.kind = node_kind::string;
                n.text = std::string(text_.substr(t.offset + 1, t.length - 2));
                next();
                return add(std::move(n));
            case token_kind::kw_true:
            case token_kind::kw_false:
                n.kind = node_kind::boolean;
                n.value = t.kind == token_kind::kw_true ? 1 : 0;
                next();
                return add(std::move(n));
            case token_kind::name:
                n.kind = node_kind::name;
                n.text = std::string(text_.substr(t.offset, t.length));
                next();
                return add(std::move(n));
            case token_kind::open: {
                nesting level(*this, next().offset);
                const std::uint32_t inner = parse_expression();
                if (peek().kind != token_kind::close) {
                    fail(peek().offset, "expected ')', found " + found());
                }
                next();
                return inner;
            }
            default: fail(t.offset, "expected an operand, found " + found());
        }
    }
};

}  // namespace

std::variant<parsed_script, script_problem> parsed_script::parse(std::string_view text,
                                                                 script_dialect dialect) {
    if (dialect == script_dialect::behavior3) {
        auto parsed = detail::behavior3_expression::parse(text);
        if (auto* problem = std::get_if<script_problem>(&parsed)) return std::move(*problem);
        auto tree = std::make_unique<syntax>();
        tree->text = std::string(text);
        tree->dialect = dialect;
        tree->behavior3 = std::move(std::get<0>(parsed));
        return parsed_script(std::move(tree));
    }
    auto lexed = detail::script_syntax::lex(text);
    if (auto* problem = std::get_if<script_problem>(&lexed)) return std::move(*problem);
    auto tree = std::make_unique<syntax>();
    tree->text = std::string(text);
    tree->dialect = dialect;
    try {
        parser p(text, std::move(std::get<0>(lexed)), *tree);
        p.parse_script();
    } catch (parse_failure& failure) {
        return std::move(failure.problem);
    }
    return parsed_script(std::move(tree));
}

parsed_script::parsed_script(std::unique_ptr<syntax> tree) : syntax_(std::move(tree)) {}
parsed_script::parsed_script(parsed_script&&) noexcept = default;
parsed_script& parsed_script::operator=(parsed_script&&) noexcept = default;
parsed_script::~parsed_script() = default;

const std::vector<script_assignment>& parsed_script::assignments() const noexcept {
    return syntax_->assignments;
}

std::vector<std::string_view> parsed_script::object_names() const {
    // BehaviorTree.CPP's scripts read no fields or elements.
    if (syntax_->dialect != script_dialect::behavior3) return {};
    return syntax_->behavior3.object_names();
}

std::vector<std::string_view> parsed_script::names() const {
    if (syntax_->dialect == script_dialect::behavior3) return syntax_->behavior3.names();
    std::vector<std::pair<std::uint32_t, std::string_view>> found;  // offset, name
    for (const node& n : syntax_->nodes) {
        if (n.kind == node_kind::name) found.emplace_back(n.offset, n.text);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string_view> names;
    for (const auto& [offset, name] : found) {
        // A name's text is its spelling in the script, so the view can point there.
        const std::string_view in_text =
            std::string_view(syntax_->text).substr(offset, name.size());
        if (std::find(names.begin(), names.end(), in_text) == names.end()) names.push_back(in_text);
    }
    return names;
}

bool parsed_script::value_reads(std::size_t index, std::string_view name) const {
    if (index >= syntax_->assignment_nodes.size()) return false;
    const node& assignment = syntax_->nodes[syntax_->assignment_nodes[index]];
    if (assignment.kids.size() < 2) return false;
    std::vector<std::uint32_t> pending{assignment.kids[1]};
    while (!pending.empty()) {
        const node& n = syntax_->nodes[pending.back()];
        pending.pop_back();
        if (n.kind == node_kind::name && n.text == name) return true;
        pending.insert(pending.end(), n.kids.begin(), n.kids.end());
    }
    return false;
}

const std::string& parsed_script::text() const noexcept {
    return syntax_->text;
}

}  // namespace canopy
