// Counts heap allocations while agents tick: ticking built-in nodes must allocate nothing.
// A test program of its own, because it replaces the global operator new.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <atomic>
#include <cstdlib>
#include <new>

#include "canopy/run/script_board.hpp"
#include "runtime_support.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// The replacements below pair malloc with free themselves; GCC's check that a pointer from
// operator new never reaches free cannot see that they are the replacements.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t align) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    const auto alignment = static_cast<std::size_t>(align);
    if (void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}

using namespace canopy;

TEST_CASE("ticking built-in nodes allocates nothing; making an agent allocates once") {
    // Every built-in but Log (which writes to std::cout), with running branches and halts, ports
    // read from the blackboard, and string values.
    auto t = testing::runtime_tree(R"({"blackboard": {"mode": "string"}, "nodes": [
        {"id": 1, "type": "ParallelAll", "params": {"max_failures": -1}},
        {"id": 2, "parentId": 1, "type": "ReactiveSequence"},
        {"id": 3, "parentId": 2, "type": "CheckBlackboard", "params": {"key": "count", "op": "<", "value": 1000}},
        {"id": 4, "parentId": 2, "type": "Sequence"},
        {"id": 5, "parentId": 4, "type": "WaitTicks", "params": {"ticks": 2}},
        {"id": 6, "parentId": 4, "type": "SetBlackboard", "params": {"key": "alarm", "value": true}},
        {"id": 7, "parentId": 1, "type": "ReactiveSelector"},
        {"id": 8, "parentId": 7, "type": "Cooldown", "params": {"seconds": 0.3}},
        {"id": 9, "parentId": 8, "type": "AlwaysFailure"},
        {"id": 10, "parentId": 7, "type": "Timeout", "params": {"seconds": 0.5}},
        {"id": 11, "parentId": 10, "type": "Wait", "params": {"seconds": 1}},
        {"id": 12, "parentId": 1, "type": "RandomSelector"},
        {"id": 13, "parentId": 12, "type": "Repeat", "params": {"count": 3}},
        {"id": 14, "parentId": 13, "type": "AlwaysSuccess"},
        {"id": 15, "parentId": 12, "type": "Retry", "params": {"attempts": 2}},
        {"id": 16, "parentId": 15, "type": "Not"},
        {"id": 17, "parentId": 16, "type": "AlwaysSuccess"},
        {"id": 18, "parentId": 1, "type": "Selector"},
        {"id": 19, "parentId": 18, "type": "ForceFailure"},
        {"id": 20, "parentId": 19, "type": "RepeatUntilSuccess"},
        {"id": 21, "parentId": 20, "type": "AlwaysSuccess"},
        {"id": 22, "parentId": 18, "type": "ForceSuccess"},
        {"id": 23, "parentId": 22, "type": "RepeatUntilFailure"},
        {"id": 24, "parentId": 23, "type": "AlwaysFailure"},
        {"id": 25, "parentId": 1, "type": "SequenceWithMemory"},
        {"id": 26, "parentId": 25, "type": "IfThenElse"},
        {"id": 27, "parentId": 26, "type": "AlwaysSuccess"},
        {"id": 28, "parentId": 26, "type": "Delay", "params": {"seconds": 0.2}},
        {"id": 29, "parentId": 28, "type": "AlwaysSuccess"},
        {"id": 30, "parentId": 25, "type": "WhileDoElse"},
        {"id": 31, "parentId": 30, "type": "CheckBlackboard", "params": {"key": "count", "op": "<", "value": 1000}},
        {"id": 32, "parentId": 30, "type": "RateController", "params": {"hz": 4}},
        {"id": 33, "parentId": 32, "type": "AlwaysSuccess"},
        {"id": 34, "parentId": 30, "type": "AlwaysFailure"},
        {"id": 35, "parentId": 1, "type": "PipelineSequence"},
        {"id": 36, "parentId": 35, "type": "Switch2", "params": {"variable": "count", "case_1": "0", "case_2": "1"}},
        {"id": 37, "parentId": 36, "type": "RunOnce"},
        {"id": 38, "parentId": 37, "type": "AlwaysSuccess"},
        {"id": 39, "parentId": 36, "type": "Limiter", "params": {"max_loop": 2}},
        {"id": 40, "parentId": 39, "type": "AlwaysSuccess"},
        {"id": 41, "parentId": 36, "type": "MaxTime", "params": {"seconds": 0.2}},
        {"id": 42, "parentId": 41, "type": "AlwaysRunning"},
        {"id": 43, "parentId": 35, "type": "RoundRobin"},
        {"id": 44, "parentId": 43, "type": "AlwaysFailure"},
        {"id": 45, "parentId": 43, "type": "Precondition", "params": {"if": "count == 0"}},
        {"id": 46, "parentId": 45, "type": "AlwaysSuccess"},
        {"id": 47, "parentId": 35, "type": "RecoveryNode", "params": {"number_of_retries": 2}},
        {"id": 48, "parentId": 47, "type": "AlwaysFailure"},
        {"id": 49, "parentId": 47, "type": "AlwaysSuccess"},
        {"id": 50, "parentId": 1, "type": "Parallel"},
        {"id": 51, "parentId": 50, "type": "Switch", "params": {"variable": "mode", "cases": "idle;patrol"}},
        {"id": 52, "parentId": 51, "type": "Wait", "params": {"seconds": "{health}"}},
        {"id": 53, "parentId": 51, "type": "AlwaysSuccess"},
        {"id": 54, "parentId": 51, "type": "AlwaysFailure"},
        {"id": 55, "parentId": 50, "type": "SetBlackboard", "params": {"key": "mode", "value": "patrol"}},
        {"id": 56, "parentId": 50, "type": "CheckBlackboard", "params": {"key": "mode", "op": "!=", "value": "idle"}}
    ]})");
    std::vector<agent> agents;
    agents.reserve(1000);
    const long before_making = allocations.load();
    for (std::uint64_t seed = 0; seed < 1000; ++seed) agents.emplace_back(t, nullptr, seed);
    CHECK(allocations.load() - before_making == 1000);  // one block per agent

    const long before_ticking = allocations.load();
    int running = 0;
    for (int tick = 0; tick < 100; ++tick) {
        for (agent& a : agents) running += a.tick(0.1) == status::running ? 1 : 0;
        if (tick == 50) {
            for (agent& a : agents) a.reset();
        }
    }
    CHECK(allocations.load() - before_ticking == 0);
    CHECK(running > 0);  // the tree did run, not just finish at once
}

TEST_CASE("ticking numeric Script, ScriptCondition and Precondition nodes allocates nothing") {
    // With pre- and post-conditions on nodes too: _skipIf, _while, _onSuccess, _post.
    auto t = testing::runtime_tree(R"({"nodes": [
        {"id": 1, "type": "Parallel", "params": {"success_threshold": -1, "failure_threshold": -1}},
        {"id": 2, "parentId": 1, "type": "Script", "params": {"code": "n := count * 2 + 1; x := health / 2.0; count += 1", "_onSuccess": "m := n > 7", "_post": "count -= 0"}},
        {"id": 3, "parentId": 1, "type": "ScriptCondition", "params": {"code": "count > 3 && n != 2 || !alarm", "_skipIf": "count == 3"}},
        {"id": 4, "parentId": 1, "type": "Precondition", "params": {"if": "x >= 0.0 && count < 1000", "else": "SUCCESS", "_while": "count >= 0"}},
        {"id": 5, "parentId": 4, "type": "WaitTicks", "params": {"ticks": 2}}
    ]})");
    std::vector<agent> agents;
    agents.reserve(100);
    for (std::uint64_t seed = 0; seed < 100; ++seed) agents.emplace_back(t, nullptr, seed);
    const long before_ticking = allocations.load();
    int running = 0;
    for (int tick = 0; tick < 50; ++tick) {
        for (agent& a : agents) running += a.tick(0.1) == status::running ? 1 : 0;
    }
    CHECK(allocations.load() - before_ticking == 0);
    CHECK(running > 0);
    CHECK(agents.front().blackboard().get<std::int64_t>(agents.front().blackboard().slot("count")) >
          3);
}

TEST_CASE("a trace recorder allocates nothing once each kept tick has seen its events") {
    auto t = testing::runtime_tree(R"({"nodes": [
        {"id": 1, "type": "Sequence"},
        {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}},
        {"id": 3, "parentId": 1, "type": "AlwaysSuccess"}
    ]})");
    agent a(t);
    trace_recorder recorder(t, 5);
    a.set_observer(&recorder);
    for (int tick = 0; tick < 30; ++tick) a.tick(0.1);  // every slot sees every phase
    const long before = allocations.load();
    for (int tick = 0; tick < 300; ++tick) a.tick(0.1);
    CHECK(allocations.load() - before == 0);
    CHECK(recorder.recording().ticks.size() == 5);
}

TEST_CASE("running and testing scripts over numbers, booleans and enums allocates nothing") {
    script_board scope;
    scope.add_key("a", param_type::integer, std::int64_t{4})
        .add_key("b", param_type::number, 1.5)
        .add_key("flag", param_type::boolean)
        .add_key("count", param_type::integer)
        .add_key("label", param_type::string, std::string("idle"))
        .add_enum("RUNNING", 2);
    const blackboard board = scope.board();
    std::vector<std::shared_ptr<const script>> scripts;
    for (const char* text :
         {"a > 3 && b != 2", "count += 1; flag = count & 1 == 0 || a == RUNNING",
          "b := b * 2 - a / 4; flag = !flag; a = (a + 1) & 0xFF; a < 100 ? a : -a",
          "1 < a <= 10 != false", "label == 'idle' && a >= 4", "label = 'busy'; b = '2.5'"}) {
        auto compiled = testing::compile_script(text, scope);
        REQUIRE(std::holds_alternative<std::shared_ptr<const script>>(compiled));
        scripts.push_back(std::get<0>(compiled));
    }
    const long before = allocations.load();
    int held = 0;
    for (int round = 0; round < 1000; ++round) {
        for (const auto& s : scripts) held += s->test(board) ? 1 : 0;
    }
    CHECK(allocations.load() - before == 0);
    CHECK(held > 0);
}

TEST_CASE("evaluating behavior3 expressions over numbers and booleans allocates nothing") {
    script_board scope;
    scope.add_key("hp", param_type::number, 40.0)
        .add_key("level", param_type::integer, std::int64_t{3})
        .add_key("alive", param_type::boolean, true);
    const blackboard board = scope.board();
    std::vector<std::shared_ptr<const script>> expressions;
    for (const char* text :
         {"hp > 20 && alive == true", "hp * 2 + level % 2 - (hp / 4 | 0)", "-hp >> 1 <= level << 2",
          "hp == 40 ? level : hp || 1", "!alive || hp != 0.5 && level >= 3"}) {
        auto compiled = testing::compile_script(text, scope, script_dialect::behavior3);
        REQUIRE(std::holds_alternative<std::shared_ptr<const script>>(compiled));
        expressions.push_back(std::get<0>(compiled));
    }
    // The evaluator's stack is one per thread, grown by the first evaluations only.
    for (const auto& e : expressions) (void)e->number(board);
    const long before = allocations.load();
    double sum = 0;
    int held = 0;
    for (int round = 0; round < 1000; ++round) {
        for (const auto& e : expressions) {
            sum += e->number(board);
            held += e->test(board) ? 1 : 0;
        }
    }
    CHECK(allocations.load() - before == 0);
    CHECK(held > 0);
    CHECK(sum != 0);

    // And the nodes that evaluate them, in a tree.
    registry reg;
    register_builtin_nodes(reg);
    register_behavior3_nodes(reg);
    load_result loaded = try_load_text(R"({"name": "t", "root": {"id": 1, "name": "Sequence",
        "children": [{"id": 2, "name": "Let", "args": {"value": 1}, "output": ["n"]},
        {"id": 3, "name": "Calculate", "args": {"value": "n * 3 + 1"}, "output": ["m"]},
        {"id": 4, "name": "Check", "args": {"value": "m > n && m % 2 == 0"}}]}})",
                                       file_format::behavior3, reg, "t.json");
    REQUIRE(loaded);
    agent a(loaded.tree);
    a.tick(0.1);
    const long ticking = allocations.load();
    for (int tick = 0; tick < 300; ++tick) CHECK(a.tick(0.1) == status::success);
    CHECK(allocations.load() - ticking == 0);
}

TEST_CASE("reading numbers out of behavior3 arrays and objects allocates nothing") {
    // The arrays and objects were made before (a Let of a literal makes a new one each time,
    // as behavior3-ts parses its arguments anew); the numbers read out of them, and the
    // expressions over them, allocate nothing.
    registry reg;
    register_builtin_nodes(reg);
    register_behavior3_nodes(reg);
    load_result loaded = try_load_text(R"({"name": "t", "root": {"id": 1, "name": "Sequence",
        "children": [
        {"id": 4, "name": "Let", "args": {"value": 0}, "output": ["sum"]},
        {"id": 5, "name": "Index", "args": {"index": 2}, "input": ["list"], "output": ["n"]},
        {"id": 6, "name": "GetField", "args": {"field": "hp"}, "input": ["o"], "output": ["hp"]},
        {"id": 7, "name": "Includes", "input": ["list", "n"]},
        {"id": 8, "name": "ForEach", "input": ["list"], "output": ["e", "i"], "children": [
          {"id": 9, "name": "Calculate", "args": {"value": "sum + e * i"}, "output": ["sum"]}]},
        {"id": 10, "name": "Check",
         "args": {"value": "list[n] > hp / 10 && list.length == 4 && sum == 20"}}]}})",
                                       file_format::behavior3, reg, "t.json");
    for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(loaded);
    agent a(loaded.tree);
    testing::set_at(a.blackboard(), "list", dynamic_value::from_json("[1, 2, 3, 4]"));
    testing::set_at(a.blackboard(), "o",
                    dynamic_value::from_json(R"({"hp": 30, "pos": {"x": 2}})"));
    REQUIRE(a.tick(0.1) == status::success);
    const long ticking = allocations.load();
    for (int tick = 0; tick < 300; ++tick) CHECK(a.tick(0.1) == status::success);
    CHECK(allocations.load() - ticking == 0);
}
