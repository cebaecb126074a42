// BehaviorTree.CPP's scripting API (scripting/script_parser.hpp, scripting/operators.hpp) on
// Canopy's script engine. Canopy's lexer finds the statements; each is parsed with
// canopy::parsed_script, and each time it runs, compiled against a scope that holds, for every
// name it uses, the BT::Blackboard's entry of that name as a dynamic entry (run/btcpp_entry.hpp)
// and the environment's enum of that name. Such a script is run with BehaviorTree.CPP's own
// operators and conversions; the entries it changed are written back to the blackboard.

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <variant>
#include <vector>

#include "behaviortree_cpp/scripting/operators.hpp"
#include "canopy/core/dynamic_value.hpp"
#include "canopy/core/error.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/script_board.hpp"
#include "run/btcpp_entry.hpp"
#include "run/script/syntax.hpp"

namespace BT {

namespace {

using canopy::detail::btcpp_any;
using canopy::detail::btcpp_entry;

// A problem in a script's text, placed by line and column (1-based).
std::string problemText(const std::string& script, std::size_t offset, const std::string& message) {
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t k = 0; k < offset && k < script.size(); ++k) {
        if (script[k] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    // A long script is shown by its beginning: the place says where the problem is.
    constexpr std::size_t shown = 200;
    const std::string text = script.size() <= shown ? script : script.substr(0, shown) + "...";
    return StrCat("Error in script [", text, "], line ", std::to_string(line), ", column ",
                  std::to_string(column), ": ", message);
}

// The keys a statement is compiled against, under BehaviorTree.CPP's value rules.
class StatementScope final : public canopy::script_board {
public:
    bool btcpp_values() const override { return true; }
};

template <typename T>
bool isType(const std::type_index& type) {
    return type == std::type_index(typeid(T));
}

template <typename... Types>
bool isOneOf(const std::type_index& type) {
    return (isType<Types>(type) || ...);
}

// The type an entry was declared with, as a dynamic entry keeps it.
btcpp_entry::declared declaredType(const TypeInfo& info) {
    const std::type_index& type = info.type();
    if (isType<AnyTypeAllowed>(type)) return btcpp_entry::declared::any;
    if (isType<Any>(type)) return btcpp_entry::declared::any_value;
    if (isType<bool>(type)) return btcpp_entry::declared::boolean;
    if (isOneOf<float, double>(type)) return btcpp_entry::declared::real;
    if (isType<std::string>(type)) return btcpp_entry::declared::string;
    if (isOneOf<char, signed char, unsigned char, short, unsigned short, int, unsigned, long,
                unsigned long, long long, unsigned long long>(type))
        return btcpp_entry::declared::integer;
    return btcpp_entry::declared::object;
}

// A blackboard's entry as a dynamic entry: whether it exists, its type and its value.
btcpp_entry readEntry(Blackboard& vars, const std::string& name) {
    btcpp_entry out;
    const std::shared_ptr<Blackboard::Entry> entry = vars.getEntry(name);
    if (!entry) return out;
    out.exists = true;
    out.type = declaredType(entry->info);
    Any value;
    {
        std::lock_guard<std::mutex> hold(entry->entry_mutex);
        value = entry->value;
    }
    switch (value.kind()) {
        case Any::Kind::Empty: break;
        case Any::Kind::Integer: out.value = btcpp_any::integer(value.cast<std::int64_t>()); break;
        case Any::Kind::Real: out.value = btcpp_any::real(value.cast<double>()); break;
        case Any::Kind::Text: out.value = btcpp_any::text(value.cast<std::string>()); break;
        case Any::Kind::Object:
            if (const auto* text = value.castPtr<std::string>()) {
                out.value = btcpp_any::text(*text);
                break;
            }
            throw RuntimeError("Script: the entry [", name, "] holds a [", demangle(value.type()),
                               "], which scripts run through canopy::btcpp's ParseScript cannot "
                               "read or write");
    }
    return out;
}

template <typename T>
bool castInto(const std::type_index& type, const Any& value, Any& out) {
    if (!isType<T>(type)) return false;
    out = Any(value.cast<T>());
    return true;
}

// `value` as the first of Types that is `type` (false when none is).
template <typename... Types>
bool castIntoOneOf(const std::type_index& type, const Any& value, Any& out) {
    return (castInto<Types>(type, value, out) || ...);
}

// A dynamic entry's value as the blackboard's Any: a number as the entry's declared C++ type
// when it has one that holds it.
Any toAny(const btcpp_any& value, const TypeInfo& info, const std::string& name) {
    Any out;
    switch (value.held) {
        case btcpp_any::kind::empty: return out;
        case btcpp_any::kind::integer: out = Any(value.i); break;
        case btcpp_any::kind::real: out = Any(value.d); break;
        case btcpp_any::kind::string: return Any(value.s);
    }
    const std::type_index& type = info.type();
    try {
        const Any number = out;
        (void)castIntoOneOf<bool, char, signed char, unsigned char, short, unsigned short, int,
                            unsigned, long, unsigned long, long long, unsigned long long, float,
                            double>(type, number, out);
    } catch (const std::exception& e) {
        throw RuntimeError("Error assigning a value to entry [", name, "] with type [",
                           demangle(type), "]: ", e.what());
    }
    return out;
}

// Writes what a statement did to an entry back to the blackboard: makes it (`:=`), stores its
// value, and counts the write.
void writeEntry(Blackboard& vars, const std::string& name, const btcpp_entry& before,
                const btcpp_entry& after) {
    if (!before.exists) vars.createEntry(name, TypeInfo());
    if (!after.value.empty()) {
        const std::shared_ptr<Blackboard::Entry> entry = vars.getEntry(name);
        const Any value = toAny(after.value, entry ? entry->info : TypeInfo(), name);
        if (AnyPtrLocked locked = vars.getAnyLocked(name)) {
            locked.assign(value);
        } else if (entry) {  // a parent's entry, or one remapped to it
            std::lock_guard<std::mutex> hold(entry->entry_mutex);
            entry->value = value;
        }
    }
    if (const std::shared_ptr<Blackboard::Entry> entry = vars.getEntry(name)) {
        std::lock_guard<std::mutex> hold(entry->entry_mutex);
        ++entry->sequence_id;
        entry->stamp = std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now().time_since_epoch());
    }
}

// The value a script gave, as BehaviorTree.CPP's Any holds it.
Any resultAny(const std::optional<canopy::dynamic_value>& value, canopy::param_type type) {
    if (!value) return {};
    switch (value->type()) {
        case canopy::dynamic_value::kind::string: return Any(value->string());
        case canopy::dynamic_value::kind::boolean: return Any(value->boolean() ? 1.0 : 0.0);
        case canopy::dynamic_value::kind::number:
            if (type == canopy::param_type::integer)
                return Any(static_cast<std::int64_t>(value->number()));
            return Any(value->number());
        default: return {};
    }
}

// One statement, parsed once; compiled each time it runs, against the entries the blackboard
// has then.
class Statement final : public Ast::ExprBase {
public:
    explicit Statement(canopy::parsed_script parsed) : parsed_(std::move(parsed)) {}

    Any evaluate(Ast::Environment& env) const override {
        if (!env.vars) throw RuntimeError("Script: the environment has no blackboard (vars)");
        StatementScope scope;
        std::vector<std::string> names;
        std::vector<btcpp_entry> before;
        for (const std::string_view name : parsed_.names()) {
            names.emplace_back(name);
            if (env.enums) {
                if (auto found = env.enums->find(names.back()); found != env.enums->end())
                    scope.add_enum(names.back(), found->second);
            }
            canopy::blackboard_key key;
            key.name = names.back();
            key.type = canopy::param_type::custom;
            key.custom = canopy::detail::btcpp_entry_type();
            scope.add_key(std::move(key));
            before.push_back(readEntry(*env.vars, names.back()));
        }
        canopy::blackboard board = scope.board();
        for (std::uint32_t slot = 0; slot < before.size(); ++slot)
            board.set_object(slot, canopy::type_id_of<btcpp_entry>(), &before[slot]);

        // Problems BehaviorTree.CPP finds only when the statement runs fail the run here too.
        std::vector<canopy::script_problem> deferred;
        auto compiled = canopy::script::compile(parsed_, scope, &deferred);
        if (const auto* problem = std::get_if<canopy::script_problem>(&compiled))
            throw RuntimeError(problemText(parsed_.text(), problem->offset, problem->message));
        const auto& code = std::get<std::shared_ptr<const canopy::script>>(compiled);

        std::optional<canopy::dynamic_value> value;
        try {
            value = code->value(board);
        } catch (const canopy::error& e) {
            // What the statement wrote before it failed stays written, as there.
            writeBack(*env.vars, names, before, board);
            throw RuntimeError(e.what());
        }
        writeBack(*env.vars, names, before, board);
        return resultAny(value, code->result_type());
    }

private:
    static void writeBack(Blackboard& vars, const std::vector<std::string>& names,
                          const std::vector<btcpp_entry>& before, const canopy::blackboard& board) {
        for (std::uint32_t slot = 0; slot < names.size(); ++slot) {
            const auto& after = board.get_ref<btcpp_entry>(slot);
            if (after.exists && !(after == before[slot]))
                writeEntry(vars, names[slot], before[slot], after);
        }
    }

    canopy::parsed_script parsed_;
};

}  // namespace

namespace Scripting {

std::vector<Ast::expr_ptr> parseStatements(const std::string& script) {
    namespace syntax = canopy::detail::script_syntax;
    auto lexed = syntax::lex(script);
    if (const auto* problem = std::get_if<canopy::script_problem>(&lexed))
        throw RuntimeError(problemText(script, problem->offset, problem->message));
    const auto& tokens = std::get<std::vector<syntax::token>>(lexed);

    // A statement is the tokens between two `;`s (BehaviorTree.CPP 4.10 takes a run of them
    // where Canopy's parser takes one): each is parsed on its own.
    std::vector<Ast::expr_ptr> statements;
    std::size_t first = 0;  // the current statement's first token
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        if (tokens[k].kind != syntax::token_kind::semicolon &&
            tokens[k].kind != syntax::token_kind::end)
            continue;
        if (k == first) {  // no statement since the last `;`
            if (k == 0 && tokens[k].kind == syntax::token_kind::semicolon) {
                throw RuntimeError(
                    problemText(script, tokens[k].offset, "expected a statement, found ';'"));
            }
            first = k + 1;
            continue;
        }
        const std::size_t begin = tokens[first].offset;
        const std::size_t end = tokens[k - 1].offset + tokens[k - 1].length;
        auto parsed =
            canopy::parsed_script::parse(std::string_view(script).substr(begin, end - begin));
        if (const auto* problem = std::get_if<canopy::script_problem>(&parsed))
            throw RuntimeError(problemText(script, begin + problem->offset, problem->message));
        statements.push_back(
            std::make_shared<Statement>(std::move(std::get<canopy::parsed_script>(parsed))));
        first = k + 1;
    }
    return statements;
}

}  // namespace Scripting

Result ValidateScript(const std::string& script) {
    try {
        if (Scripting::parseStatements(script).empty())
            return nonstd::make_unexpected(std::string("Empty Script"));
    } catch (const RuntimeError& e) {
        return nonstd::make_unexpected(std::string(e.what()));
    }
    return {};
}

Expected<ScriptFunction> ParseScript(const std::string& script) {
    std::vector<Ast::expr_ptr> statements;
    try {
        statements = Scripting::parseStatements(script);
    } catch (const RuntimeError& e) {
        return nonstd::make_unexpected(std::string(e.what()));
    }
    if (statements.empty()) return nonstd::make_unexpected(std::string("Empty Script"));
    return ScriptFunction([statements = std::move(statements)](Ast::Environment& env) {
        Any last;
        for (const Ast::expr_ptr& statement : statements) last = statement->evaluate(env);
        return last;
    });
}

Expected<Any> ParseScriptAndExecute(Ast::Environment& env, const std::string& script) {
    auto function = ParseScript(script);
    if (!function) return nonstd::make_unexpected(function.error());
    try {
        return (*function)(env);
    } catch (const RuntimeError& e) {
        return nonstd::make_unexpected(std::string(e.what()));
    }
}

}  // namespace BT
