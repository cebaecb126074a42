// The script compiler and interpreter on their own (docs/scripting.md): the input is a script.
// It is parsed; each assignment that creates a key the scope lacks gets one of the type
// value_type gives (as the builder declares them); it is compiled against a few keys of each
// type and an enum, then run and tested on a blackboard. Promises checked: nothing crashes,
// leaks, hangs or overflows the stack; a problem lies within the text; running throws nothing
// but canopy::error with code `script`. The same text is also read as a behavior3 expression,
// and compiled under a BehaviorTree.CPP file's rules (its values, keys that start unset, and
// problems deferred to the statement that has them), and over dynamic entries (BT::Any, whose
// scripts are walked with BehaviorTree.CPP's operators).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "canopy/core/error.hpp"
#include "canopy/core/value_type.hpp"
#include "canopy/run/blackboard.hpp"
#include "canopy/run/script.hpp"
#include "canopy/run/script_board.hpp"
#include "run/btcpp_entry.hpp"

namespace {

[[noreturn]] void broken(const std::string& promise) {
    std::fprintf(stderr, "script fuzzer: %s\n", promise.c_str());
    std::abort();
}

// A program's type: scripts may copy it and read it from text.
struct point {
    std::int64_t x = 0;
    std::int64_t y = 0;
};

std::shared_ptr<const canopy::value_type> point_type() {
    static const auto type = canopy::make_value_type<point>(
        "Point",
        [](std::string_view text) {
            const std::vector<std::string_view> parts = canopy::text::split(text);
            if (parts.size() != 2) throw std::invalid_argument("a point is x;y");
            return point{canopy::text::to_integer(parts[0]), canopy::text::to_integer(parts[1])};
        },
        [](const point& p) { return std::to_string(p.x) + ";" + std::to_string(p.y); });
    return type;
}

// A few keys of each type, two of them the main tree's (`@`), two of a program's type, and
// enums, one of them also a key's name.
void add_keys(canopy::script_board& scope) {
    using canopy::param_type;
    for (const char* name : {"p", "q"}) {
        canopy::blackboard_key key{name, param_type::custom, std::nullopt, false};
        key.custom = point_type();
        scope.add_key(std::move(key));
    }
    scope.add_key("i", param_type::integer, std::int64_t{7})
        .add_key("n", param_type::number, 2.5)
        .add_key("b", param_type::boolean, true)
        .add_key("s", param_type::string, std::string("12"))
        .add_key("t", param_type::string, std::string("text"))
        .add_key("@i", param_type::integer, std::int64_t{-3})
        .add_key("@s", param_type::string, std::string("true"))
        .add_key("i2", param_type::integer)
        .add_enum("RED", 1)
        .add_enum("BLUE", 3)
        .add_enum("i2", 2);
}

void check_problem(const canopy::script_problem& p, std::size_t size, const char* stage) {
    if (p.offset > size) broken(std::string(stage) + " problem past the text: " + p.message);
    if (p.message.empty()) broken(std::string(stage) + " problem without a message");
}

template <typename Run>
void run_checked(Run run) {
    try {
        run();
    } catch (const canopy::error& e) {
        if (e.code() != canopy::error_code::script) {
            broken(std::string("a run threw another code: ") + e.what());
        }
    }
}

// The same text as a behavior3 expression (docs/behavior3.md, "Expressions"): the same
// promises, and number() throws nothing but code `script` either.
void check_behavior3(std::string_view text) {
    auto parsed = canopy::parsed_script::parse(text, canopy::script_dialect::behavior3);
    if (auto* p = std::get_if<canopy::script_problem>(&parsed)) {
        check_problem(*p, text.size(), "behavior3 parse");
        return;
    }
    const canopy::parsed_script& expression = std::get<canopy::parsed_script>(parsed);
    if (!expression.assignments().empty()) broken("a behavior3 expression assigns");
    canopy::script_board scope;
    add_keys(scope);
    auto compiled = canopy::script::compile(expression, scope);
    if (auto* p = std::get_if<canopy::script_problem>(&compiled)) {
        check_problem(*p, text.size(), "behavior3 compile");
        return;
    }
    const auto& program = std::get<0>(compiled);
    canopy::blackboard board = scope.board();
    run_checked([&] { (void)program->test(board); });
    run_checked([&] { (void)program->number(board); });
}

// A scope under a BehaviorTree.CPP file's rules (runtime_rules::btcpp): its values.
class btcpp_board : public canopy::script_board {
public:
    bool btcpp_values() const override { return true; }
};

// The same text as a BehaviorTree.CPP file's script: the keys it creates hold no value until
// written, and a problem is deferred to the statement that has it. Compiling never refuses
// a script that parses; each deferred problem lies within the text; running throws nothing
// but code `script`.
void check_btcpp_rules(const canopy::parsed_script& script, std::size_t size) {
    btcpp_board scope;
    add_keys(scope);
    for (const canopy::script_assignment& a : script.assignments()) {
        const auto type = script.value_type(a.index, scope);
        if (!a.creates || scope.has_key(a.name) || type == canopy::param_type::custom) continue;
        canopy::blackboard_key key{a.name, type.value_or(canopy::param_type::integer), std::nullopt,
                                   false};
        key.starts_unset = true;
        scope.add_key(std::move(key));
    }
    std::vector<canopy::script_problem> deferred;
    auto compiled = canopy::script::compile(script, scope, &deferred);
    if (auto* p = std::get_if<canopy::script_problem>(&compiled)) {
        broken("a deferring compile refused a script: " + p->message);
    }
    for (const canopy::script_problem& p : deferred) check_problem(p, size, "deferred");
    const auto& program = std::get<0>(compiled);
    canopy::blackboard board = scope.board();
    run_checked([&] { program->run(board); });
    run_checked([&] { (void)program->test(board); });
}

// A dynamic entry for the scope: one holding `value`, one empty (`exists`), or missing.
canopy::blackboard_key entry_key(std::string name, bool exists,
                                 canopy::detail::btcpp_any value = {}) {
    canopy::detail::btcpp_entry made;
    made.exists = exists;
    made.value = std::move(value);
    canopy::blackboard_key key{std::move(name), canopy::param_type::custom, std::nullopt, false};
    key.custom = canopy::detail::btcpp_entry_type();
    key.initial_object = std::make_shared<const canopy::detail::btcpp_entry>(made);
    key.starts_unset = true;
    return key;
}

// The same text over dynamic entries, as a BehaviorTree.CPP file's keys that SetBlackboard
// writes: every key it creates is one, and so are d (the text "3"), e (the integer 2), f
// (missing) and g (empty). Compiling never refuses; running throws nothing but code `script`;
// a run leaves every entry either holding a value, or set false on the board.
void check_dynamic_entries(const canopy::parsed_script& script) {
    using canopy::detail::btcpp_any;
    btcpp_board scope;
    add_keys(scope);
    scope.add_key(entry_key("d", true, btcpp_any::text("3")))
        .add_key(entry_key("e", true, btcpp_any::integer(2)))
        .add_key(entry_key("f", false))
        .add_key(entry_key("g", true));
    for (const canopy::script_assignment& a : script.assignments()) {
        if (!scope.has_key(a.name)) scope.add_key(entry_key(a.name, false));
    }
    auto compiled = canopy::script::compile(script, scope, nullptr);
    if (auto* p = std::get_if<canopy::script_problem>(&compiled)) {
        // Only a script that names no entry is compiled with types, and may be refused.
        for (const std::string_view name : script.names()) {
            if (name == "d" || name == "e" || name == "f" || name == "g")
                broken("a script over dynamic entries was refused: " + p->message);
        }
        return;
    }
    const auto& program = std::get<0>(compiled);
    canopy::blackboard board = scope.board();
    run_checked([&] { program->run(board); });
    run_checked([&] { (void)program->test(board); });
    for (std::uint32_t slot = 0; slot < board.keys().size(); ++slot) {
        if (!canopy::detail::is_btcpp_entry(board.keys()[slot].custom.get())) continue;
        const auto& entry = board.get_ref<canopy::detail::btcpp_entry>(slot);
        if (board.is_set(slot) && (!entry.exists || entry.value.empty()))
            broken("a dynamic entry without a value reads as set");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check_behavior3(text);
    auto parsed = canopy::parsed_script::parse(text);
    if (auto* p = std::get_if<canopy::script_problem>(&parsed)) {
        check_problem(*p, size, "parse");
        return 0;
    }
    const canopy::parsed_script& script = std::get<canopy::parsed_script>(parsed);
    if (script.text() != text) broken("the parsed script's text differs from the input");
    check_btcpp_rules(script, size);
    check_dynamic_entries(script);
    canopy::script_board scope;
    add_keys(scope);
    // Declare what the script creates, in text order, as the builder does.
    for (const canopy::script_assignment& a : script.assignments()) {
        if (a.offset > size) broken("an assignment past the text");
        const auto type = script.value_type(a.index, scope);
        if (a.creates && type && !scope.has_key(a.name)) scope.add_key(a.name, *type);
    }
    auto compiled = canopy::script::compile(script, scope);
    if (auto* p = std::get_if<canopy::script_problem>(&compiled)) {
        check_problem(*p, size, "compile");
        return 0;
    }
    const auto& program = std::get<0>(compiled);
    if (program->text() != text) broken("the compiled script's text differs from the input");
    canopy::blackboard board = scope.board();
    run_checked([&] { program->run(board); });
    run_checked([&] { (void)program->test(board); });
    return 0;
}
