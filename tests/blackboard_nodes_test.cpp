// UnsetBlackboard, WasEntryUpdated, SkipUnlessUpdated and WaitValueUpdate, as
// BehaviorTree.CPP 4 runs them.
#include <algorithm>
#include <deque>

#include "runtime_support.hpp"

using namespace canopy;
using testing::leaf;
using testing::record;
using testing::run;

namespace {

std::shared_ptr<const tree> make_tree(const std::vector<std::string>& records) {
    std::string nodes = testing::json_tree(records);
    load_result loaded =
        try_load_text(R"({"blackboard": {"A": "integer"},)" + nodes.substr(1),
                      file_format::flat_json, testing::runtime_registry(), "t.json");
    for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(loaded);
    return loaded.tree;
}

// BehaviorTree.CPP tests/gtest_updates.cpp's "Check" tree, its records from `first` on under
// `parent`: a Sequence of Fallback(WasEntryUpdated A, TestA) and SkipUnlessUpdated A (TestB).
// TestA is leaf first + 3, TestB leaf first + 5.
std::vector<std::string> check_tree(int first, int parent) {
    return {record(first, parent, "Sequence"),
            record(first + 1, first, "Fallback"),
            record(first + 2, first + 1, "WasEntryUpdated", R"({"entry": "A"})"),
            leaf(first + 3, first + 1, "s"),
            record(first + 4, first, "SkipUnlessUpdated", R"({"entry": "A"})"),
            leaf(first + 5, first + 4, "s")};
}

int entered(const testing::script_log& log, int id) {
    return static_cast<int>(
        std::count(log.calls.begin(), log.calls.end(), "enter #" + std::to_string(id)));
}

// Ticks until the root finishes (BehaviorTree.CPP's tickWhileRunning), at most 10 times.
status tick_while_running(agent& a) {
    status result = status::running;
    for (int k = 0; k < 10 && result == status::running; ++k) result = a.tick(0.1);
    return result;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST_SUITE("blackboard nodes") {
    // BehaviorTree.CPP tests/gtest_updates.cpp, EntryUpdates: the counters of TestA (ticked
    // when A was not updated) and TestB (when it was). The status a Sequence returns after a
    // skipped child is the composites' business, tested with them.
    TEST_CASE("WasEntryUpdated and SkipUnlessUpdated see writes as BehaviorTree.CPP's do") {
        testing::script_log log;
        SUBCASE("NoEntry: a key never written is not updated") {
            agent a(make_tree(check_tree(1, 0)), &log);
            tick_while_running(a);
            CHECK(entered(log, 4) == 1);
            CHECK(entered(log, 6) == 0);
        }
        SUBCASE("Initialized: written once before the check") {
            agent a(make_tree(joined({record(1, 0, "Sequence"),
                                      record(2, 1, "SetBlackboard", R"({"key": "A", "value": 1})")},
                                     check_tree(3, 1))),
                    &log);
            tick_while_running(a);
            CHECK(entered(log, 6) == 0);
            CHECK(entered(log, 8) == 1);
        }
        SUBCASE("UpdateOnce: written once, checked twice") {
            agent a(make_tree(joined({record(1, 0, "Sequence"),
                                      record(2, 1, "SetBlackboard", R"({"key": "A", "value": 1})"),
                                      record(3, 1, "Repeat", R"({"count": 2})")},
                                     check_tree(4, 3))),
                    &log);
            tick_while_running(a);
            CHECK(entered(log, 7) == 1);
            CHECK(entered(log, 9) == 1);
        }
        SUBCASE("UpdateTwice: written before each check, the same value again") {
            agent a(make_tree(
                        joined({record(1, 0, "Repeat", R"({"count": 2})"), record(2, 1, "Sequence"),
                                record(3, 2, "SetBlackboard", R"({"key": "A", "value": 1})")},
                               check_tree(4, 2))),
                    &log);
            tick_while_running(a);
            CHECK(entered(log, 7) == 0);
            CHECK(entered(log, 9) == 2);
        }
    }

    TEST_CASE("a write by the program counts, and each node keeps its own last stamp") {
        agent a(make_tree({record(1, 0, "Sequence"),
                           record(2, 1, "WasEntryUpdated", R"({"entry": "{A}"})"),
                           record(3, 1, "WasEntryUpdated", R"({"entry": "A"})")}));
        CHECK(a.tick(0) == status::failure);
        a.blackboard().set("A", 5);
        CHECK(a.tick(0) == status::success);  // both saw the write
        CHECK(a.tick(0) == status::failure);
        a.blackboard().set("A", 5);
        a.reset();  // node state starts afresh: the first look sees stamp 2 as new
        CHECK(a.tick(0) == status::success);
    }

    TEST_CASE("SkipUnlessUpdated returns skipped without ticking; a running child goes on") {
        testing::script_log log;
        agent a(
            make_tree({record(1, 0, "SkipUnlessUpdated", R"({"entry": "A"})"), leaf(2, 1, "rs")}),
            &log);
        CHECK(a.tick(0) == status::skipped);
        CHECK(a.last_status(0) == status::skipped);
        CHECK(a.last_status(1) == status::idle);  // not ticked
        a.blackboard().set("A", 1);
        CHECK(a.tick(0) == status::running);
        CHECK(a.tick(0) == status::success);  // not updated since, but the child was running
        CHECK(a.tick(0) == status::skipped);
        CHECK(entered(log, 2) == 1);
    }

    TEST_CASE("WaitValueUpdate runs until the key is written, then ticks its child") {
        testing::script_log log;
        agent a(make_tree({record(1, 0, "WaitValueUpdate", R"({"entry": "A"})"), leaf(2, 1, "s")}),
                &log);
        CHECK(run(a, 3) == "rrr");
        CHECK(entered(log, 2) == 0);
        a.blackboard().set("A", 1);
        CHECK(run(a, 2) == "sr");
        CHECK(entered(log, 2) == 1);
    }

    TEST_CASE("UnsetBlackboard unsets the key: not updated until written again") {
        // BehaviorTree.CPP removes the entry; its WasEntryUpdated then fails and
        // SkipUnlessUpdated skips (src/actions/updated_action.cpp, no entry).
        agent a(make_tree({record(1, 0, "Sequence"),
                           record(2, 1, "SetBlackboard", R"({"key": "A", "value": 7})"),
                           record(3, 1, "UnsetBlackboard", R"({"key": "A"})"),
                           record(4, 1, "WasEntryUpdated", R"({"entry": "A"})")}));
        CHECK(a.tick(0) == status::failure);
        CHECK_FALSE(a.blackboard().is_set(a.blackboard().slot("A")));
        CHECK(a.blackboard().get<std::int64_t>("A") == 0);  // back to its initial value
        CHECK(a.last_status(3) == status::failure);
        CHECK(a.last_status(2) == status::success);
    }

    TEST_CASE("the entry must name a key the tree has") {
        CHECK(testing::only(
                  try_load_text(
                      testing::json_tree({record(1, 0, "WasEntryUpdated", R"({"entry": "nope"})")}),
                      file_format::flat_json, testing::runtime_registry(), "t.json"),
                  diagnostic_code::unknown_key)
                  .message.find("unknown blackboard key 'nope'") != std::string::npos);
    }
}

namespace {

// A loop's tree: the loop (record 1, `params`) over a Script leaf (record 2, `results`), with
// keys of the queue types and the values popped.
std::shared_ptr<const tree> loop_tree(const std::string& type, const std::string& params,
                                      const std::string& results = "s") {
    const std::string nodes = testing::json_tree({record(1, 0, type, params), leaf(2, 1, results)});
    load_result loaded = try_load_text(
        R"({"blackboard": {"ints": {"type": "queue<integer>", "default": "4;5"},
            "words": "queue<string>", "i": "integer", "d": "number", "s": "string",
            "b": "boolean"},)" +
            nodes.substr(1),
        file_format::flat_json, testing::runtime_registry(), "t.json");
    for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(loaded);
    return loaded.tree;
}

}  // namespace

TEST_SUITE("blackboard nodes") {
    // BehaviorTree.CPP include/behaviortree_cpp/decorators/loop_node.h: pops one element per
    // tick into `value` and ticks the child; running while the child succeeds, failure when
    // it fails, `if_empty` (SUCCESS) once the queue is empty.
    TEST_CASE("LoopInt pops a literal queue one element a tick, afresh each activation") {
        testing::script_log log;
        agent a(loop_tree("LoopInt", R"({"queue": "1;2;3", "value": "{i}"})"), &log);
        CHECK(a.tick(0) == status::running);
        CHECK(a.blackboard().get<std::int64_t>("i") == 1);
        CHECK(run(a, 3) == "rrs");
        CHECK(a.blackboard().get<std::int64_t>("i") == 3);
        CHECK(entered(log, 2) == 3);
        CHECK(a.tick(0) == status::running);  // entered again: the literal queue is whole
        CHECK(a.blackboard().get<std::int64_t>("i") == 1);
    }

    TEST_CASE("a loop over a key pops the key's queue in place") {
        testing::script_log log;
        agent a(loop_tree("LoopInt", R"({"queue": "{ints}", "value": "{i}"})"), &log);
        blackboard b = a.blackboard();
        using int_queue = std::deque<std::int64_t>;
        CHECK(run(a, 3) == "rrs");
        CHECK(b.get<std::int64_t>("i") == 5);
        CHECK(b.get_ref<int_queue>(b.slot("ints")).empty());
        CHECK(b.text(b.slot("ints")).empty());
        CHECK(a.tick(0) == status::success);  // still empty: nothing to pop
        b.set("ints", int_queue{9});
        CHECK(run(a, 2) == "rs");
        CHECK(b.get<std::int64_t>("i") == 9);
    }

    TEST_CASE("the child's failure ends the loop; a running child is not given a new value") {
        testing::script_log log;
        agent a(loop_tree("LoopString", R"({"queue": "a;b;c", "value": "{s}"})", "rsf"), &log);
        CHECK(a.tick(0) == status::running);  // child running with "a"
        CHECK(a.tick(0) == status::running);  // child succeeds with "a"
        CHECK(a.blackboard().get<std::string_view>("s") == "a");
        CHECK(a.tick(0) == status::failure);  // "b": the child fails
        CHECK(a.blackboard().get<std::string_view>("s") == "b");
    }

    TEST_CASE("if_empty gives the status of an empty queue: SUCCESS, FAILURE or SKIPPED") {
        testing::script_log log;
        agent empty(loop_tree("LoopDouble", R"({"queue": "", "value": "{d}"})"), &log);
        CHECK(empty.tick(0) == status::success);
        agent failing(loop_tree("LoopBool", R"({"queue": "", "if_empty": "FAILURE"})"), &log);
        CHECK(failing.tick(0) == status::failure);
        agent skipping(loop_tree("LoopString", R"({"queue": "{words}", "if_empty": "SKIPPED"})"),
                       &log);
        CHECK(skipping.tick(0) == status::skipped);
        agent reals(loop_tree("LoopDouble", R"({"queue": "0.5;1e3", "value": "{d}"})"), &log);
        CHECK(run(reals, 2) == "rr");
        CHECK(reals.blackboard().get<double>("d") == 1000.0);
        agent flags(loop_tree("LoopBool", R"({"queue": "true;0", "value": "{b}"})"), &log);
        CHECK(flags.tick(0) == status::running);
        CHECK(flags.blackboard().get<bool>("b"));
        CHECK(flags.tick(0) == status::running);
        CHECK_FALSE(flags.blackboard().get<bool>("b"));
    }

    TEST_CASE("a loop's queue is checked at load") {
        auto refusal = [](const std::string& params) {
            return testing::refusal({record(1, 0, "LoopInt", params), leaf(2, 1, "s")});
        };
        CHECK(refusal(R"({"queue": "1;x"})") ==
              "parameter 'queue' of 'LoopInt' is a queue<integer>, which '1;x' is not: cannot "
              "read 'x' as an integer");
        CHECK(refusal(R"({"queue": "1", "if_empty": "RUNNING"})") ==
              "node 1 ('LoopInt'): 'if_empty' must be SUCCESS, FAILURE or SKIPPED, not 'RUNNING'");
        CHECK(testing::only(
                  try_load_text(
                      testing::json_tree(
                          {record(1, 0, "LoopInt", R"({"queue": "{count}"})"), leaf(2, 1, "s")}),
                      file_format::flat_json, testing::runtime_registry(), "t.json"),
                  diagnostic_code::key_type_mismatch)
                  .message ==
              "parameter 'queue' of 'LoopInt' reads a queue<integer>, "
              "but blackboard key 'count' holds an integer");
    }
}
