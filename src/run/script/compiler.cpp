// Binds a parsed script's names to blackboard slots and enums, checks its types, and emits
// typed instructions (program.hpp). Types are those of Canopy's keys; the rules are
// BehaviorTree.CPP 4's (its scripting/operators.hpp), with what it could only find at run
// time reported here, located, when the types alone tell (docs/scripting.md).

#include <utility>
#include <vector>

#include "run/script/dynamic.hpp"
#include "run/script/program.hpp"
#include "run/script/syntax.hpp"

namespace canopy {

namespace {

using namespace detail::script_syntax;
using namespace detail::script_code;

struct compile_failure {
    script_problem problem;
};
// A name the scope does not know, while asking a value's type.
struct unknown_name {};

bool integral(param_type t) {
    return t == param_type::integer || t == param_type::boolean;
}

std::string type_name(param_type t) {
    switch (t) {
        case param_type::integer: return "an integer";
        case param_type::number: return "a number";
        case param_type::boolean: return "a boolean";
        case param_type::custom: return "a value of a program's type";
        default: return "a string";
    }
}

comparison comparison_of(token_kind k) {
    switch (k) {
        case token_kind::equal: return comparison::equal;
        case token_kind::not_equal: return comparison::not_equal;
        case token_kind::less: return comparison::less;
        case token_kind::greater: return comparison::greater;
        case token_kind::less_equal: return comparison::less_equal;
        default: return comparison::greater_equal;
    }
}

// `c OP key` as `key OP' c`.
comparison flipped(comparison c) {
    switch (c) {
        case comparison::less: return comparison::greater;
        case comparison::greater: return comparison::less;
        case comparison::less_equal: return comparison::greater_equal;
        case comparison::greater_equal: return comparison::less_equal;
        default: return c;
    }
}

class compiler {
public:
    compiler(const parsed_script::syntax& tree, const script_scope& scope, program* out)
        : tree_(tree), scope_(scope), out_(out) {}

    /// Compiles every statement. With `deferred`, a statement with a problem compiles into a
    /// failure that says it, reported in `deferred`, and the statements after it, which can
    /// never run, into nothing.
    void compile_all(std::vector<script_problem>* deferred) {
        program_ = out_;  // never null here: only value_type() compiles without a program
        program_->checked_truth = bt();
        const std::size_t count = tree_.statements.size();
        for (std::size_t s = 0; s < count; ++s) {
            statement_ = tree_.statements[s];
            const std::size_t code_before = program_->code.size();
            const std::size_t strings_before = program_->strings.size();
            const std::size_t objects_before = program_->objects.size();
            const long depth_before = depth_;
            param_type t = param_type::boolean;
            try {
                t = expr(statement_);
            } catch (compile_failure& failure) {
                if (deferred == nullptr) throw;
                out_ = program_;  // infer() may have left it on a scratch program
                program_->code.resize(code_before);
                program_->strings.resize(strings_before);
                program_->objects.resize(objects_before);
                depth_ = depth_before;
                program_->strings.push_back(failure.problem.message);
                emit(opcode::fail, 1, static_cast<std::uint32_t>(program_->strings.size() - 1));
                program_->result = param_type::boolean;
                deferred->push_back(std::move(failure.problem));
                return;
            }
            if (s + 1 < count) {
                emit(opcode::pop, -1);
            } else {
                program_->result = t;
            }
        }
    }

    // The type of a node's value, emitting nothing when there is no program.
    param_type expr(std::uint32_t id) {
        // A node's type depends on its subtree alone: asking again costs nothing, so that
        // asking each operand's type before emitting it keeps compiling linear.
        if (types_.empty()) types_.assign(tree_.nodes.size(), -1);
        if (out_ == nullptr && types_[id] >= 0) return static_cast<param_type>(types_[id]);
        const param_type t = compute(id);
        types_[id] = static_cast<std::int8_t>(t);
        return t;
    }

private:
    param_type compute(std::uint32_t id) {
        const node& n = tree_.nodes[id];
        switch (n.kind) {
            case node_kind::integer:
                if (bt() && negated_literal(n)) {  // BehaviorTree.CPP negates a real
                    instruction i{opcode::push_num};
                    i.imm.d = static_cast<double>(n.value);
                    emit(i, 1);
                    return param_type::number;
                }
                push_int(n.value);
                return param_type::integer;
            case node_kind::boolean: push_int(n.value); return param_type::boolean;
            case node_kind::real: {
                instruction i{opcode::push_num};
                i.imm.d = n.real;
                emit(i, 1);
                return param_type::number;
            }
            case node_kind::string: push_string(n.text); return param_type::string;
            case node_kind::name: return name(n);
            case node_kind::unary: return unary(n);
            case node_kind::chain: return chain(n);
            case node_kind::compare: return compare(n);
            case node_kind::ternary: return ternary(n);
            case node_kind::assign: return assign(n);
        }
        return param_type::integer;
    }

    // BehaviorTree.CPP's values (script_scope::btcpp_values).
    bool bt() const { return scope_.btcpp_values(); }
    // An integer literal written with its '-', which BehaviorTree.CPP reads as `-` of it.
    bool negated_literal(const node& n) const {
        return n.offset < tree_.text.size() && tree_.text[n.offset] == '-';
    }

    // The value on top, of type `t` (not a string), as a number.
    void to_number(param_type t) {
        if (integral(t)) emit(opcode::int_to_num, 0);
    }

    [[noreturn]] void fail(std::size_t offset, std::string message) const {
        if (out_ == nullptr) throw unknown_name{};  // value_type: any problem is "unknown"
        throw compile_failure{{offset, std::move(message)}};
    }

    void emit(instruction i, int stack_change) {
        if (out_ == nullptr) return;
        out_->code.push_back(i);
        depth_ += stack_change;
        if (depth_ > static_cast<long>(out_->max_stack)) out_->max_stack = depth_;
    }
    void emit(opcode op, int stack_change, std::uint32_t a = 0) {
        instruction i{op};
        i.a = a;
        emit(i, stack_change);
    }
    void push_int(std::int64_t value) {
        instruction i{opcode::push_int};
        i.imm.i = value;
        emit(i, 1);
    }
    void push_string(const std::string& text) {
        if (out_ == nullptr) return;
        out_->strings.push_back(text);
        emit(opcode::push_str, 1, static_cast<std::uint32_t>(out_->strings.size() - 1));
    }
    void temporary() {
        if (out_ != nullptr) ++out_->temporaries;
    }
    std::size_t here() const { return out_ == nullptr ? 0 : out_->code.size(); }
    void patch(std::size_t at) {
        if (out_ != nullptr) out_->code[at].a = static_cast<std::uint32_t>(out_->code.size());
    }

    // A name: an enum first, as BehaviorTree.CPP looks it up first, then a key.
    param_type name(const node& n) {
        if (const auto value = scope_.find_enum(n.text)) {
            if (bt()) {
                instruction i{opcode::push_num};
                i.imm.d = static_cast<double>(*value);
                emit(i, 1);
                return param_type::number;
            }
            push_int(*value);
            return param_type::integer;
        }
        const auto key = find_key(n);
        require_value(key, n.text);
        switch (key.type) {
            case param_type::integer: emit(opcode::load_int, 1, key.slot); break;
            case param_type::boolean: emit(opcode::load_bool, 1, key.slot); break;
            case param_type::number: emit(opcode::load_num, 1, key.slot); break;
            default: emit(opcode::load_str, 1, key.slot);
        }
        return key.type;
    }

    // Before a read of a key that may hold no value yet (blackboard_key::starts_unset): a
    // check that fails the run if it holds none, as BehaviorTree.CPP fails on a missing entry.
    void require_value(const script_scope::key& key, const std::string& written) {
        if (!key.may_be_unset || out_ == nullptr) return;
        out_->strings.push_back(written);
        instruction i{opcode::require_value};
        i.a = key.slot;
        i.b = static_cast<std::uint32_t>(out_->strings.size() - 1);
        emit(i, 0);
    }

    script_scope::key find_key(const node& n) const {
        const auto key = scope_.find_key(n.text);
        if (!key) {
            if (out_ == nullptr) throw unknown_name{};
            fail(n.offset, "unknown name '" + n.text + "': no blackboard key or enum has it");
        }
        if (key->type == param_type::custom) {
            fail(n.offset, "key '" + n.text + "' holds a " +
                               (key->custom != nullptr ? key->custom->name : "program's type") +
                               ": a script may only assign it, from a key of its type or from "
                               "text, as a statement of its own");
        }
        if (key->type != param_type::integer && key->type != param_type::number &&
            key->type != param_type::boolean && key->type != param_type::string) {
            fail(n.offset, "key '" + n.text + "' has no value type a script can use");
        }
        return *key;
    }

    // The constant a literal node (or an enum name) stands for, if it is one.
    struct constant {
        param_type type;
        std::int64_t i = 0;
        double d = 0;
        const std::string* s = nullptr;
    };
    std::optional<constant> constant_of(std::uint32_t id) const {
        const node& n = tree_.nodes[id];
        switch (n.kind) {
            case node_kind::integer: return constant{param_type::integer, n.value};
            case node_kind::boolean: return constant{param_type::boolean, n.value};
            case node_kind::real: return constant{param_type::number, 0, n.real};
            case node_kind::string: return constant{param_type::string, 0, 0, &n.text};
            case node_kind::name:
                if (const auto value = scope_.find_enum(n.text)) {
                    return constant{param_type::integer, *value};
                }
                return std::nullopt;
            default: return std::nullopt;
        }
    }

    // A string constant as a number (comparisons), at load: BehaviorTree.CPP's StringToDouble
    // also reads enum names.
    double string_as_number(const std::string& text, std::size_t offset) const {
        if (const auto value = scope_.find_enum(text)) return static_cast<double>(*value);
        if (const auto value = text_to_number(text)) return *value;
        fail(offset, "'" + text + "' is not a number");
    }

    // Converts the value on top of the stack, of type `from`, for a key of type `to`;
    // `id` is the value's node: a constant is converted here, its failure located.
    void convert_for_key(std::uint32_t id, param_type from, param_type to, const std::string& key) {
        if (from == to) return;
        const node& n = tree_.nodes[id];
        const auto c = constant_of(id);
        if (to == param_type::string) {
            fail(n.offset, "key '" + key + "' holds a string, and this is " + type_name(from) +
                               " (make text with '..')");
        }
        if (c && out_ != nullptr) {
            // Replace the constant's push by its converted value.
            out_->code.pop_back();
            --depth_;
            converted_constant(*c, to, n.offset, key);
            return;
        }
        switch (to) {
            case param_type::integer:
                if (from == param_type::number) emit(opcode::num_to_int, 0);
                if (from == param_type::string) emit(opcode::str_to_int, 0);
                break;
            case param_type::number:
                if (integral(from)) emit(opcode::int_to_num, 0);
                if (from == param_type::string) emit(opcode::str_to_num, 0);
                break;
            default:  // boolean
                if (from == param_type::integer) emit(opcode::int_to_bool, 0);
                if (from == param_type::number) emit(opcode::num_to_bool, 0);
                if (from == param_type::string) emit(opcode::str_to_bool, 0);
        }
    }

    void converted_constant(const constant& c, param_type to, std::size_t offset,
                            const std::string& key) {
        const std::string where = " for key '" + key + "', " + type_name(to);
        switch (to) {
            case param_type::integer: {
                std::optional<std::int64_t> value;
                if (integral(c.type)) value = c.i;
                if (c.type == param_type::number) value = exact_integer(c.d);
                if (c.type == param_type::string) value = text_to_integer(*c.s);
                if (!value) fail(offset, "this value is not an integer" + where);
                push_int(*value);
                return;
            }
            case param_type::number: {
                double value = c.d;
                if (integral(c.type)) value = static_cast<double>(c.i);
                if (c.type == param_type::string) {
                    const auto enum_value = scope_.find_enum(*c.s);
                    const auto number =
                        enum_value ? std::optional<double>(*enum_value) : text_to_number(*c.s);
                    if (!number) fail(offset, "'" + *c.s + "' is not a number" + where);
                    value = *number;
                }
                instruction i{opcode::push_num};
                i.imm.d = value;
                emit(i, 1);
                return;
            }
            default: {
                std::optional<bool> value;
                if (integral(c.type) && (c.i == 0 || c.i == 1)) value = c.i == 1;
                if (c.type == param_type::number && (c.d == 0 || c.d == 1)) value = c.d == 1;
                if (c.type == param_type::string) value = text_to_boolean(*c.s);
                if (!value) fail(offset, "this value is not true, false, 0 or 1" + where);
                push_int(*value ? 1 : 0);
            }
        }
    }

    // Truthiness of the value on top, as a boolean.
    void truth(param_type t) {
        switch (t) {
            case param_type::integer: emit(opcode::truth_int, 0); break;
            case param_type::number: emit(opcode::truth_num, 0); break;
            case param_type::string: emit(opcode::truth_str, 0); break;
            default: break;
        }
    }

    // An operand of `&&` or `||` as a boolean; in a BehaviorTree.CPP file, as its cast to bool
    // takes it (an integer 0 or 1, a number not negative), else the run fails.
    void logic_operand(param_type t) {
        if (bt() && t == param_type::integer) {
            emit(opcode::truth_int_checked, 0);
        } else if (bt() && t == param_type::number) {
            emit(opcode::truth_num_checked, 0);
        } else {
            truth(t);
        }
    }

    param_type unary(const node& n) {
        const param_type t = expr(n.kids[0]);
        const std::string op(spelling(n.op));
        if (t == param_type::string) {
            fail(n.offset, "'" + op + "' does not apply to a string");
        }
        switch (n.op) {
            case token_kind::minus:
                if (bt()) to_number(t);
                if (t == param_type::number || bt()) {
                    emit(opcode::neg_num, 0);
                    return param_type::number;
                }
                emit(opcode::neg_int, 0);
                return param_type::integer;
            case token_kind::complement:
                if (t == param_type::number) emit(opcode::trunc_to_int, 0);
                emit(opcode::complement, 0);
                if (bt()) {
                    emit(opcode::int_to_num, 0);
                    return param_type::number;
                }
                return param_type::integer;
            default:  // '!'
                truth(t);
                emit(opcode::logical_not, 0);
                return param_type::boolean;
        }
    }

    // An operand of a bitwise operator as an integer: a real constant must be whole.
    void to_integer_operand(std::uint32_t id, param_type t, token_kind op) {
        if (t != param_type::number) return;
        if (const auto c = constant_of(id)) {
            if (!exact_integer(c->d)) {
                fail(tree_.nodes[id].offset, "'" + std::string(spelling(op)) +
                                                 "' needs integers, and this number is not one");
            }
            if (out_ != nullptr) {
                out_->code.back().op = opcode::push_int;
                out_->code.back().imm.i = *exact_integer(c->d);
            }
            return;
        }
        emit(opcode::num_to_int, 0);
    }

    // An operand of `..` as text.
    void to_text(param_type t) {
        if (t == param_type::string) return;
        temporary();
        if (t == param_type::integer) emit(opcode::int_to_str, 0);
        if (t == param_type::number) emit(opcode::num_to_str, 0);
        if (t == param_type::boolean && bt()) {
            emit(opcode::int_to_num, 0);
            emit(opcode::num_to_str, 0);
        } else if (t == param_type::boolean) {
            emit(opcode::bool_to_str, 0);
        }
    }

    // One level of left-associative operators: the first operand, then op and operand.
    param_type chain(const node& n) {
        param_type left = expr(n.kids[0]);
        for (std::size_t k = 0; k < n.ops.size(); ++k) {
            const token_kind op = n.ops[k];
            const std::size_t at = n.op_offsets[k];
            const std::uint32_t right_id = n.kids[k + 1];
            const std::string name(spelling(op));
            if (op == token_kind::concat) {
                to_text(left);
                const param_type right = expr(right_id);
                if (left != param_type::string && right != param_type::string) {
                    fail(at, "'..' needs a string on one side, and has " + type_name(left) +
                                 " and " + type_name(right));
                }
                to_text(right);
                temporary();
                emit(opcode::concat, -1);
                left = param_type::string;
                continue;
            }
            if (op == token_kind::bit_and || op == token_kind::bit_or ||
                op == token_kind::bit_xor) {
                if (left == param_type::string) {
                    fail(at, "'" + name + "' needs integers, not a string");
                }
                // The previous operator's result is a real under BehaviorTree.CPP's rules: back
                // to an integer, or its bits would be read as one.
                if (k == 0) {
                    to_integer_operand(n.kids[0], left, op);
                } else if (left == param_type::number) {
                    emit(opcode::num_to_int, 0);
                }
                const param_type right = expr(right_id);
                if (right == param_type::string) {
                    fail(at, "'" + name + "' needs integers, not a string");
                }
                to_integer_operand(right_id, right, op);
                emit(op == token_kind::bit_and  ? opcode::bit_and
                     : op == token_kind::bit_or ? opcode::bit_or
                                                : opcode::bit_xor,
                     -1);
                left = param_type::integer;
                if (bt()) {
                    emit(opcode::int_to_num, 0);
                    left = param_type::number;
                }
                continue;
            }
            if (op == token_kind::logical_and || op == token_kind::logical_or) {
                if (left == param_type::string) {
                    fail(at, "'" + name + "' needs numbers or booleans, not a string");
                }
                logic_operand(left);
                const param_type right = expr(right_id);
                if (right == param_type::string) {
                    fail(at, "'" + name + "' needs numbers or booleans, not a string");
                }
                logic_operand(right);
                emit(op == token_kind::logical_and ? opcode::logical_and : opcode::logical_or, -1);
                left = param_type::boolean;
                continue;
            }
            // + - * /
            const param_type right_type = infer(right_id);
            if (left == param_type::string || right_type == param_type::string) {
                if (op == token_kind::plus && left == right_type) {
                    expr(right_id);
                    temporary();
                    emit(opcode::concat, -1);
                    continue;
                }
                fail(at, "'" + name + "' needs two numbers" +
                             (op == token_kind::plus ? std::string(" or two strings") : "") +
                             ", and has " + type_name(left) + " and " + type_name(right_type) +
                             (op == token_kind::plus ? " (concatenate with '..')" : ""));
            }
            left = arithmetic(op, left, right_id);
        }
        return left;
    }

    // `left op right` for numbers, left on the stack. Integers stay integers but for '/'.
    param_type arithmetic(token_kind op, param_type left, std::uint32_t right_id) {
        const param_type right_type = infer(right_id);
        const bool integers =
            !bt() && integral(left) && integral(right_type) && op != token_kind::divide;
        if (!integers && integral(left)) emit(opcode::int_to_num, 0);
        const param_type right = expr(right_id);
        if (!integers && integral(right)) emit(opcode::int_to_num, 0);
        switch (op) {
            case token_kind::plus: emit(integers ? opcode::add_int : opcode::add_num, -1); break;
            case token_kind::minus: emit(integers ? opcode::sub_int : opcode::sub_num, -1); break;
            case token_kind::times: emit(integers ? opcode::mul_int : opcode::mul_num, -1); break;
            default: emit(opcode::div_num, -1);
        }
        return integers ? param_type::integer : param_type::number;
    }

    // The type of a node without emitting it.
    param_type infer(std::uint32_t id) {
        program* saved = out_;
        const long saved_depth = depth_;
        if (saved == nullptr) return expr(id);
        out_ = nullptr;
        param_type t = param_type::integer;
        try {
            t = expr(id);
        } catch (unknown_name&) {
            out_ = saved;
            depth_ = saved_depth;
            // Emitting it will report the problem, located.
            program scratch;
            out_ = &scratch;
            t = expr(id);
            out_ = saved;
            return t;
        }
        out_ = saved;
        depth_ = saved_depth;
        return t;
    }

    static std::uint32_t types_of(param_type left, param_type right) {
        return static_cast<std::uint32_t>(left) | static_cast<std::uint32_t>(right) << 8;
    }

    // A key of a numeric type, read by a comparison with a numeric constant.
    bool compare_key_constant(const node& n) {
        if (n.ops.size() != 1 || out_ == nullptr) return false;
        std::uint32_t key_id = n.kids[0];
        std::uint32_t constant_id = n.kids[1];
        comparison c = comparison_of(n.ops[0]);
        if (tree_.nodes[key_id].kind != node_kind::name || constant_of(key_id)) {
            std::swap(key_id, constant_id);
            c = flipped(c);
        }
        const node& key_node = tree_.nodes[key_id];
        if (key_node.kind != node_kind::name || constant_of(key_id)) return false;
        const auto value = constant_of(constant_id);
        if (!value || value->type == param_type::string) return false;
        const auto key = scope_.find_key(key_node.text);
        // Integer and number keys only: a boolean key is read as a boolean.
        if (!key || (key->type != param_type::integer && key->type != param_type::number)) {
            return false;
        }
        require_value(*key, key_node.text);
        instruction i;
        i.sub = c;
        i.a = key->slot;
        if (key->type == param_type::integer && integral(value->type)) {
            i.op = static_cast<opcode>(static_cast<int>(opcode::compare_key_int_equal) +
                                       static_cast<int>(c));
            i.imm.i = value->i;
        } else {
            i.op = key->type == param_type::integer ? opcode::compare_key_int_num
                                                    : opcode::compare_key_num;
            i.imm.d = integral(value->type) ? static_cast<double>(value->i) : value->d;
        }
        emit(i, 1);
        return true;
    }

    // An operand of a comparison; a string constant compared with a number becomes one.
    param_type comparison_operand(std::uint32_t id, param_type other) {
        const auto c = constant_of(id);
        if (c && c->type == param_type::string && other != param_type::string) {
            instruction i{opcode::push_num};
            i.imm.d = string_as_number(*c->s, tree_.nodes[id].offset);
            emit(i, 1);
            return param_type::number;
        }
        return expr(id);
    }

    // BehaviorTree.CPP's chained comparison: a < b < c is a < b and b < c, b evaluated once,
    // and it stops at the first that does not hold.
    param_type compare(const node& n) {
        if (compare_key_constant(n)) return param_type::boolean;
        std::vector<std::size_t> exits;
        param_type left = comparison_operand(n.kids[0], infer(n.kids[1]));
        for (std::size_t k = 0; k < n.ops.size(); ++k) {
            const param_type right = comparison_operand(n.kids[k + 1], left);
            instruction i;
            i.sub = comparison_of(n.ops[k]);
            i.a = types_of(left, right);
            const bool last = k + 1 == n.ops.size();
            i.op = last ? opcode::compare : opcode::compare_chain;
            if (!last) exits.push_back(here());
            emit(i, -1);  // pops two, pushes one, whether it goes on or not
            left = right;
        }
        if (out_ != nullptr) {
            for (std::size_t at : exits) out_->code[at].b = static_cast<std::uint32_t>(here());
        }
        return param_type::boolean;
    }

    static param_type common(param_type a, param_type b) {
        if (a == b) return a;
        if (a == param_type::number || b == param_type::number) return param_type::number;
        return param_type::integer;
    }

    void widen(param_type from, param_type to) {
        if (from == to) return;
        if (to == param_type::number) emit(opcode::int_to_num, 0);
        // boolean to integer: the same cell
    }

    param_type ternary(const node& n) {
        const param_type then_type = infer(n.kids[1]);
        const param_type else_type = infer(n.kids[2]);
        if ((then_type == param_type::string) != (else_type == param_type::string)) {
            fail(tree_.nodes[n.kids[1]].offset, "the two branches of '?:' give " +
                                                    type_name(then_type) + " and " +
                                                    type_name(else_type));
        }
        const param_type result = common(then_type, else_type);
        truth(expr(n.kids[0]));
        const std::size_t to_else = here();
        emit(opcode::jump_if_false, -1);
        widen(expr(n.kids[1]), result);
        const std::size_t to_end = here();
        emit(opcode::jump, -1);  // the else branch pushes the value again
        patch(to_else);
        widen(expr(n.kids[2]), result);
        patch(to_end);
        return result;
    }

    param_type assign(const node& n) {
        const node& target = tree_.nodes[n.kids[0]];
        const auto found = scope_.find_key(target.text);
        if (!found) {
            if (out_ == nullptr) throw unknown_name{};
            if (n.op == token_kind::assign_create) {
                fail(target.offset,
                     "no key '" + target.text + "': the tree declares the keys its scripts create");
            }
            fail(target.offset, "'" + std::string(spelling(n.op)) +
                                    "' needs an existing key, and '" + target.text +
                                    "' is none: create it with ':='");
        }
        if (found->type == param_type::custom) return assign_custom(n, *found, target);
        const auto key = find_key(target);
        const std::uint32_t value_id = n.kids[1];
        if (n.op == token_kind::assign || n.op == token_kind::assign_create) {
            // BehaviorTree.CPP's `=` looks the entry up, before the value, and fails on one
            // that a script has not created yet.
            if (n.op == token_kind::assign && key.made_by_script) require_value(key, target.text);
            const param_type t = expr(value_id);
            convert_for_key(value_id, t, key.type, target.text);
        } else {
            compound(n, key, target);
        }
        switch (key.type) {
            case param_type::integer: emit(opcode::store_int, 0, key.slot); break;
            case param_type::boolean: emit(opcode::store_bool, 0, key.slot); break;
            case param_type::number: emit(opcode::store_num, 0, key.slot); break;
            default: emit(opcode::store_str, 0, key.slot);
        }
        return key.type;
    }

    // A key of a program's type takes, as in BehaviorTree.CPP, a value of its type (another
    // key's) or text its type reads; it has no operators, and its value is of no use to one.
    // What BehaviorTree.CPP would refuse when it runs is refused here.
    param_type assign_custom(const node& n, const script_scope::key& key, const node& target) {
        const std::string holds = "key '" + target.text + "' holds a " +
                                  (key.custom != nullptr ? key.custom->name : "program's type");
        if (n.op != token_kind::assign && n.op != token_kind::assign_create) {
            fail(n.offset, "'" + std::string(spelling(n.op)) + "' does not apply: " + holds);
        }
        if (&n != &tree_.nodes[statement_]) {
            fail(target.offset, holds + ": its assignment must be a statement of its own");
        }
        const std::uint32_t value_id = n.kids[1];
        const node& value = tree_.nodes[value_id];
        if (value.kind == node_kind::name && !scope_.find_enum(value.text)) {
            const auto source = scope_.find_key(value.text);
            if (source && source->type == param_type::custom) {
                if (source->custom == nullptr || key.custom == nullptr ||
                    source->custom->cpp_type != key.custom->cpp_type) {
                    fail(value.offset,
                         holds + ", and '" + value.text + "' holds a " +
                             (source->custom != nullptr ? source->custom->name : "program's type"));
                }
                instruction copy{opcode::copy_custom};
                copy.a = key.slot;
                copy.b = source->slot;
                emit(copy, 1);
                return param_type::custom;
            }
        }
        const param_type from = infer(value_id);
        if (from != param_type::string) {
            fail(value.offset,
                 holds + ", and this is " + type_name(from) + ": give a key of its type or text");
        }
        if (value.kind == node_kind::string && key.custom != nullptr && !bt()) {
            // Read at load, so that text the type cannot read is found here, located. A
            // BehaviorTree.CPP file's script reads it when it runs, as there: its
            // convertFromString may fail then, or do more than read.
            std::shared_ptr<const void> made;
            try {
                made = key.custom->from_text(value.text);
            } catch (const std::exception& e) {
                fail(value.offset, "'" + value.text + "' is not a " + key.custom->name +
                                       " for key '" + target.text + "': " + e.what());
            }
            if (out_ == nullptr) return param_type::custom;
            out_->objects.push_back(std::move(made));
            instruction set{opcode::set_custom};
            set.a = key.slot;
            set.b = static_cast<std::uint32_t>(out_->objects.size() - 1);
            emit(set, 1);
            return param_type::custom;
        }
        expr(value_id);
        emit(opcode::text_to_custom, 0, key.slot);
        return param_type::custom;
    }

    void compound(const node& n, const script_scope::key& key, const node& target) {
        const std::uint32_t value_id = n.kids[1];
        const std::string op(spelling(n.op));
        const param_type value = infer(value_id);
        if (key.type == param_type::boolean) {
            fail(n.offset,
                 "'" + op + "' needs a number or string key, and '" + target.text + "' is boolean");
        }
        if (key.type == param_type::string) {
            if (n.op != token_kind::assign_plus) {
                fail(n.offset, "'" + op + "' does not apply to string key '" + target.text + "'");
            }
            if (value != param_type::string) {
                fail(tree_.nodes[value_id].offset, "'+=' on string key '" + target.text +
                                                       "' needs a string, and this is " +
                                                       type_name(value));
            }
            require_value(key, target.text);
            emit(opcode::load_str, 1, key.slot);
            expr(value_id);
            temporary();
            emit(opcode::concat, -1);
            return;
        }
        if (value == param_type::string) {
            fail(tree_.nodes[value_id].offset, "'" + op + "' on " + type_name(key.type) + " key '" +
                                                   target.text +
                                                   "' needs a number, and this is a string");
        }
        require_value(key, target.text);
        emit(key.type == param_type::integer ? opcode::load_int : opcode::load_num, 1, key.slot);
        const token_kind arithmetic_op = n.op == token_kind::assign_plus    ? token_kind::plus
                                         : n.op == token_kind::assign_minus ? token_kind::minus
                                         : n.op == token_kind::assign_times ? token_kind::times
                                                                            : token_kind::divide;
        const param_type result = arithmetic(arithmetic_op, key.type, value_id);
        if (result != key.type) {
            if (key.type == param_type::integer)
                emit(opcode::num_to_int, 0);
            else
                emit(opcode::int_to_num, 0);
        }
    }

    const parsed_script::syntax& tree_;
    const script_scope& scope_;
    program* out_;
    program* program_ = nullptr;  // the program compile_all() fills
    long depth_ = 0;
    std::uint32_t statement_ = 0;  // the node of the statement being compiled
    std::vector<std::int8_t> types_;
};

}  // namespace

std::optional<param_type> parsed_script::value_type(std::size_t index,
                                                    const script_scope& scope) const {
    // A behavior3 expression has no assignment nodes: only BehaviorTree.CPP's scripts get past.
    if (index >= syntax_->assignment_nodes.size()) return std::nullopt;
    const auto& n = syntax_->nodes[syntax_->assignment_nodes[index]];
    compiler c(*syntax_, scope, nullptr);
    try {
        if (n.op == detail::script_syntax::token_kind::assign ||
            n.op == detail::script_syntax::token_kind::assign_create) {
            const param_type t = c.expr(n.kids[1]);
            // BehaviorTree.CPP keeps a boolean as the real 1 or 0.
            const bool real = t == param_type::boolean && scope.btcpp_values();
            return real ? param_type::number : t;
        }
        return c.expr(syntax_->assignment_nodes[index]);
    } catch (unknown_name&) {
        return std::nullopt;
    }
}

namespace {

// The scope of a behavior3 expression's typed form: the same keys, which hold values whenever
// it runs (behavior3_expression::evaluate checks first), so that its reads need no check; no
// enums, which behavior3 has none of.
class typed_form_scope final : public script_scope {
public:
    explicit typed_form_scope(const script_scope& inner) : inner_(inner) {}
    std::optional<key> find_key(std::string_view name) const override {
        std::optional<key> found = inner_.find_key(name);
        if (found) found->may_be_unset = false;
        return found;
    }
    std::optional<std::int64_t> find_enum(std::string_view /*name*/) const override {
        return std::nullopt;
    }

private:
    const script_scope& inner_;
};

}  // namespace

std::variant<std::shared_ptr<const script>, script_problem> script::compile(
    const parsed_script& parsed, const script_scope& scope) {
    return compile(parsed, scope, nullptr);
}

std::variant<std::shared_ptr<const script>, script_problem> script::compile(
    const parsed_script& parsed, const script_scope& scope, std::vector<script_problem>* deferred) {
    auto code = std::make_unique<program>();
    code->text = parsed.text();
    auto walked = [&] {
        code = std::make_unique<program>();
        code->text = parsed.text();
        code->dynamic = detail::script_code::bind_dynamic(*parsed.syntax_, scope);
        code->max_stack = program::walked_stack;
        code->result = param_type::custom;
        code->checked_truth = true;
        return std::shared_ptr<const script>(new script(std::move(code)));
    };
    // behavior3's variables hold any value: the expression is walked as behavior3-ts
    // evaluates it.
    if (parsed.syntax_->dialect == script_dialect::behavior3) {
        auto bound =
            std::make_shared<detail::behavior3_expression::expression>(parsed.syntax_->behavior3);
        detail::behavior3_expression::bind(*bound, scope);
        // Over numbers, the same expression in the typed language, compiled to instructions.
        if (auto typed = detail::behavior3_expression::typed_form(*bound)) {
            auto reparsed = parsed_script::parse(typed->text);
            if (const auto* again = std::get_if<parsed_script>(&reparsed)) {
                auto compiled = compile(*again, typed_form_scope(scope));
                if (auto* made = std::get_if<std::shared_ptr<const script>>(&compiled)) {
                    bound->typed = std::move(*made);
                    bound->typed_slots = std::move(typed->slots);
                    bound->typed_boolean = typed->boolean;
                }
            }
        }
        code->behavior3 = std::move(bound);
        code->max_stack = program::walked_stack;
        code->result = param_type::custom;
        code->checked_truth = true;
        return std::shared_ptr<const script>(new script(std::move(code)));
    }
    // Its values' types are known only when it runs: no problem to find before.
    if (detail::script_code::names_dynamic_entry(*parsed.syntax_, scope)) return walked();
    const std::size_t problems_before = deferred != nullptr ? deferred->size() : 0;
    try {
        compiler c(*parsed.syntax_, scope, code.get());
        c.compile_all(deferred);
    } catch (compile_failure& failure) {
        return std::move(failure.problem);
    }
    // A BehaviorTree.CPP script with a problem that shows when it runs is walked, as
    // BehaviorTree.CPP runs it: the problem fails the run only if the part that has it runs
    // (`c ? a : !s` with c true does not fail), and text converts as there.
    if (deferred != nullptr && deferred->size() > problems_before && scope.btcpp_values())
        return walked();
    detail::script_code::choose_quick_form(*code);
    return std::shared_ptr<const script>(new script(std::move(code)));
}

script::script(std::unique_ptr<program> code) : program_(std::move(code)) {}
script::~script() = default;

const std::string& script::text() const noexcept {
    return program_->text;
}

}  // namespace canopy
