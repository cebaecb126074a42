// What a compiled script costs (docs/scripting.md, "Cost"): script::test of `a > 3 && b != 2`
// on one agent's blackboard, next to the same condition written in C++ against the same
// blackboard by slot, and next to scripts that do more; and behavior3's Check expressions
// (docs/behavior3.md, "Expressions") next to the same conditions as BehaviorTree.CPP scripts;
// and the same scripts under a BehaviorTree.CPP file's rules (docs/btcpp-xml.md), over typed
// keys and over dynamic entries (BT::Any, whose types only the run tells).
#include <benchmark/benchmark.h>

#include <canopy/run/blackboard.hpp>
#include <canopy/run/script.hpp>
#include <canopy/run/script_board.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "run/btcpp_entry.hpp"

namespace {

// The keys scripts compile against and run on.
class board_scope : public canopy::script_board {
public:
    board_scope() {
        using canopy::param_type;
        add_key("a", param_type::integer, std::int64_t{4})
            .add_key("b", param_type::integer, std::int64_t{1})
            .add_key("n", param_type::number, 1.5)
            .add_key("flag", param_type::boolean, true)
            .add_enum("RUNNING", 2);
    }
};

// The same keys as a BehaviorTree.CPP file's tree makes them (runtime_rules::btcpp): its
// values, and each read of a key checks first that the key holds a value.
class btcpp_file_scope : public board_scope {
public:
    std::optional<key> find_key(std::string_view name) const override {
        std::optional<key> found = board_scope::find_key(name);
        if (found) found->may_be_unset = true;
        return found;
    }
    bool btcpp_values() const override { return true; }
};

// The same keys as dynamic entries, holding the same values: a BehaviorTree.CPP file's keys
// that SetBlackboard writes. Scripts over them are walked with BehaviorTree.CPP's operators.
class dynamic_entry_scope : public canopy::script_board {
public:
    dynamic_entry_scope() {
        using canopy::detail::btcpp_any;
        entry("a", btcpp_any::integer(4));
        entry("b", btcpp_any::integer(1));
        entry("n", btcpp_any::real(1.5));
        entry("flag", btcpp_any::real(1.0));
        add_enum("RUNNING", 2);
    }
    bool btcpp_values() const override { return true; }

private:
    void entry(std::string name, canopy::detail::btcpp_any value) {
        canopy::detail::btcpp_entry made;
        made.exists = true;
        made.value = std::move(value);
        canopy::blackboard_key declared{std::move(name), canopy::param_type::custom, std::nullopt,
                                        false};
        declared.custom = canopy::detail::btcpp_entry_type();
        declared.initial_object = std::make_shared<const canopy::detail::btcpp_entry>(made);
        add_key(std::move(declared));
    }
};

std::shared_ptr<const canopy::script> compile(
    const char* text, const canopy::script_scope& scope,
    canopy::script_dialect dialect = canopy::script_dialect::btcpp) {
    auto parsed = canopy::parsed_script::parse(text, dialect);
    if (auto* p = std::get_if<canopy::script_problem>(&parsed))
        throw std::runtime_error(p->message);
    auto compiled = canopy::script::compile(std::get<canopy::parsed_script>(parsed), scope);
    if (auto* p = std::get_if<canopy::script_problem>(&compiled)) {
        throw std::runtime_error(p->message);
    }
    return std::get<0>(compiled);
}

void script_test(benchmark::State& state, const char* text) {
    board_scope scope;
    const auto compiled = compile(text, scope);
    const canopy::blackboard board = scope.board();
    for (auto _ : state) benchmark::DoNotOptimize(compiled->test(board));
}

// A behavior3 `Check` expression, as behavior3.Check tests it.
void behavior3_check(benchmark::State& state, const char* text) {
    board_scope scope;
    const auto compiled = compile(text, scope, canopy::script_dialect::behavior3);
    const canopy::blackboard board = scope.board();
    for (auto _ : state) benchmark::DoNotOptimize(compiled->test(board));
}

// The same condition in a BehaviorTree.CPP file, over keys its tree made.
void btcpp_file_test(benchmark::State& state, const char* text) {
    btcpp_file_scope scope;
    const auto compiled = compile(text, scope);
    const canopy::blackboard board = scope.board();
    for (auto _ : state) benchmark::DoNotOptimize(compiled->test(board));
}

// The same condition over dynamic entries.
void dynamic_entry_test(benchmark::State& state, const char* text) {
    dynamic_entry_scope scope;
    const auto compiled = compile(text, scope);
    const canopy::blackboard board = scope.board();
    for (auto _ : state) benchmark::DoNotOptimize(compiled->test(board));
}

// The same condition as a condition leaf's body would read it: by slot, typed.
void cpp_condition(benchmark::State& state) {
    board_scope scope;
    const canopy::blackboard board = scope.board();
    const std::uint32_t a = board.find("a");
    const std::uint32_t b = board.find("b");
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    for (auto _ : state) {
        const bool holds = board.get<std::int64_t>(a) > 3 && board.get<std::int64_t>(b) != 2;
        benchmark::DoNotOptimize(holds);
    }
}

void compile_only(benchmark::State& state) {
    board_scope scope;
    for (auto _ : state) benchmark::DoNotOptimize(compile("a > 3 && b != 2", scope));
}

}  // namespace

BENCHMARK(cpp_condition);
BENCHMARK_CAPTURE(script_test, key_op_constant, "a > 3 && b != 2");
BENCHMARK_CAPTURE(script_test, keys_and_arithmetic, "a + b * 2 > n && flag");
BENCHMARK_CAPTURE(script_test, assignment_then_test, "a += 1; a = a & 0xFF; a != RUNNING");
BENCHMARK_CAPTURE(script_test, chained, "1 < a <= 10 != false");
BENCHMARK(compile_only);
// The same scripts under BehaviorTree.CPP's rules, side by side with the typed ones above.
BENCHMARK_CAPTURE(btcpp_file_test, key_op_constant, "a > 3 && b != 2");
BENCHMARK_CAPTURE(btcpp_file_test, keys_and_arithmetic, "a + b * 2 > n && flag");
BENCHMARK_CAPTURE(btcpp_file_test, assignment_then_test, "a += 1; a = a & 0xFF; a != RUNNING");
// And over dynamic entries.
BENCHMARK_CAPTURE(dynamic_entry_test, key_op_constant, "a > 3 && b != 2");
BENCHMARK_CAPTURE(dynamic_entry_test, keys_and_arithmetic, "a + b * 2 > n && flag");
BENCHMARK_CAPTURE(dynamic_entry_test, assignment_then_test, "a += 1; a = a & 0xFF; a != RUNNING");
// behavior3 Check expressions and the same conditions in BehaviorTree.CPP's dialect.
BENCHMARK_CAPTURE(behavior3_check, key_op_constant, "a > 3 && b != 2");
BENCHMARK_CAPTURE(behavior3_check, keys_and_arithmetic, "a + b * 2 > n && n != 2");
BENCHMARK_CAPTURE(behavior3_check, number_keys, "n > 1 && n != 2");
BENCHMARK_CAPTURE(script_test, number_keys, "n > 1 && n != 2");
// Operators only behavior3's dialect has.
BENCHMARK_CAPTURE(behavior3_check, remainder_and_shift, "a % 3 == 1 && (a << 2) >= 16");
BENCHMARK_MAIN();
