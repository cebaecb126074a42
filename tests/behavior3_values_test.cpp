// behavior3's nodes about expressions and values (src/dialects/behavior3/nodes), loaded from
// behavior3 JSON as behavior3editor writes it and ticked, against behavior3-ts's nodes
// (src/behavior3/nodes there), cited per case.
#include <algorithm>
#include <cmath>
#include <string>

#include "test_support.hpp"

using namespace canopy;
using testing::behavior3_tree;
using testing::load_behavior3;

TEST_SUITE("behavior3 values") {
    TEST_CASE("Check succeeds when its expression is truthy, else fails") {
        // check.ts: `return value ? "success" : "failure"`.
        auto t = behavior3_tree(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "Let", "args": {"value": 30}, "output": ["hp"]},
            {"id": 3, "name": "Check", "args": {"value": "hp > 20 && hp % 2 == 0"}}]})");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        testing::set_at(a.blackboard(), "hp", dynamic_value(31.0));
        auto check_only =
            behavior3_tree(R"({"id": 1, "name": "Check", "args": {"value": "hp >= 10"}})");
        agent b(check_only);
        // evaluator.ts: "value indexed by 'hp' is not found", which interrupts the tick.
        CHECK(b.tick(0.1) == status::idle);
        CHECK(b.interruption().find("value indexed by 'hp' is not found") != std::string::npos);
        testing::set_at(b.blackboard(), "hp", dynamic_value(10.0));
        CHECK(b.tick(0.1) == status::success);
        CHECK(b.interruption().empty());
        testing::set_at(b.blackboard(), "hp", dynamic_value("ten"));
        CHECK(b.tick(0.1) == status::idle);  // not a number: interrupted too
        CHECK(b.interruption().find("is not a number") != std::string::npos);
    }

    TEST_CASE("Calculate writes its expression's value to its output and succeeds") {
        // calculate.ts: `env.output.push(value); return "success"`.
        auto t = behavior3_tree(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "Let", "args": {"value": 7}, "output": ["a"]},
            {"id": 3, "name": "Calculate", "args": {"value": "a * 2 + 1"}, "output": ["b"]},
            {"id": 4, "name": "Calculate", "args": {"value": "b > 10"}, "output": ["c"]},
            {"id": 5, "name": "Calculate", "args": {"value": "(b << 2) | 1"}, "output": ["d"]}]})");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "b") == 15);
        CHECK(testing::boolean_at(a.blackboard(), "c"));  // the boolean true
        CHECK(testing::number_at(a.blackboard(), "d") == 61);
    }

    TEST_CASE("Let writes its value, or its input variable's, to its output") {
        // let.ts: `_checkOneof(node, env, 0, args.value, null)`: input 1 wins when wired.
        auto t = behavior3_tree(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "Let", "args": {"value": 2.5}, "output": ["a"]},
            {"id": 3, "name": "Let", "input": ["a"], "output": ["b"]},
            {"id": 4, "name": "Let", "args": {"value": true}, "output": ["f"]},
            {"id": 5, "name": "Check", "args": {"value": "b == 2.5 && f == true"}}]})");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "b") == 2.5);
        CHECK(testing::boolean_at(a.blackboard(), "f"));
    }

    TEST_CASE("Assert passes its child's success on and turns its failure into an error") {
        // assert.ts: success -> success, running -> yield, failure -> throw new Error(message).
        auto t = behavior3_tree(
            R"({"id": 1, "name": "Assert", "args": {"message": "hp must be positive"},
            "children": [{"id": 2, "name": "Check", "args": {"value": "hp > 0"}}]})");
        agent a(t);
        testing::set_at(a.blackboard(), "hp", dynamic_value(3.0));
        CHECK(a.tick(0.1) == status::success);
        testing::set_at(a.blackboard(), "hp", dynamic_value(0.0));
        // assert.ts throws, which interrupts the tick (tree.ts): the running nodes are
        // dropped, the variables stay.
        CHECK(a.tick(0.1) == status::idle);
        CHECK(a.interruption().find("hp must be positive") != std::string::npos);
        CHECK_FALSE(a.is_running(tree::root));
    }

    TEST_CASE("Now writes the agent's time to its output") {
        // now.ts: `env.output.push(env.context.time)`.
        auto t = behavior3_tree(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "Now", "output": ["t"]},
            {"id": 3, "name": "Check", "args": {"value": "t >= 0.25"}}]})");
        agent a(t);
        CHECK(a.tick(0.125) == status::failure);
        CHECK(testing::number_at(a.blackboard(), "t") == 0.125);
        CHECK(a.tick(0.125) == status::success);
        CHECK(testing::number_at(a.blackboard(), "t") == 0.25);
    }

    TEST_CASE("Math computes its operation over value1, value2 and its inputs") {
        // math.ts: values are value1 (else input 1), value2 (else input 2), then inputs 3...
        auto t = behavior3_tree(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "Let", "args": {"value": 3}, "output": ["a"]},
            {"id": 3, "name": "Let", "args": {"value": 7}, "output": ["b"]},
            {"id": 4, "name": "Let", "args": {"value": 5}, "output": ["c"]},
            {"id": 5, "name": "Math", "args": {"op": "max"}, "input": ["a", "b", "c"], "output": ["max"]},
            {"id": 6, "name": "Math", "args": {"op": "average"}, "input": ["a", "b", "c"], "output": ["avg"]},
            {"id": 7, "name": "Math", "args": {"op": "pow", "value1": 2, "value2": 10}, "output": ["p"]},
            {"id": 8, "name": "Math", "args": {"op": "round", "value1": -2.5}, "output": ["r1"]},
            {"id": 9, "name": "Math", "args": {"op": "round", "value1": 2.5}, "output": ["r2"]},
            {"id": 10, "name": "Math", "args": {"op": "min", "value1": 4}, "input": ["a"], "output": ["m"]},
            {"id": 11, "name": "Math", "args": {"op": "sign", "value1": -0.5}, "output": ["s"]},
            {"id": 12, "name": "Math", "args": {"op": "randInt", "value1": 1, "value2": 6}, "output": ["d"]},
            {"id": 13, "name": "Math", "args": {"op": "product"}, "input": ["a", "", "c"], "output": ["x"]}]})");
        agent a(t, nullptr, 7);
        CHECK(a.tick(0.1) == status::success);
        blackboard board = a.blackboard();
        CHECK(testing::number_at(board, "max") == 7);
        CHECK(testing::number_at(board, "avg") == 5);
        CHECK(testing::number_at(board, "p") == 1024);
        CHECK(testing::number_at(board, "r1") == -2);  // JavaScript's Math.round: halves go up
        CHECK(testing::number_at(board, "r2") == 3);
        CHECK(testing::number_at(board, "m") == 4);  // value1 given: input 1 is not used
        CHECK(testing::number_at(board, "s") == -1);
        CHECK(testing::number_at(board, "x") == 15);  // the unwired slot is left out
        // An input variable that is undefined drops out too (math.ts filters them), so that
        // the operation may have too few values: failure, its output undefined.
        auto short_of = behavior3_tree(R"({"id": 1, "name": "Math", "args": {"op": "pow"},
            "input": ["a", "nothing"], "output": ["r"]})");
        agent s(short_of);
        testing::set_at(s.blackboard(), "a", dynamic_value(2.0));
        CHECK(s.tick(0.1) == status::failure);
        CHECK_FALSE(s.blackboard().is_set(s.blackboard().slot("r")));
        bool seen[7] = {};
        for (int k = 0; k < 200; ++k) {
            a.tick(0.1);
            const double d = testing::number_at(board, "d");
            REQUIRE(d >= 1);
            REQUIRE(d <= 6);
            REQUIRE(d == std::floor(d));
            seen[static_cast<int>(d)] = true;
        }
        CHECK(std::count(seen + 1, seen + 7, true) == 6);
    }

    TEST_CASE("Math fails where math.ts fails at run, and refuses at load only an unknown op") {
        auto t = behavior3_tree(R"({"id": 1, "name": "Math",
            "args": {"op": "randFloat", "value1": 5, "value2": 1}, "output": ["f"]})");
        agent a(t);
        CHECK(a.tick(0.1) == status::failure);  // min above max
        // math.ts's constructor refuses an unknown op: the tree does not load.
        load_result bad =
            load_behavior3(R"({"id": 1, "name": "Math", "args": {"op": "cube", "value1": 1}})");
        CHECK_FALSE(bad);
        REQUIRE(bad.diagnostics.size() == 1);
        CHECK(bad.diagnostics[0].message.find("unknown op 'cube'") != std::string::npos);
        // A count of values the op cannot take loads, and every tick fails with the output
        // undefined, as math.ts's onTick logs it and returns failure.
        SUBCASE("too many") {
            auto two = behavior3_tree(R"({"id": 1, "name": "Math",
                "args": {"op": "abs", "value1": 1, "value2": 2}, "output": ["f"]})");
            agent b(two);
            CHECK(b.tick(0.1) == status::failure);
            CHECK(b.tick(0.1) == status::failure);
            CHECK_FALSE(b.blackboard().is_set(b.blackboard().slot("f")));
        }
        SUBCASE("none") {
            auto none = behavior3_tree(
                R"({"id": 1, "name": "Math", "args": {"op": "cos"}, "output": ["f"]})");
            agent b(none);
            CHECK(b.tick(0.1) == status::failure);
            CHECK_FALSE(b.blackboard().is_set(b.blackboard().slot("f")));
        }
    }

    TEST_CASE("IsNull and NotNull tell a variable never written from one written") {
        // is-null.ts: success when the input is undefined or null; not-null.ts the opposite.
        auto t = behavior3_tree(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "IsNull", "input": ["target"]},
            {"id": 3, "name": "Let", "args": {"value": 4}, "output": ["target"]},
            {"id": 4, "name": "NotNull", "input": ["target"]}]})");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);  // null, then written, then not null
        CHECK(a.tick(0.1) == status::failure);  // no longer null
        agent b(t);
        // The program writes it before the first tick.
        testing::set_at(b.blackboard(), "target", dynamic_value(1.0));
        CHECK(b.tick(0.1) == status::failure);
        auto declared =
            behavior3_tree(R"({"id": 1, "name": "NotNull", "input": ["hp"]})",
                           R"([{"name": "hp", "desc": "", "type": "number", "default": 10}])");
        agent c(declared);
        CHECK(c.tick(0.1) == status::success);  // a declared initial value is a value
    }

    TEST_CASE("a declared variable keeps its type; an expression over it is checked at load") {
        auto t = behavior3_tree(
            R"({"id": 1, "name": "Check", "args": {"value": "ready == true && count > 2"}})",
            R"([{"name": "ready", "desc": "", "type": "boolean", "default": true},
                            {"name": "count", "desc": "", "type": "integer", "default": 3}])");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        // A string where the evaluator needs a number fails when it runs, as there.
        auto text = behavior3_tree(R"({"id": 1, "name": "Check", "args": {"value": "name + 1"}})",
                                   R"([{"name": "name", "desc": "", "type": "string"}])");
        agent b(text);
        b.blackboard().set("name", std::string_view("orc"));
        CHECK(b.tick(0.1) == status::idle);
        CHECK(b.interruption().find("is not a number") != std::string::npos);
    }

    TEST_CASE("a bad expression is refused at load, at its node's argument") {
        load_result bad = load_behavior3(R"({"id": 1, "name": "Sequence", "children": [
            {"id": 2, "name": "Check",
             "args": {"value": "hp >> "}}]})");
        CHECK_FALSE(bad);
        REQUIRE(bad.diagnostics.size() == 1);
        const diagnostic& d = bad.diagnostics[0];
        CHECK(d.where.line == 3);
        CHECK(d.where.column > 1);
        CHECK(d.message.find("not enough operands for '>>'") != std::string::npos);
        CHECK(d.record_id == 2);
        // check.ts's init: "args.value is not a expr string", for an empty or absent value
        // or one that is not text.
        for (const char* args : {R"({"value": ""})", R"({"value": 3})", R"({})"}) {
            CAPTURE(args);
            load_result refused =
                load_behavior3(std::string(R"({"id": 1, "name": "Check", "args": )") + args + "}");
            CHECK_FALSE(refused);
            CHECK_FALSE(refused.diagnostics.empty());
        }
    }

    TEST_CASE("a registry without the behavior3 nodes names what it lacks") {
        registry reg;  // a program's own, without register_builtin_nodes
        load_result bad = try_load_text(
            R"({"name": "t", "root": {"id": 1, "name": "Check", "args": {"value": "x > 1"}}})",
            file_format::behavior3, reg, "t.json");
        CHECK_FALSE(bad);
        REQUIRE_FALSE(bad.diagnostics.empty());
        CHECK(bad.diagnostics[0].message ==
              "unknown node type 'Check' (Canopy's 'behavior3.Check'): this registry has none of "
              "the 'behavior3.' types");
        CHECK(bad.diagnostics[0].hint.api == "register_behavior3_nodes adds them");
    }

    TEST_CASE("the nodes are read under their behavior3 names and written back under them") {
        const std::string text = R"({"name": "t", "root": {"id": 1, "name": "Assert",
  "args": {"message": "m"}, "children": [{"id": 2, "name": "Sequence", "children": [
  {"id": 3, "name": "Let", "input": ["a"], "output": ["b"]},
  {"id": 4, "name": "Calculate", "args": {"value": "b + 1"}, "output": ["c"]},
  {"id": 5, "name": "Check", "args": {"value": "c > 1"}}]}]}})";
        read_result read = info(file_format::behavior3).read(text, "t.json");
        REQUIRE(read.diagnostics.empty());
        const tree_document& doc = read.document;
        const record_set& records = doc.trees.front();
        CHECK(records.type_name(0) == "behavior3.Assert");
        CHECK(records.type_name(2) == "behavior3.Let");
        CHECK(records.type_name(3) == "behavior3.Calculate");
        CHECK(records.type_name(4) == "behavior3.Check");
        write_result written = info(file_format::behavior3).write(doc);
        REQUIRE(written.problems.empty());
        CHECK(written.text.find(R"("input": ["a"])") != std::string::npos);  // Let's value
        for (const char* name : {R"("name": "Assert")", R"("name": "Let")",
                                 R"("name": "Calculate")", R"("name": "Check")"}) {
            CHECK(written.text.find(name) != std::string::npos);
        }
        read_result again = info(file_format::behavior3).read(written.text, "t.json");
        REQUIRE(again.diagnostics.empty());
        const record_set& back = again.document.trees.front();
        REQUIRE(back.size() == records.size());
        for (std::size_t i = 0; i < records.size(); ++i) {
            CHECK(back.type_name(i) == records.type_name(i));
        }
    }
}
