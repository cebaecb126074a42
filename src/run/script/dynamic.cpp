#include "run/script/dynamic.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "canopy/core/error.hpp"

namespace canopy::detail::script_code {

using script_syntax::node;
using script_syntax::node_kind;
using script_syntax::token_kind;

namespace {

// The key a name means, if it is one of the scope's.
std::optional<script_scope::key> key_named(const script_scope& scope, const std::string& name) {
    return scope.find_key(name);
}

bool is_entry(const script_scope::key& key) {
    return key.type == param_type::custom && is_btcpp_entry(key.custom);
}

class walker {
public:
    walker(const dynamic_script& code, blackboard board) : code_(code), board_(board) {}

    btcpp_any value(std::uint32_t id) {
        const node& n = code_.tree.nodes[id];
        switch (n.kind) {
            case node_kind::integer:
                // `-5` is BehaviorTree.CPP's `-` of 5: a real.
                if (n.offset < code_.tree.text.size() && code_.tree.text[n.offset] == '-')
                    return btcpp_any::real(static_cast<double>(n.value));
                return btcpp_any::integer(n.value);
            case node_kind::real: return btcpp_any::real(n.real);
            case node_kind::boolean: return btcpp_any::real(static_cast<double>(n.value));
            case node_kind::string: return btcpp_any::text(n.text);
            case node_kind::name: return read(id, n);
            case node_kind::unary: {
                const btcpp_any operand = value(n.kids[0]);
                const char op = n.op == token_kind::minus        ? '-'
                                : n.op == token_kind::complement ? '~'
                                                                 : '!';
                return unary(op, operand);
            }
            case node_kind::chain: {
                btcpp_any result = value(n.kids[0]);
                for (std::size_t k = 1; k < n.kids.size(); ++k) {
                    const btcpp_any right = value(n.kids[k]);
                    result = binary(script_syntax::spelling(n.ops[k - 1]), result, right);
                }
                return result;
            }
            case node_kind::compare: {
                btcpp_any left = value(n.kids[0]);
                for (std::size_t k = 1; k < n.kids.size(); ++k) {
                    btcpp_any right = value(n.kids[k]);
                    if (!compare(script_syntax::spelling(n.ops[k - 1]), left, right, nullptr))
                        return btcpp_any::real(0.0);
                    left = std::move(right);
                }
                return btcpp_any::real(1.0);
            }
            case node_kind::ternary:
                return value(ternary_truth(value(n.kids[0])) ? n.kids[1] : n.kids[2]);
            case node_kind::assign: return assign_to(n);
        }
        throw error(error_code::script, "this expression is not BehaviorTree.CPP's");
    }

private:
    [[noreturn]] static void not_found(const node& n) {
        throw error(error_code::script, "Variable not found: " + n.text);
    }

    btcpp_any read(std::uint32_t id, const node& n) const {
        const dynamic_script::binding& b = code_.names[id];
        switch (b.is) {
            case dynamic_script::binding::what::enum_value: return btcpp_any::real(b.value);
            case dynamic_script::binding::what::entry: {
                const auto& entry = board_.get_ref<btcpp_entry>(b.slot);
                if (!entry.exists) not_found(n);
                return entry.value;
            }
            case dynamic_script::binding::what::key:
                if (b.may_be_unset && !board_.is_set(b.slot)) {
                    if (b.made_by_script) not_found(n);
                    return {};  // a port's entry, empty
                }
                return value_of(board_, b.slot);
            default: not_found(n);
        }
    }

    // BehaviorTree.CPP's assignment: the entry is looked up (and `:=` makes it) before the
    // value is computed.
    btcpp_any assign_to(const node& n) {
        const node& target = code_.tree.nodes[n.kids[0]];
        const dynamic_script::binding& b = code_.names[n.kids[0]];
        const std::string_view op = script_syntax::spelling(n.op);
        btcpp_entry entry;
        if (b.is == dynamic_script::binding::what::entry) {
            entry = board_.get_ref<btcpp_entry>(b.slot);
        } else if (b.is == dynamic_script::binding::what::key) {
            entry.exists = !b.may_be_unset || board_.is_set(b.slot) || !b.made_by_script;
            if (!b.may_be_unset || board_.is_set(b.slot)) entry.value = value_of(board_, b.slot);
        }
        if (!entry.exists) {
            if (n.op != token_kind::assign_create) {
                throw error(error_code::script,
                            "The blackboard entry [" + target.text +
                                "] doesn't exist, yet.\nIf you want to create a new one, use the "
                                "operator [:=] instead of [=]");
            }
            entry.exists = true;
            if (b.is == dynamic_script::binding::what::entry) store(b.slot, entry);
        }
        const btcpp_any given = value(n.kids[1]);
        if (b.is == dynamic_script::binding::what::entry) {
            // The value may have changed the entry (`a := (a := 1) + 1`): read it again.
            entry = board_.get_ref<btcpp_entry>(b.slot);
            entry.exists = true;
            btcpp_any result = assign(entry, op, given, target.text, nullptr);
            store(b.slot, entry);
            return result;
        }
        if (b.is != dynamic_script::binding::what::key) not_found(target);
        btcpp_any result = assign(entry, op, given, target.text, nullptr);
        write_key(b, target, result);
        return result;
    }

    void store(std::uint32_t slot, const btcpp_entry& entry) {
        board_.set_object(slot, type_id_of<btcpp_entry>(), &entry);
        if (entry.value.empty()) board_.mark_empty(slot);
    }

    // A key of one type, which Canopy typed when the tree was built, written by a script whose
    // value is known only now: BehaviorTree.CPP would retype the entry where the value does
    // not fit; Canopy's key cannot, and says so.
    void write_key(const dynamic_script::binding& b, const node& target, const btcpp_any& v) {
        switch (b.type) {
            case param_type::integer:
                if (v.held == btcpp_any::kind::integer) return board_.set(b.slot, v.i);
                // A whole real (`c = 'true'` makes 1.0 there) prints and compares the same.
                if (v.held == btcpp_any::kind::real && v.d == std::nearbyint(v.d) &&
                    std::abs(v.d) < 9007199254740992.0)
                    return board_.set(b.slot, static_cast<std::int64_t>(v.d));
                break;
            case param_type::number:
                if (v.is_number()) return board_.set(b.slot, cast_real(v));
                break;
            case param_type::boolean:
                if (v.is_number() && (cast_real(v) == 0 || cast_real(v) == 1))
                    return board_.set(b.slot, cast_real(v) == 1);
                break;
            default:
                if (v.is_string()) return board_.set(b.slot, v.s);
                break;
        }
        throw error(error_code::script, "key '" + target.text + "' holds " +
                                            std::string(to_string(b.type)) +
                                            " values, and this value is not one");
    }

    const dynamic_script& code_;
    blackboard board_;
};

}  // namespace

bool names_dynamic_entry(const parsed_script::syntax& tree, const script_scope& scope) {
    if (tree.dialect != script_dialect::btcpp || !scope.btcpp_values()) return false;
    return std::any_of(tree.nodes.begin(), tree.nodes.end(), [&](const node& n) {
        if (n.kind != node_kind::name) return false;
        const auto key = key_named(scope, n.text);
        return key && is_entry(*key);
    });
}

std::shared_ptr<const dynamic_script> bind_dynamic(const parsed_script::syntax& tree,
                                                   const script_scope& scope) {
    auto code = std::make_shared<dynamic_script>();
    code->tree = tree;
    code->names.resize(tree.nodes.size());
    std::vector<bool> targets(tree.nodes.size(), false);
    for (const node& n : tree.nodes) {
        if (n.kind == node_kind::assign) targets[n.kids[0]] = true;
    }
    for (std::size_t id = 0; id < tree.nodes.size(); ++id) {
        const node& n = tree.nodes[id];
        if (n.kind != node_kind::name) continue;
        dynamic_script::binding& b = code->names[id];
        // An enum shadows a key, as in BehaviorTree.CPP; a target is always a key.
        if (!targets[id]) {
            if (const auto value = scope.find_enum(n.text)) {
                b.is = dynamic_script::binding::what::enum_value;
                b.value = static_cast<double>(*value);
                continue;
            }
        }
        const auto key = key_named(scope, n.text);
        if (!key) continue;  // none: fails when it runs
        if (is_entry(*key)) {
            b.is = dynamic_script::binding::what::entry;
        } else if (key->type == param_type::integer || key->type == param_type::number ||
                   key->type == param_type::boolean || key->type == param_type::string) {
            b.is = dynamic_script::binding::what::key;
        } else {
            continue;  // a program's type: no value a script computes with
        }
        b.slot = key->slot;
        b.type = key->type;
        b.may_be_unset = key->may_be_unset;
        b.made_by_script = key->made_by_script;
    }
    return code;
}

btcpp_any run_dynamic(const dynamic_script& code, const std::string& text, blackboard board) {
    walker walk(code, board);
    btcpp_any last;
    try {
        for (const std::uint32_t statement : code.tree.statements) last = walk.value(statement);
    } catch (const error& e) {
        throw error(error_code::script, "script '" + text + "': " + e.what());
    }
    return last;
}

}  // namespace canopy::detail::script_code
