// behavior3's nodes over arrays and objects, ForEach and Filter
// (src/dialects/behavior3/nodes/array_nodes.cpp, loop_nodes.cpp), loaded from behavior3 JSON as
// behavior3editor writes it and ticked. The expected results are traced through behavior3-ts's
// nodes (zhongfq/behavior3-ts, src/behavior3/nodes there), cited per case.
#include <string>
#include <vector>

#include "test_support.hpp"

using namespace canopy;
using testing::behavior3_tree;
using testing::load_behavior3;

namespace {

std::string json_of(agent& a, const char* key) {
    const blackboard board = a.blackboard();
    return board.text(board.slot(key));
}

std::string type_of_key(const tree& t, const char* key) {
    for (const blackboard_key& k : t.keys())
        if (k.name == key) return std::string(k.type_name());
    return "(none)";
}

// A Sequence of the given children, numbered from 2.
std::string sequence(const std::vector<std::string>& children) {
    std::string text = R"({"id": 1, "name": "Sequence", "children": [)";
    int id = 2;
    for (const std::string& child : children) {
        if (id > 2) text += ", ";
        text += R"({"id": )" + std::to_string(id++) + ", " + child + "}";
    }
    return text + "]}";
}

}  // namespace

TEST_SUITE("behavior3 arrays") {
    TEST_CASE("Let makes arrays and objects from its JSON value; the variables are json keys") {
        // let.ts: `env.output.push(value)`, the argument's value as the editor wrote it.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1, "a", {"k": null}]},
                                    "output": ["list"])",
                      R"("name": "Let", "args": {"value": {"hp": 3}}, "output": ["o"])",
                      R"("name": "Let", "args": {"value": 2}, "output": ["n"])"}));
        CHECK(type_of_key(*t, "list") == "json");
        CHECK(type_of_key(*t, "o") == "json");
        // One the tree only gives numbers is a number key, undefined until written too.
        CHECK(type_of_key(*t, "n") == "number");
        agent a(t);
        CHECK(json_of(a, "list") == "null");  // undefined until written
        CHECK_FALSE(a.blackboard().is_set(a.blackboard().slot("list")));
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "list") == R"([1,"a",{"k":null}])");
        CHECK(json_of(a, "o") == R"({"hp":3})");
        CHECK(testing::number_at(a.blackboard(), "n") == 2);
    }

    TEST_CASE("a variable the tree gives only numbers is a number key; any other use, json") {
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": 2}, "output": ["n"])",
                      R"("name": "Calculate", "args": {"value": "n * 2 + 1"}, "output": ["m"])",
                      R"("name": "Calculate", "args": {"value": "n > 1"}, "output": ["flag"])",
                      R"("name": "Let", "input": ["m"], "output": ["copy"])",
                      R"("name": "Let", "args": {"value": 1}, "output": ["pushed"])",
                      R"("name": "Let", "args": {"value": [1]}, "output": ["list"])",
                      R"("name": "Push", "input": ["list", "pushed"])",
                      R"("name": "Let", "args": {"value": 1}, "output": ["late"])",
                      R"("name": "Let", "args": {"value": "a"}, "output": ["late"])",
                      R"("name": "IsNull", "input": ["read_only"])"}));
        CHECK(type_of_key(*t, "n") == "number");
        CHECK(type_of_key(*t, "m") == "number");        // arithmetic over numbers
        CHECK(type_of_key(*t, "copy") == "number");     // a Let of a number variable
        CHECK(type_of_key(*t, "flag") == "json");       // a comparison gives a boolean
        CHECK(type_of_key(*t, "pushed") == "json");     // Push takes any value
        CHECK(type_of_key(*t, "late") == "json");       // a Let of text
        CHECK(type_of_key(*t, "read_only") == "json");  // only the program can write it
        auto fields =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": 3}, "output": ["object"])",
                                     R"("name": "Check", "args": {"value": "object.x"})",
                                     R"("name": "Calculate", "args": {"value": "object + 'x'"},
                         "output": ["text"])"}));
        CHECK(type_of_key(*fields, "object") == "json");  // a field read
        CHECK(type_of_key(*fields, "text") == "json");    // `+` with text joins
        agent a(t);
        CHECK_FALSE(a.blackboard().is_set(a.blackboard().slot("m")));  // undefined until written
        CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "m") == 5);
        CHECK(testing::number_at(a.blackboard(), "copy") == 5);
        // Clear makes it undefined again.
        auto undefined = behavior3_tree(sequence(
            {R"("name": "Let", "args": {"value": 2}, "output": ["n"])",
             R"("name": "Calculate", "args": {"value": "n + 1"}, "output": ["m"])",
             R"("name": "Clear", "output": ["m"])", R"("name": "IsNull", "input": ["m"])"}));
        CHECK(type_of_key(*undefined, "m") == "number");
        agent b(undefined);
        CHECK(b.tick(0.1) == status::success);
        CHECK_FALSE(b.blackboard().is_set(b.blackboard().slot("m")));
    }

    TEST_CASE("Push appends its element to the array, and fails on anything else") {
        // push.ts: `if (!Array.isArray(arr)) return "failure"; arr.push(element)`.
        auto t =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": []}, "output": ["list"])",
                                     R"("name": "Let", "args": {"value": 4}, "output": ["n"])",
                                     R"("name": "Push", "input": ["list", "n"])",
                                     R"("name": "Push", "input": ["list", "list"])",
                                     R"("name": "Push", "input": ["list"])"}));
        agent a(t);
        // An array pushed onto itself would hold itself, as JavaScript allows and no JSON
        // shows: Push fails instead (docs/behavior3.md).
        CHECK(a.tick(0.1) == status::failure);
        CHECK(json_of(a, "list") == "[4]");
        auto not_array = behavior3_tree(sequence({R"("name": "Let", "args": {"value": {"a": 1}},
                                             "output": ["o"])",
                                                  R"("name": "Push", "input": ["o", "o"])"}));
        agent b(not_array);
        CHECK(b.tick(0.1) == status::failure);
        agent c(behavior3_tree(R"({"id": 1, "name": "Push", "input": ["never", "x"]})"));
        CHECK(c.tick(0.1) == status::failure);  // null: no array
    }

    TEST_CASE("Index writes the element at its index, and fails where there is none") {
        // index.ts: `arr[index]`; success only for an element neither undefined nor null.
        auto t =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [5, null, "x"]},
                                    "output": ["list"])",
                                     R"("name": "Index", "args": {"index": 2}, "input": ["list"],
                                    "output": ["third"])",
                                     R"("name": "Let", "args": {"value": 0}, "output": ["i"])",
                                     R"("name": "Index", "input": ["list", "i"], "output": ["hp"])",
                                     R"("name": "Check", "args": {"value": "hp == 5"})"}));
        CHECK(type_of_key(*t, "hp") == "json");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "third") == R"("x")");
        for (const char* index : {"1", "3", "-1", "0.5"}) {
            CAPTURE(index);
            auto miss =
                behavior3_tree(sequence({R"("name": "Let", "args": {"value": [5, null, "x"]},
                                          "output": ["list"])",
                                         std::string(R"("name": "Index", "args": {"index": )") +
                                             index + R"(}, "input": ["list"], "output": ["e"])"}));
            agent b(miss);
            CHECK(b.tick(0.1) == status::failure);
        }
        // A string element read as a number by an expression interrupts the tick, as
        // evaluator.ts throws.
        auto mismatch =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": ["s"]},
                                          "output": ["list"])",
                                     R"("name": "Index", "args": {"index": 0},
                                          "input": ["list"], "output": ["hp"])",
                                     R"("name": "Check", "args": {"value": "hp > 1"})"}));
        agent c(mismatch);
        CHECK(c.tick(0.1) == status::idle);
        CHECK(c.interruption().find("is not a number") != std::string::npos);
        // An undefined index variable throws (index.ts's _checkOneof, which has no default).
        auto unset_index = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1]}, "output": ["list"])",
                      R"("name": "Index", "input": ["list", "nothing"], "output": ["e"])"}));
        agent d(unset_index);
        CHECK(d.tick(0.1) == status::idle);
        CHECK(d.interruption().find("missing input 'index'") != std::string::npos);
    }

    TEST_CASE("GetField and SetField read, write and delete an object's fields") {
        // get-field.ts: `obj[field]`, failure when undefined or null; set-field.ts:
        // `obj[field] = value`, and `delete obj[field]` for a null or undefined value.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": {"hp": 3, "mp": 1}},
                                    "output": ["o"])",
                      R"("name": "SetField", "args": {"field": "name", "value": "orc"},
                                    "input": ["o"])",
                      R"("name": "SetField", "args": {"field": "hp", "value": [1]},
                                    "input": ["o"])",
                      R"("name": "SetField", "args": {"field": "mp"}, "input": ["o"])",
                      R"("name": "GetField", "args": {"field": "name"}, "input": ["o"],
                                    "output": ["n"])",
                      R"("name": "Let", "args": {"value": "hp"}, "output": ["f"])",
                      R"("name": "GetField", "input": ["o", "f"], "output": ["h"])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "o") == R"({"hp":[1],"name":"orc"})");
        CHECK(json_of(a, "n") == R"("orc")");
        CHECK(json_of(a, "h") == "[1]");
        auto missing =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": {}}, "output": ["o"])",
                                     R"("name": "GetField", "args": {"field": "x"},
                                         "input": ["o"], "output": ["v"])"}));
        agent b(missing);
        CHECK(b.tick(0.1) == status::failure);
        // An array's fields are its indexes and its length, as in JavaScript.
        auto on_array =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [7, 8]},
                                          "output": ["l"])",
                                     R"("name": "GetField", "args": {"field": "length"},
                                          "input": ["l"], "output": ["n"])",
                                     R"("name": "SetField", "input": ["l", "n", "n"])"}));
        agent c(on_array);
        CHECK(c.tick(0.1) == status::success);
        CHECK(json_of(c, "l") == "[7,8,2]");  // l[2] = 2: one past the end appends
    }

    TEST_CASE("Includes tells whether the array holds an equal element") {
        // includes.ts: `arr.indexOf(element) >= 0`; failure for no array or a null element.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1, "a", 3]},
                                    "output": ["list"])",
                      R"("name": "Let", "args": {"value": "a"}, "output": ["e"])",
                      R"("name": "Includes", "input": ["list", "e"])",
                      R"("name": "Let", "args": {"value": 2}, "output": ["e2"])",
                      R"("name": "Invert", "children": [{"id": 9, "name": "Includes",
                                    "input": ["list", "e2"]}])",
                      R"("name": "Invert", "children": [{"id": 10, "name": "Includes",
                                    "input": ["list", "unset"]}])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
    }

    TEST_CASE("Concat writes a new array of both inputs' elements") {
        // concat.ts: failure unless both are arrays; `env.output.push(arr1.concat(arr2))`.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1]}, "output": ["a"])",
                      R"("name": "Let", "args": {"value": [2, [3]]}, "output": ["b"])",
                      R"("name": "Concat", "input": ["a", "b"], "output": ["c"])",
                      R"("name": "Push", "input": ["c", "a"])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "a") == "[1]");
        CHECK(json_of(a, "c") == "[1,2,[3],[1]]");
        auto bad = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1]}, "output": ["a"])",
                      R"("name": "Concat", "input": ["a", "none"], "output": ["c"])"}));
        agent b(bad);
        CHECK(b.tick(0.1) == status::failure);
    }

    TEST_CASE("RandomIndex writes one of the elements, from the agent's generator") {
        // random-index.ts: `arr[Math.floor(Math.random() * arr.length)]`; failure when empty.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [10, 20, 30]},
                                    "output": ["list"])",
                      R"("name": "RandomIndex", "input": ["list"], "output": ["v"])",
                      R"("name": "Check", "args": {"value": "v % 10 == 0 && v > 0"})"}));
        std::vector<bool> seen(4, false);
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            agent a(t, nullptr, seed);
            REQUIRE(a.tick(0.1) == status::success);
            seen[static_cast<std::size_t>(testing::number_at(a.blackboard(), "v") / 10)] = true;
        }
        CHECK((seen[1] && seen[2] && seen[3]));
        auto empty =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": []}, "output": ["l"])",
                                     R"("name": "RandomIndex", "input": ["l"], "output": ["v"])"}));
        agent b(empty);
        CHECK(b.tick(0.1) == status::failure);
    }

    TEST_CASE("ForEach runs its child per element, writing the element and its index") {
        // decorators/foreach.ts: for each i, `blackboard.set(varname, arr[i])`, `set(idx, i)`,
        // tick the child; failure ends the loop with failure; running yields i, and the
        // resumed loop goes on at i + 1 after the child's success.
        auto t =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [3, 4, 5]},
                                    "output": ["list"])",
                                     R"("name": "Let", "args": {"value": 0}, "output": ["sum"])",
                                     R"("name": "ForEach", "input": ["list"], "output": ["e", "i"],
                                    "children": [{"id": 9, "name": "Calculate",
                                      "args": {"value": "sum + e * 10 + i"}, "output": ["sum"]}])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "sum") == 123);  // 30 + 41 + 52
        // Finished, it leaves its outputs undefined: node.ts writes `output[i]` to every output
        // slot of a node that finished, and ForEach pushes none.
        CHECK_FALSE(a.blackboard().is_set(a.blackboard().slot("i")));  // undefined
        CHECK_FALSE(a.blackboard().is_set(a.blackboard().slot("e")));
        // A running child: one element a tick while it waits, the next at once after.
        auto waits =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": ["a", "b"]},
                                        "output": ["list"])",
                                     R"("name": "ForEach", "input": ["list"], "output": ["e"],
                                        "children": [{"id": 9, "name": "Wait",
                                          "args": {"time": 0.1}}])"}));
        agent b(waits);
        CHECK(b.tick(0.1) == status::running);
        CHECK(json_of(b, "e") == R"("a")");
        CHECK(b.tick(0.1) == status::running);  // a's wait ends; b's starts in the same tick
        CHECK(json_of(b, "e") == R"("b")");
        CHECK(b.tick(0.1) == status::success);
        // A failing child ends it; no array fails; an empty one succeeds at once.
        auto fails =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [1, 2]},
                                        "output": ["list"])",
                                     R"("name": "ForEach", "input": ["list"], "output": ["e"],
                                        "children": [{"id": 9, "name": "Check",
                                          "args": {"value": "e < 2"}}])"}));
        agent c(fails);
        CHECK(c.tick(0.1) == status::failure);
        CHECK_FALSE(c.blackboard().is_set(c.blackboard().slot("e")));  // undefined
        // Over nothing foreach.ts throws (`arr.length` of undefined): the tick is interrupted.
        agent d(behavior3_tree(R"({"id": 1, "name": "ForEach", "input": ["none"], "output": ["e"],
                           "children": [{"id": 2, "name": "JustSuccess"}]})"));
        CHECK(d.tick(0.1) == status::idle);
        CHECK_FALSE(d.interruption().empty());
    }

    TEST_CASE("a node that fails leaves its output undefined, as behavior3-ts writes it") {
        // node.ts: once a node finishes, `cfg.output.forEach((k, i) => blackboard.set(k,
        // output[i]))`, and a node that failed pushed nothing.
        const std::vector<std::string> failing = {
            R"("name": "Index", "args": {"index": 5}, "input": ["l"], "output": ["out"])",
            R"("name": "GetField", "args": {"field": "x"}, "input": ["o"], "output": ["out"])",
            R"("name": "Concat", "input": ["l", "o"], "output": ["out"])",
            R"("name": "RandomIndex", "input": ["empty"], "output": ["out"])",
        };
        for (const std::string& node : failing) {
            CAPTURE(node);
            auto t = behavior3_tree(sequence(
                {R"("name": "Let", "args": {"value": [1]}, "output": ["l"])",
                 R"("name": "Let", "args": {"value": {"y": 1}}, "output": ["o"])",
                 R"("name": "Let", "args": {"value": []}, "output": ["empty"])",
                 R"("name": "Let", "args": {"value": ["before"]}, "output": ["out"])", node}));
            agent a(t);
            CHECK(a.tick(0.1) == status::failure);
            CHECK(json_of(a, "out") == "null");
        }
        // Math's output too.
        auto math = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": 7}, "output": ["n"])",
                      R"("name": "Math", "args": {"op": "randInt", "value1": 3, "value2": 1},
                         "output": ["n"])"}));
        agent m(math);
        CHECK(m.tick(0.1) == status::failure);
        CHECK_FALSE(m.blackboard().is_set(m.blackboard().slot("n")));
    }

    TEST_CASE("Filter keeps the elements whose child succeeds, in a new array") {
        // decorators/filter.ts: for each i, `blackboard.set(output[0], arr[i])`, tick the
        // child, push arr[i] on success; then `output.push(undefined, newArr)` and success
        // unless newArr is empty. Not an array: "error"; an empty one: failure; either way
        // node.ts then writes undefined to both outputs.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [{"hp": 3}, {"hp": 9}, {"hp": 7}]},
                                    "output": ["units"])",
                      R"("name": "Filter", "input": ["units"], "output": ["u", "strong"],
                                    "children": [{"id": 9, "name": "Check",
                                      "args": {"value": "u.hp > 5"}}])"}));
        CHECK(type_of_key(*t, "strong") == "json");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "strong") == R"([{"hp":9},{"hp":7}])");
        CHECK(json_of(a, "u") == "null");  // output 1 undefined once it finished, as ForEach's
        CHECK(json_of(a, "units") == R"([{"hp":3},{"hp":9},{"hp":7}])");  // unchanged
        // None picked: failure, with the empty array written. An empty array, or an object:
        // failure, output 2 undefined.
        struct failing {
            const char* list;
            const char* child;
            const char* kept;
        };
        for (const failing& f :
             {failing{"[1, 2]", "JustFailure", "[]"}, failing{"[]", "JustSuccess", "null"},
              failing{R"({"k": 1})", "JustSuccess", "null"}}) {
            CAPTURE(f.list);
            auto filtering = behavior3_tree(
                sequence({std::string(R"("name": "Let", "args": {"value": )") + f.list +
                              R"(}, "output": ["l"])",
                          R"("name": "Let", "args": {"value": ["old"]}, "output": ["kept"])",
                          std::string(R"("name": "Filter", "input": ["l"], "output": ["e", "kept"],
                                    "children": [{"id": 9, "name": ")") +
                              f.child + R"("}])"}));
            agent c(filtering);
            CHECK(c.tick(0.1) == status::failure);
            CHECK(json_of(c, "kept") == f.kept);
        }
    }

    TEST_CASE("Filter over a running child goes on from the next element, keeping what it picked") {
        // filter.ts yields [i, newArr] and, resumed with the child's success, pushes arr[i];
        // its loop then restarts at 0 (`for (i = 0; ...)`), picking the earlier elements
        // again: Canopy goes on at i + 1 (docs/behavior3.md).
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1, 2, 3]}, "output": ["l"])",
                      R"("name": "Filter", "input": ["l"], "output": ["e", "odd"],
                    "children": [{"id": 9, "name": "Sequence", "children": [
                      {"id": 10, "name": "Check", "args": {"value": "e != 2"}},
                      {"id": 11, "name": "Wait", "args": {"time": 0.1}}]}])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::running);  // 1 waits
        CHECK(json_of(a, "e") == "1");
        CHECK(a.tick(0.1) == status::running);  // 1 picked, 2 refused, 3 waits
        CHECK(json_of(a, "e") == "3");
        CHECK(json_of(a, "odd") == "null");  // written only at the end
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "odd") == "[1,3]");
        // A run halted midway starts afresh: nothing picked before the halt is kept.
        agent b(t);
        CHECK(b.tick(0.1) == status::running);
        b.reset();
        CHECK(b.tick(0.1) == status::running);
        CHECK(b.tick(0.1) == status::running);
        CHECK(b.tick(0.1) == status::success);
        CHECK(json_of(b, "odd") == "[1,3]");
    }

    TEST_CASE("expressions read the fields and elements of the variables the nodes fill") {
        // evaluator.ts's DOT reads `obj[field]` of the variable's object.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [{"hp": 3}, {"hp": 9}]},
                                    "output": ["units"])",
                      R"("name": "Let", "args": {"value": 0}, "output": ["strong"])",
                      R"("name": "ForEach", "input": ["units"], "output": ["u"],
                                    "children": [{"id": 9, "name": "Calculate",
                                      "args": {"value": "u.hp > 5 ? strong + 1 : strong"},
                                      "output": ["strong"]}])",
                      R"("name": "Check", "args": {"value": "units[1].hp == 9"})",
                      R"("name": "Check", "args": {"value": "units.length == 2"})"}));
        CHECK(type_of_key(*t, "u") == "json");
        agent a(t);
        // evaluator.ts's `?:` evaluates `c ? a : b` as `b ? a : c` with c unread: here
        // `strong ? strong + 1 : <u.hp > 5>`, which stores false for the first unit, and the
        // second then reads `strong` as a number: evaluator.ts throws (as traced in
        // behavior3-ts itself).
        CHECK(a.tick(0.1) == status::idle);
        CHECK(a.interruption().find("'strong' is not a number") != std::string::npos);
        CHECK(json_of(a, "strong") == "false");
        CHECK(json_of(a, "u") == R"({"hp":9})");
    }

    TEST_CASE("an array that doubles on every tick stops growing instead of exhausting memory") {
        // Concat a a doubles a's values on every tick.
        auto t =
            behavior3_tree(sequence({R"("name": "Concat", "input": ["list", "list"],
                                             "output": ["list"])"}),
                           R"([{"name": "list", "desc": "", "type": "json", "default": [0]}])");
        agent a(t);
        int failed_at = 0;
        for (int tick = 1; tick <= 40 && failed_at == 0; ++tick) {
            if (a.tick(0.1) == status::failure) failed_at = tick;
        }
        CHECK(failed_at > 15);  // about a million values, then Concat fails
        CHECK(json_of(a, "list").size() < 64 * 1024 * 1024);
    }

    TEST_CASE(
        "a ForEach whose child lengthens its array yields after a bounded number of "
        "elements") {
        auto t =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [1]}, "output": ["list"])",
                                     R"("name": "ForEach", "input": ["list"], "output": ["e"],
                                    "children": [{"id": 9, "name": "Push",
                                      "input": ["list", "e"]}])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::running);
        CHECK(a.tick(0.1) == status::running);  // goes on; a tick never hangs
    }

    TEST_CASE("a ForEach inside a Repeat shares the tick's 65,536 iterations with it") {
        // Each on its own budget, 65,536 Repeat iterations of a 2-element ForEach would push
        // 131,072 elements in one tick and succeed.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1, 2]}, "output": ["list"])",
                      R"("name": "Let", "args": {"value": []}, "output": ["hits"])",
                      R"("name": "Repeat", "args": {"count": 65536}, "children": [{"id": 8,
                "name": "ForEach", "input": ["list"], "output": ["e"],
                "children": [{"id": 9, "name": "Push", "input": ["hits", "e"]}]}])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::running);
        const blackboard board = a.blackboard();
        const std::size_t pushed = board.get_ref<dynamic_value>(board.slot("hits")).array()->size();
        CHECK(pushed > 0);
        CHECK(pushed < 65536);
    }

    TEST_CASE("Let without a value, or with null, clears its variable as Clear does") {
        // let.ts: `_checkOneof(node, env, 0, args.value, null)` then output null; clear.ts:
        // `env.output.push(undefined)`.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1]}, "output": ["list"])",
                      R"("name": "NotNull", "input": ["list"])",
                      R"("name": "Let", "args": {"value": null}, "output": ["list"])",
                      R"("name": "IsNull", "input": ["list"])",
                      R"("name": "Let", "args": {"value": 3}, "output": ["n"])",
                      R"("name": "Let", "output": ["n"])", R"("name": "Clear", "output": ["list"])",
                      R"("name": "IsNull", "input": ["n"])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "list") == "null");
    }

    TEST_CASE("values of the wrong kind load, and fail or interrupt when they run, as there") {
        // A number where Push needs an array: push.ts's "error", which fails here.
        auto clash = behavior3_tree(sequence({R"("name": "Let", "args": {"value": 3},
                                               "output": ["list"])",
                                              R"("name": "Push", "input": ["list", "list"])"}));
        agent a(clash);
        CHECK(a.tick(0.1) == status::failure);
        // An array where an expression needs a number: evaluator.ts throws.
        auto arithmetic = behavior3_tree(sequence({R"("name": "Let", "args": {"value": [1]},
                                                    "output": ["list"])",
                                                   R"("name": "Check",
                                                    "args": {"value": "list + 1 > 0"})"}));
        agent b(arithmetic);
        CHECK(b.tick(0.1) == status::idle);
        CHECK(b.interruption().find("is not a number") != std::string::npos);
        // Index without an index, SetField without a field, and a value given twice.
        for (const char* node :
             {R"("name": "Index", "input": ["l"], "output": ["e"])",
              R"("name": "SetField", "input": ["l"], "args": {"value": 1})",
              R"("name": "SetField", "input": ["l", "f", "v"], "args": {"value": 1})",
              R"("name": "Push", "args": {"list": 1})"}) {
            CAPTURE(node);
            load_result bad = load_behavior3(std::string(R"({"id": 1, )") + node + "}");
            CHECK_FALSE(bad);
            REQUIRE_FALSE(bad.diagnostics.empty());
            CHECK(bad.diagnostics[0].record_id == 1);
        }
    }

    TEST_CASE("an input of the wrong kind is an error, which Invert, IfElse and loops pass up") {
        // index.ts, includes.ts, get-field.ts, concat.ts: `return "error"` when the input holds
        // no array or object. invert.ts and ifelse.ts return a child's error, sequence.ts too;
        // selector.ts goes on past it; tree.ts reports the root's error as failure.
        const std::string let_n = R"("name": "Let", "args": {"value": 3}, "output": ["n"])";
        auto inverted = behavior3_tree(
            sequence({let_n, R"("name": "Invert", "children": [{"id": 10, "name": "Index",
                "args": {"index": 0}, "input": ["n"], "output": ["e"]}])"}));
        agent a(inverted);
        CHECK(a.tick(0.1) == status::failure);  // Invert of a failure would succeed
        CHECK(a.interruption().empty());
        // Its status byte, like an observer, says failure: only its parent saw the error.
        CHECK(a.last_status(3) == status::failure);

        auto branches = behavior3_tree(sequence({let_n, R"("name": "IfElse", "children": [
                {"id": 10, "name": "Includes", "input": ["n", "n"]},
                {"id": 11, "name": "Let", "args": {"value": 1}, "output": ["x"]},
                {"id": 12, "name": "Let", "args": {"value": 2}, "output": ["y"]}])"}));
        agent b(branches);
        CHECK(b.tick(0.1) == status::failure);
        CHECK_FALSE(b.blackboard().is_set(b.blackboard().slot("x")));
        CHECK_FALSE(b.blackboard().is_set(b.blackboard().slot("y")));  // no else branch

        auto selector = behavior3_tree(sequence({let_n, R"("name": "Selector", "children": [
                {"id": 10, "name": "GetField", "args": {"field": "f"}, "input": ["n"],
                 "output": ["g"]},
                {"id": 11, "name": "Let", "args": {"value": 1}, "output": ["z"]}])"}));
        agent c(selector);
        CHECK(c.tick(0.1) == status::success);
        CHECK(testing::number_at(c.blackboard(), "z") == 1);

        // retry-until-success.ts: a try's error ends the node, where a failure would try again.
        auto retry = behavior3_tree(
            sequence({let_n, R"("name": "RetryUntilSuccess", "args": {"count": 5}, "children": [
                {"id": 10, "name": "Concat", "input": ["n", "n"], "output": ["c"]}])"}));
        agent d(retry);
        CHECK(d.tick(0.1) == status::failure);

        // watchdog.ts: the condition's error is the node's; the fallback does not run.
        auto watchdog = behavior3_tree(sequence({let_n, R"("name": "Watchdog", "children": [
                {"id": 10, "name": "Includes", "input": ["n", "n"]},
                {"id": 11, "name": "Let", "args": {"value": 1}, "output": ["x"]},
                {"id": 12, "name": "Let", "args": {"value": 2}, "output": ["y"]}])"}));
        agent e(watchdog);
        CHECK(e.tick(0.1) == status::failure);
        CHECK_FALSE(e.blackboard().is_set(e.blackboard().slot("y")));
    }

    TEST_CASE("Index, GetField and RandomIndex may write into their input's own variable") {
        // let.ts then index.ts: `output.push(arr[index])` replaces the array's variable with
        // its element, which must outlive the array it came from.
        auto t = behavior3_tree(sequence(
            {R"("name": "Let", "args": {"value": [[7], 2]}, "output": ["l"])",
             R"("name": "Index", "args": {"index": 0}, "input": ["l"], "output": ["l"])",
             R"("name": "Let", "args": {"value": {"hp": {"x": 3}}}, "output": ["o"])",
             R"("name": "GetField", "args": {"field": "hp"}, "input": ["o"], "output": ["o"])",
             R"("name": "Let", "args": {"value": [[5]]}, "output": ["r"])",
             R"("name": "RandomIndex", "input": ["r"], "output": ["r"])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(json_of(a, "l") == "[7]");
        CHECK(json_of(a, "o") == R"({"x":3})");
        CHECK(json_of(a, "r") == "[5]");
    }

    TEST_CASE("ForEach reads its array once per tick: a child that replaces the variable") {
        // foreach.ts reads `arr` when the node ticks; writing the element to the array's own
        // variable changes the variable, not the loop.
        auto t = behavior3_tree(
            sequence({R"("name": "Let", "args": {"value": [1, 2, 3]}, "output": ["l"])",
                      R"("name": "Let", "args": {"value": 0}, "output": ["sum"])",
                      R"("name": "ForEach", "input": ["l"], "output": ["l"], "children": [
                {"id": 10, "name": "Calculate", "args": {"value": "sum + l"},
                 "output": ["sum"]}])"}));
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "sum") == 6);
    }

    TEST_CASE("each agent has its own arrays: a tree's literal is never changed") {
        // node.ts parses an array or object argument anew at each tick: Let writes a new one.
        auto t =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [0]}, "output": ["list"])",
                                     R"("name": "Let", "args": {"value": 1}, "output": ["n"])",
                                     R"("name": "Push", "input": ["list", "n"])"}));
        agent a(t);
        agent b(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.tick(0.1) == status::success);
        CHECK(b.tick(0.1) == status::success);
        CHECK(json_of(a, "list") == "[0,1]");
        CHECK(json_of(b, "list") == "[0,1]");
    }

    TEST_CASE("a variable's array or object is shared by Let, as JavaScript shares it") {
        // let.ts pushes input 1's value itself: both variables name one array afterwards.
        auto t =
            behavior3_tree(sequence({R"("name": "Let", "args": {"value": [0]}, "output": ["a"])",
                                     R"("name": "Let", "input": ["a"], "output": ["b"])",
                                     R"("name": "Let", "args": {"value": 1}, "output": ["n"])",
                                     R"("name": "Push", "input": ["a", "n"])",
                                     R"("name": "Check", "args": {"value": "a == b"})"}));
        agent x(t);
        CHECK(x.tick(0.1) == status::success);
        CHECK(json_of(x, "b") == "[0,1]");
    }

    TEST_CASE("the nodes are read under their behavior3 names and written back under them") {
        const std::string text = R"({"name": "t", "root": {"id": 1, "name": "Sequence",
  "children": [
  {"id": 2, "name": "Let", "args": {"value": [1, 2]}, "output": ["l"]},
  {"id": 3, "name": "Index", "input": ["l", "i"], "output": ["e"]},
  {"id": 4, "name": "GetField", "args": {"field": "a"}, "input": ["o"], "output": ["v"]},
  {"id": 5, "name": "SetField", "args": {"value": 1}, "input": ["o", "f"]},
  {"id": 6, "name": "Push", "input": ["l", "e"]},
  {"id": 7, "name": "Concat", "input": ["l", "l"], "output": ["m"]},
  {"id": 8, "name": "Includes", "input": ["l", "e"]},
  {"id": 9, "name": "RandomIndex", "input": ["l"], "output": ["r"]},
  {"id": 10, "name": "Clear", "output": ["r"]},
  {"id": 11, "name": "ForEach", "input": ["l"], "output": ["x", "k"], "children": [
    {"id": 12, "name": "JustSuccess"}]}]}})";
        read_result read = info(file_format::behavior3).read(text, "t.json");
        REQUIRE(read.diagnostics.empty());
        const record_set& records = read.document.trees.front();
        for (std::size_t i = 2; i < records.size() - 1; ++i) {
            CAPTURE(i);
            CHECK(records.type_name(i).substr(0, 10) == "behavior3.");
        }
        write_result written = info(file_format::behavior3).write(read.document);
        REQUIRE(written.problems.empty());
        for (const char* name : {"Index", "GetField", "SetField", "Push", "Concat", "Includes",
                                 "RandomIndex", "Clear", "ForEach"}) {
            CHECK(written.text.find(std::string(R"("name": ")") + name + "\"") !=
                  std::string::npos);
        }
        CHECK(written.text.find(R"("input": ["l", "i"])") != std::string::npos);
        read_result again = info(file_format::behavior3).read(written.text, "t.json");
        REQUIRE(again.diagnostics.empty());
        const record_set& back = again.document.trees.front();
        REQUIRE(back.size() == records.size());
        for (std::size_t i = 0; i < records.size(); ++i)
            CHECK(back.type_name(i) == records.type_name(i));
        CHECK(try_load_text(text, file_format::behavior3, testing::test_registry(), "t.json"));
    }
}
