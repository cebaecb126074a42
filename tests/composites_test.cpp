// Table-driven tests of the built-in composites: each tick's root status and every node's
// enter, exit and halt, written from the documented semantics (docs/nodes.md), which follow
// BehaviorTree.CPP 4 and, for PipelineSequence, RoundRobin and RecoveryNode, Nav2.
//
// The recorder logs a node's enter and exit when its tick returns, so in each tick a parent's
// events come after its children's, and a halt when it happens.
#include <string_view>

#include "runtime_support.hpp"

using namespace canopy;
using testing::leaf;
using testing::make;
using testing::record;
using testing::record_ticks;
using testing::refusal;
using testing::run;
using testing::script_log;
using testing::tick_result;

namespace {

constexpr status success = status::success;
constexpr status failure = status::failure;
constexpr status running = status::running;
constexpr status skipped = status::skipped;

// Compares tick by tick, so that a mismatch names its tick.
void check_ticks(const std::vector<tick_result>& actual, const std::vector<tick_result>& expected) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        INFO("tick " << k + 1);
        CHECK(actual[k] == expected[k]);
    }
}

// Runs a tree of runtime records for as many ticks as `expected` has and compares.
void expect_ticks(const std::vector<std::string>& records,
                  const std::vector<tick_result>& expected) {
    script_log log;
    agent a(testing::make(records), &log);
    check_ticks(record_ticks(a, static_cast<int>(expected.size())), expected);
    CHECK(log.violations == 0);
}

// The runtime registry with a string key "mode" as well.
registry registry_with_mode() {
    registry reg = testing::runtime_registry();
    reg.add_key("mode", param_type::string);
    return reg;
}

std::shared_ptr<const tree> make_with_mode(const std::vector<std::string>& records) {
    load_result r = try_load_text(testing::json_tree(records), file_format::flat_json,
                                  registry_with_mode(), "t.json");
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

// The root's status on each of n ticks of a tree of runtime records.
std::vector<status> roots(const std::vector<std::string>& records, int n) {
    script_log log;
    agent a(testing::make(records), &log);
    std::vector<status> out;
    for (int k = 0; k < n; ++k) out.push_back(a.tick(0.1));
    CHECK(log.violations == 0);
    return out;
}

}  // namespace

TEST_SUITE("composites") {
    // ---- Sequence, Selector and their reactive forms ------------------------------------

    TEST_CASE("Sequence resumes at the running child and starts afresh after it finishes") {
        expect_ticks({record(1, 0, "Sequence"), leaf(2, 1, "s"), leaf(3, 1, "rf"), leaf(4, 1, "s")},
                     {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                      {failure, {"exit failure #3", "exit failure #1"}},
                      {running, {"enter #2", "exit success #2", "enter #3", "enter #1"}}});
    }

    TEST_CASE("Selector resumes at the running child and succeeds with the first success") {
        expect_ticks({record(1, 0, "Selector"), leaf(2, 1, "f"), leaf(3, 1, "rs"), leaf(4, 1, "s")},
                     {{running, {"enter #2", "exit failure #2", "enter #3", "enter #1"}},
                      {success, {"exit success #3", "exit success #1"}}});
    }

    TEST_CASE("ReactiveSelector halts the running child when an earlier child succeeds") {
        expect_ticks({record(1, 0, "ReactiveSelector"), leaf(2, 1, "fs"), leaf(3, 1, "r")},
                     {{running, {"enter #2", "exit failure #2", "enter #3", "enter #1"}},
                      {success, {"enter #2", "exit success #2", "halt #3", "exit success #1"}}});
    }

    TEST_CASE("ReactiveSequence halts the running child when an earlier child fails") {
        expect_ticks({record(1, 0, "ReactiveSequence"), leaf(2, 1, "sf"), leaf(3, 1, "r")},
                     {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                      {failure, {"enter #2", "exit failure #2", "halt #3", "exit failure #1"}}});
    }

    TEST_CASE("behavior3's MemSequence, MemPriority and Priority load as their Canopy equals") {
        const std::pair<const char*, const char*> aliases[] = {
            {"MemSequence", "Sequence"},
            {"MemPriority", "Selector"},
            {"Priority", "ReactiveSelector"},
            {"Fallback", "Selector"},
            {"ReactiveFallback", "ReactiveSelector"}};
        for (const auto& [alias, name] : aliases) {
            const std::string type = alias;  // a copy: doctest's lambda cannot capture a binding
            INFO(type);
            auto t = testing::make({record(1, 0, alias), leaf(2, 1, "s")});
            CHECK(t->type_name(0) == name);
        }
    }

    // ---- Parallel -------------------------------------------------------------------------

    TEST_CASE("Parallel does not tick finished children again and starts afresh when entered") {
        // Defaults: every child must succeed (-1), one failure fails it.
        expect_ticks(
            {record(1, 0, "Parallel"), leaf(2, 1, "rs"), leaf(3, 1, "rrf"), leaf(4, 1, "r")},
            {{running, {"enter #2", "enter #3", "enter #4", "enter #1"}},
             {running, {"exit success #2"}},
             {failure, {"exit failure #3", "halt #4", "exit failure #1"}},
             {running, {"enter #2", "enter #3", "enter #4", "enter #1"}}});
    }

    TEST_CASE("Parallel stops at the child that reaches a threshold and leaves the rest unticked") {
        SUBCASE("the success threshold") {
            expect_ticks(
                {record(1, 0, "Parallel", R"({"success_threshold": 1})"), leaf(2, 1, "s"),
                 leaf(3, 1, "r")},
                {{success, {"enter #2", "exit success #2", "enter #1", "exit success #1"}}});
        }
        SUBCASE("the failure threshold halts the children still running") {
            expect_ticks(
                {record(1, 0, "Parallel"), leaf(2, 1, "r"), leaf(3, 1, "rf"), leaf(4, 1, "r")},
                {{running, {"enter #2", "enter #3", "enter #4", "enter #1"}},
                 {failure, {"exit failure #3", "halt #2", "halt #4", "exit failure #1"}}});
        }
    }

    TEST_CASE("Parallel with both thresholds reachable in one tick ends on the first child") {
        const std::string thresholds = R"({"success_threshold": 1, "failure_threshold": 1})";
        SUBCASE("a failure before a success fails it") {
            expect_ticks({record(1, 0, "Parallel", thresholds), leaf(2, 1, "rf"), leaf(3, 1, "rs")},
                         {{running, {"enter #2", "enter #3", "enter #1"}},
                          {failure, {"exit failure #2", "halt #3", "exit failure #1"}}});
        }
        SUBCASE("a success before a failure succeeds") {
            expect_ticks({record(1, 0, "Parallel", thresholds), leaf(2, 1, "rs"), leaf(3, 1, "rf")},
                         {{running, {"enter #2", "enter #3", "enter #1"}},
                          {success, {"exit success #2", "halt #3", "exit success #1"}}});
        }
    }

    TEST_CASE("Parallel counts negative thresholds back from the number of children") {
        // Three children: -2 is two of them.
        expect_ticks(
            {record(1, 0, "Parallel", R"({"success_threshold": -2, "failure_threshold": -2})"),
             leaf(2, 1, "s"), leaf(3, 1, "f"), leaf(4, 1, "rs")},
            {{running,
              {"enter #2", "exit success #2", "enter #3", "exit failure #3", "enter #4",
               "enter #1"}},
             {success, {"exit success #4", "exit success #1"}}});
    }

    TEST_CASE("Parallel fails as soon as too few children are left to reach success") {
        expect_ticks(
            {record(1, 0, "Parallel", R"({"success_threshold": 2, "failure_threshold": 3})"),
             leaf(2, 1, "f"), leaf(3, 1, "f"), leaf(4, 1, "r")},
            {{failure,
              {"enter #2", "exit failure #2", "enter #3", "exit failure #3", "enter #1",
               "exit failure #1"}}});
    }

    TEST_CASE("Parallel refuses at load a threshold its children can never reach") {
        CHECK(refusal({record(1, 0, "Parallel", R"({"success_threshold": 3})"), leaf(2, 1, "s"),
                       leaf(3, 1, "s")}) ==
              "node 1 ('Parallel'): 'success_threshold' is 3, but the node has 2 children: give 1 "
              "to 2, or -1 (all) to -2 counting back from the end");
        CHECK(refusal({record(1, 0, "Parallel", R"({"success_threshold": -3})"), leaf(2, 1, "s"),
                       leaf(3, 1, "s")}) ==
              "node 1 ('Parallel'): 'success_threshold' is -3, but the node has 2 children: give "
              "1 to 2, or -1 (all) to -2 counting back from the end");
        CHECK(refusal({record(1, 0, "Parallel", R"({"failure_threshold": 0})"), leaf(2, 1, "s")}) ==
              "node 1 ('Parallel'): 'failure_threshold' is 0, but the node has 1 child: give 1, "
              "or -1 for all");
    }

    // ---- ParallelAll ----------------------------------------------------------------------

    TEST_CASE("ParallelAll waits for every child, then fails on max_failures failures") {
        SUBCASE("one failure is enough by default") {
            expect_ticks(
                {record(1, 0, "ParallelAll"), leaf(2, 1, "s"), leaf(3, 1, "rf"), leaf(4, 1, "rrs")},
                {{running, {"enter #2", "exit success #2", "enter #3", "enter #4", "enter #1"}},
                 {running, {"exit failure #3"}},
                 {failure, {"exit success #4", "exit failure #1"}}});
        }
        SUBCASE("fewer failures than max_failures succeed") {
            expect_ticks({record(1, 0, "ParallelAll", R"({"max_failures": 2})"), leaf(2, 1, "f"),
                          leaf(3, 1, "rs")},
                         {{running, {"enter #2", "exit failure #2", "enter #3", "enter #1"}},
                          {success, {"exit success #3", "exit success #1"}}});
        }
        SUBCASE("-1 means every child must fail") {
            expect_ticks({record(1, 0, "ParallelAll", R"({"max_failures": -1})"), leaf(2, 1, "f"),
                          leaf(3, 1, "s")},
                         {{success,
                           {"enter #2", "exit failure #2", "enter #3", "exit success #3",
                            "enter #1", "exit success #1"}}});
            expect_ticks({record(1, 0, "ParallelAll", R"({"max_failures": -1})"), leaf(2, 1, "f"),
                          leaf(3, 1, "f")},
                         {{failure,
                           {"enter #2", "exit failure #2", "enter #3", "exit failure #3",
                            "enter #1", "exit failure #1"}}});
        }
    }

    TEST_CASE("ParallelAll refuses at load a max_failures of 0 or beyond its children") {
        CHECK(refusal({record(1, 0, "ParallelAll", R"({"max_failures": 0})"), leaf(2, 1, "s"),
                       leaf(3, 1, "s")}) ==
              "node 1 ('ParallelAll'): 'max_failures' is 0, but the node has 2 children: give 1 "
              "to 2, or -1 (all) to -2 counting back from the end");
        CHECK(refusal({record(1, 0, "ParallelAll", R"({"max_failures": 3})"), leaf(2, 1, "s"),
                       leaf(3, 1, "s")}) ==
              "node 1 ('ParallelAll'): 'max_failures' is 3, but the node has 2 children: give 1 "
              "to 2, or -1 (all) to -2 counting back from the end");
    }

    // ---- SequenceWithMemory ---------------------------------------------------------------

    TEST_CASE("SequenceWithMemory resumes at the failed child without re-ticking earlier ones") {
        expect_ticks({record(1, 0, "SequenceWithMemory"), leaf(2, 1, "s"), leaf(3, 1, "fs"),
                      leaf(4, 1, "s")},
                     {{running, {"enter #2", "exit success #2", "enter #1"}},
                      {failure, {"enter #3", "exit failure #3", "exit failure #1"}},
                      {running, {"enter #3", "exit success #3", "enter #1"}},
                      {success, {"enter #4", "exit success #4", "exit success #1"}},
                      {running, {"enter #2", "exit success #2", "enter #1"}}});  // all done: afresh
    }

    TEST_CASE("SequenceWithMemory goes on in the same tick after a child that was running") {
        expect_ticks({record(1, 0, "SequenceWithMemory"), leaf(2, 1, "rs"), leaf(3, 1, "s"),
                      leaf(4, 1, "s")},
                     {{running, {"enter #2", "enter #1"}},
                      {running, {"exit success #2", "enter #3", "exit success #3"}},
                      {success, {"enter #4", "exit success #4", "exit success #1"}}});
    }

    TEST_CASE("SequenceWithMemory keeps its place when a parent halts it") {
        expect_ticks(
            {record(1, 0, "ReactiveSequence"), leaf(2, 1, "ssfs"),
             record(3, 1, "SequenceWithMemory"), leaf(4, 3, "s"), leaf(5, 3, "r")},
            {{running,
              {"enter #2", "exit success #2", "enter #4", "exit success #4", "enter #3",
               "enter #1"}},
             {running, {"enter #2", "exit success #2", "enter #5"}},
             {failure, {"enter #2", "exit failure #2", "halt #5", "halt #3", "exit failure #1"}},
             {running, {"enter #2", "exit success #2", "enter #5", "enter #3", "enter #1"}}});
    }

    // ---- AsyncSequence and AsyncFallback ------------------------------------------------

    TEST_CASE("AsyncSequence ends a tick after each child that finished at once") {
        // BehaviorTree.CPP's SequenceNode made asynch: after a child that was idle and
        // succeeded, running when children are left; a failure starts it afresh.
        expect_ticks(
            {record(1, 0, "AsyncSequence"), leaf(2, 1, "s"), leaf(3, 1, "fs"), leaf(4, 1, "s")},
            {{running, {"enter #2", "exit success #2", "enter #1"}},
             {failure, {"enter #3", "exit failure #3", "exit failure #1"}},
             {running, {"enter #2", "exit success #2", "enter #1"}},
             {running, {"enter #3", "exit success #3"}},
             {success, {"enter #4", "exit success #4", "exit success #1"}}});
        // A child that was running and succeeds is followed in the same tick.
        expect_ticks(
            {record(1, 0, "AsyncSequence"), leaf(2, 1, "rs"), leaf(3, 1, "s")},
            {{running, {"enter #2", "enter #1"}},
             {success, {"exit success #2", "enter #3", "exit success #3", "exit success #1"}}});
    }

    TEST_CASE("AsyncFallback ends a tick after each child that failed at once") {
        expect_ticks({record(1, 0, "AsyncFallback"), leaf(2, 1, "f"), leaf(3, 1, "s")},
                     {{running, {"enter #2", "exit failure #2", "enter #1"}},
                      {success, {"enter #3", "exit success #3", "exit success #1"}}});
        CHECK(roots({record(1, 0, "AsyncFallback"), leaf(2, 1, "f"), leaf(3, 1, "f")}, 2) ==
              std::vector<status>{running, failure});
        CHECK(roots({record(1, 0, "AsyncSequence"), leaf(2, 1, "k"), leaf(3, 1, "k")}, 1) ==
              std::vector<status>{skipped});
    }

    TEST_CASE("AsyncSequence starts afresh after a halt") {
        // Unlike SequenceWithMemory: BehaviorTree.CPP's SequenceNode::halt resets its index.
        expect_ticks({record(1, 0, "ReactiveSequence"), leaf(2, 1, "sfs"),
                      record(3, 1, "AsyncSequence"), leaf(4, 3, "s"), leaf(5, 3, "s")},
                     {{running,
                       {"enter #2", "exit success #2", "enter #4", "exit success #4", "enter #3",
                        "enter #1"}},
                      {failure, {"enter #2", "exit failure #2", "halt #3", "exit failure #1"}},
                      {running,
                       {"enter #2", "exit success #2", "enter #4", "exit success #4", "enter #3",
                        "enter #1"}}});
    }

    // ---- IfThenElse and WhileDoElse -------------------------------------------------------

    TEST_CASE("IfThenElse runs the branch its condition chose without checking it again") {
        SUBCASE("then") {
            expect_ticks(
                {record(1, 0, "IfThenElse"), leaf(2, 1, "rs"), leaf(3, 1, "rs"), leaf(4, 1, "s")},
                {{running, {"enter #2", "enter #1"}},
                 {running, {"exit success #2", "enter #3"}},
                 {success, {"exit success #3", "exit success #1"}}});
        }
        SUBCASE("else") {
            expect_ticks(
                {record(1, 0, "IfThenElse"), leaf(2, 1, "f"), leaf(3, 1, "s"), leaf(4, 1, "rf")},
                {{running, {"enter #2", "exit failure #2", "enter #4", "enter #1"}},
                 {failure, {"exit failure #4", "exit failure #1"}}});
        }
        SUBCASE("no else: a failed condition fails it") {
            expect_ticks(
                {record(1, 0, "IfThenElse"), leaf(2, 1, "f"), leaf(3, 1, "s")},
                {{failure, {"enter #2", "exit failure #2", "enter #1", "exit failure #1"}}});
        }
    }

    TEST_CASE("WhileDoElse checks its condition on every tick and halts the branch it leaves") {
        SUBCASE("switching between do and else") {
            expect_ticks(
                {record(1, 0, "WhileDoElse"), leaf(2, 1, "sfs"), leaf(3, 1, "r"), leaf(4, 1, "r")},
                {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                 {running, {"enter #2", "exit failure #2", "halt #3", "enter #4"}},
                 {running, {"enter #2", "exit success #2", "halt #4", "enter #3"}}});
        }
        SUBCASE("no else: a failed condition halts do and fails") {
            expect_ticks(
                {record(1, 0, "WhileDoElse"), leaf(2, 1, "sf"), leaf(3, 1, "r")},
                {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                 {failure, {"enter #2", "exit failure #2", "halt #3", "exit failure #1"}}});
        }
        SUBCASE("a running condition leaves the running branch waiting") {
            expect_ticks(
                {record(1, 0, "WhileDoElse"), leaf(2, 1, "srs"), leaf(3, 1, "rrs")},
                {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                 {running, {"enter #2"}},
                 {running, {"exit success #2"}},
                 {success, {"enter #2", "exit success #2", "exit success #3", "exit success #1"}}});
        }
    }

    TEST_CASE("IfThenElse and WhileDoElse refuse at load other than two or three children") {
        for (const char* type : {"IfThenElse", "WhileDoElse"}) {
            INFO(type);
            CHECK(refusal({record(1, 0, type), leaf(2, 1, "s")}) ==
                  "node 1 ('" + std::string(type) +
                      "'): it takes 2 children (condition, then) or 3 (condition, then, else), "
                      "not 1");
            CHECK(refusal({record(1, 0, type), leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s"),
                           leaf(5, 1, "s")}) ==
                  "node 1 ('" + std::string(type) +
                      "'): it takes 2 children (condition, then) or 3 (condition, then, else), "
                      "not 4");
        }
    }

    // ---- Switch ---------------------------------------------------------------------------

    TEST_CASE("Switch2 on an integer key ticks the matching case and halts the branch it left") {
        script_log log;
        agent a(testing::make({record(1, 0, "Switch2",
                                      R"({"variable": "count", "case_1": "1", "case_2": "2"})"),
                               leaf(2, 1, "r"), leaf(3, 1, "r"), leaf(4, 1, "r")}),
                &log);
        check_ticks(record_ticks(a, 1), {{running, {"enter #4", "enter #1"}}});  // 0: default
        a.blackboard().set("count", std::int64_t{2});
        check_ticks(record_ticks(a, 1), {{running, {"halt #4", "enter #3"}}});
        a.blackboard().set("count", std::int64_t{1});
        check_ticks(record_ticks(a, 2), {{running, {"halt #3", "enter #2"}}, {running, {}}});
        CHECK(log.violations == 0);
    }

    TEST_CASE("Switch3 on a number key compares cases by value") {
        script_log log;
        agent a(testing::make({record(1, 0, "Switch3",
                                      R"({"variable": "{health}", "case_1": "0.5", )"
                                      R"("case_2": "1", "case_3": "abc"})"),
                               leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s"), leaf(5, 1, "s")}),
                &log);
        const std::pair<double, const char*> cases[] = {
            {1.0, "#3"}, {0.5, "#2"}, {2.0, "#5"}, {0.0, "#5"}};
        for (const auto& [health, child] : cases) {
            const double value = health;  // a copy: doctest's lambda cannot capture a binding
            INFO("health " << value);
            a.blackboard().set("health", health);
            check_ticks(record_ticks(a, 1),
                        {{success,
                          {"enter " + std::string(child), "exit success " + std::string(child),
                           "enter #1", "exit success #1"}}});
        }
    }

    TEST_CASE("Switch2 on an integer key matches a case written as an equal number") {
        script_log log;
        agent a(testing::make({record(1, 0, "Switch2",
                                      R"({"variable": "count", "case_1": "x", "case_2": "3.0"})"),
                               leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")}),
                &log);
        a.blackboard().set("count", std::int64_t{3});
        check_ticks(record_ticks(a, 1),
                    {{success, {"enter #3", "exit success #3", "enter #1", "exit success #1"}}});
    }

    TEST_CASE("Switch2 on a boolean key matches the cases true and false") {
        script_log log;
        agent a(testing::make({record(1, 0, "Switch2",
                                      R"({"variable": "alarm", "case_1": "true", )"
                                      R"("case_2": "false"})"),
                               leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")}),
                &log);
        check_ticks(record_ticks(a, 1),
                    {{success, {"enter #3", "exit success #3", "enter #1", "exit success #1"}}});
        a.blackboard().set("alarm", true);
        check_ticks(record_ticks(a, 1),
                    {{success, {"enter #2", "exit success #2", "enter #1", "exit success #1"}}});
    }

    TEST_CASE("Switch2 on a string key compares the text exactly") {
        script_log log;
        agent a(make_with_mode({record(1, 0, "Switch2",
                                       R"({"variable": "mode", "case_1": "walk", )"
                                       R"("case_2": "run"})"),
                                leaf(2, 1, "r"), leaf(3, 1, "r"), leaf(4, 1, "r")}),
                &log);
        a.blackboard().set("mode", std::string_view("run"));
        check_ticks(record_ticks(a, 1), {{running, {"enter #3", "enter #1"}}});
        a.blackboard().set("mode", std::string_view("Run"));  // no case: the default
        check_ticks(record_ticks(a, 1), {{running, {"halt #3", "enter #4"}}});
        a.blackboard().set("mode", std::string_view("walk"));
        check_ticks(record_ticks(a, 1), {{running, {"halt #4", "enter #2"}}});
        CHECK(log.violations == 0);
    }

    TEST_CASE("Switch2 on a string key compares numbers' text as numbers, as BehaviorTree.CPP") {
        script_log log;
        agent a(make_with_mode({record(1, 0, "Switch2",
                                       R"({"variable": "mode", "case_1": "1", )"
                                       R"("case_2": "0.5"})"),
                                leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")}),
                &log);
        const std::pair<const char*, const char*> cases[] = {{"1", "#2"},    {"1.0", "#2"},
                                                             {"01", "#2"},   {"0.50000001", "#3"},
                                                             {"1abc", "#4"}, {"", "#4"}};
        for (const auto& [mode, child] : cases) {
            const std::string value = mode;  // a copy: doctest's lambda cannot capture a binding
            INFO("mode " << value);
            a.blackboard().set("mode", std::string_view(mode));
            check_ticks(record_ticks(a, 1),
                        {{success,
                          {"enter " + std::string(child), "exit success " + std::string(child),
                           "enter #1", "exit success #1"}}});
        }
    }

    TEST_CASE("Switch takes its cases from one string separated by semicolons") {
        script_log log;
        agent a(make_with_mode(
                    {record(1, 0, "Switch", R"({"variable": "mode", "cases": "idle; walk ;run"})"),
                     leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s"), leaf(5, 1, "s")}),
                &log);
        const std::pair<const char*, const char*> cases[] = {
            {"idle", "#2"}, {"walk", "#3"}, {"run", "#4"}, {"swim", "#5"}, {"", "#5"}};
        for (const auto& [mode, child] : cases) {
            const std::string value = mode;  // a copy: doctest's lambda cannot capture a binding
            INFO("mode '" << value << "'");
            a.blackboard().set("mode", std::string_view(mode));
            check_ticks(record_ticks(a, 1),
                        {{success,
                          {"enter " + std::string(child), "exit success " + std::string(child),
                           "enter #1", "exit success #1"}}});
        }
    }

    TEST_CASE("the switches refuse at load a child count other than their cases and a default") {
        CHECK(refusal({record(1, 0, "Switch3",
                              R"({"variable": "count", "case_1": "1", "case_2": "2", )"
                              R"("case_3": "3"})"),
                       leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")}) ==
              "node 1 ('Switch3'): 3 cases (case_1 to case_3) need 4 children, one per case and "
              "the default last, not 3");
        CHECK(refusal({record(1, 0, "Switch", R"({"variable": "count", "cases": "1;2"})"),
                       leaf(2, 1, "s"), leaf(3, 1, "s")}) ==
              "node 1 ('Switch'): 2 cases ('cases' is \"1;2\") need 3 children, one per case and "
              "the default last, not 2");
        CHECK(refusal({record(1, 0, "Switch", R"({"variable": "count", "cases": "1"})"),
                       leaf(2, 1, "s")}) ==
              "node 1 ('Switch'): 1 case ('cases' is \"1\") needs 2 children, one per case and "
              "the default last, not 1");
    }

    // ---- Nav2: PipelineSequence, RoundRobin, RecoveryNode ---------------------------------

    TEST_CASE("PipelineSequence re-ticks earlier children while a later one runs") {
        expect_ticks({record(1, 0, "PipelineSequence"), leaf(2, 1, "rs"), leaf(3, 1, "rrs"),
                      leaf(4, 1, "s")},
                     {{running, {"enter #2", "enter #1"}},
                      {running, {"exit success #2", "enter #3"}},
                      {running, {"enter #2"}},  // #2 runs again while #3 runs
                      {success,
                       {"exit success #2", "exit success #3", "enter #4", "exit success #4",
                        "exit success #1"}}});
    }

    TEST_CASE("PipelineSequence fails on a failure and halts the children still running") {
        expect_ticks({record(1, 0, "PipelineSequence"), leaf(2, 1, "srf"), leaf(3, 1, "r")},
                     {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                      {running, {"enter #2"}},
                      {failure, {"exit failure #2", "halt #3", "exit failure #1"}}});
    }

    TEST_CASE("RoundRobin starts each run at the child after the last one that succeeded") {
        expect_ticks(
            {record(1, 0, "RoundRobin"), leaf(2, 1, "s"), leaf(3, 1, "fs"), leaf(4, 1, "s")},
            {{success, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
             {success,
              {"enter #3", "exit failure #3", "enter #4", "exit success #4", "enter #1",
               "exit success #1"}},
             {success, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
             {success, {"enter #3", "exit success #3", "enter #1", "exit success #1"}}});
    }

    TEST_CASE("RoundRobin fails past its last child unless wrap_around is set") {
        SUBCASE("wrap_around false (the default): the next run starts at the first child") {
            expect_ticks({record(1, 0, "RoundRobin"), leaf(2, 1, "sf"), leaf(3, 1, "f")},
                         {{success, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
                          {failure, {"enter #3", "exit failure #3", "enter #1", "exit failure #1"}},
                          {failure,
                           {"enter #2", "exit failure #2", "enter #3", "exit failure #3",
                            "enter #1", "exit failure #1"}}});
        }
        SUBCASE("wrap_around true: it goes round until every child has failed once") {
            expect_ticks({record(1, 0, "RoundRobin", R"({"wrap_around": true})"), leaf(2, 1, "sf"),
                          leaf(3, 1, "f")},
                         {{success, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
                          {failure,
                           {"enter #3", "exit failure #3", "enter #2", "exit failure #2",
                            "enter #1", "exit failure #1"}}});
        }
    }

    TEST_CASE("RoundRobin starts at its first child again after a parent halts it") {
        expect_ticks(
            {record(1, 0, "ReactiveSequence"), leaf(2, 1, "ssfs"), record(3, 1, "RoundRobin"),
             leaf(4, 3, "s"), leaf(5, 3, "r")},
            {{success,
              {"enter #2", "exit success #2", "enter #4", "exit success #4", "enter #3",
               "exit success #3", "enter #1", "exit success #1"}},
             {running, {"enter #2", "exit success #2", "enter #5", "enter #3", "enter #1"}},
             {failure, {"enter #2", "exit failure #2", "halt #5", "halt #3", "exit failure #1"}},
             {success,
              {"enter #2", "exit success #2", "enter #4", "exit success #4", "enter #3",
               "exit success #3", "enter #1", "exit success #1"}}});
    }

    TEST_CASE("RecoveryNode runs the recovery after a failure and retries in the same tick") {
        expect_ticks({record(1, 0, "RecoveryNode"), leaf(2, 1, "fs"), leaf(3, 1, "s")},
                     {{success,
                       {"enter #2", "exit failure #2", "enter #3", "exit success #3", "enter #2",
                        "exit success #2", "enter #1", "exit success #1"}}});
    }

    TEST_CASE("RecoveryNode fails when its retries are spent and counts afresh in each run") {
        const std::vector<tick_result> one_run = {
            {failure,
             {"enter #2", "exit failure #2", "enter #3", "exit success #3", "enter #2",
              "exit failure #2", "enter #1", "exit failure #1"}}};
        std::vector<tick_result> two_runs = one_run;
        two_runs.push_back(one_run.front());
        expect_ticks({record(1, 0, "RecoveryNode"), leaf(2, 1, "f"), leaf(3, 1, "s")}, two_runs);
    }

    TEST_CASE("RecoveryNode does not reset its count while the retried child runs") {
        expect_ticks({record(1, 0, "RecoveryNode"), leaf(2, 1, "frf"), leaf(3, 1, "s")},
                     {{running,
                       {"enter #2", "exit failure #2", "enter #3", "exit success #3", "enter #2",
                        "enter #1"}},
                      {failure, {"exit failure #2", "exit failure #1"}}});
    }

    TEST_CASE("RecoveryNode fails when the recovery fails") {
        expect_ticks({record(1, 0, "RecoveryNode", R"({"number_of_retries": 3})"), leaf(2, 1, "f"),
                      leaf(3, 1, "rf")},
                     {{running, {"enter #2", "exit failure #2", "enter #3", "enter #1"}},
                      {failure, {"exit failure #3", "exit failure #1"}}});
    }

    TEST_CASE("RecoveryNode with no retries fails without running the recovery") {
        expect_ticks({record(1, 0, "RecoveryNode", R"({"number_of_retries": 0})"), leaf(2, 1, "f"),
                      leaf(3, 1, "s")},
                     {{failure, {"enter #2", "exit failure #2", "enter #1", "exit failure #1"}}});
    }

    TEST_CASE("RecoveryNode refuses at load other than two children and negative retries") {
        CHECK(refusal({record(1, 0, "RecoveryNode"), leaf(2, 1, "s"), leaf(3, 1, "s"),
                       leaf(4, 1, "s")}) ==
              "node 1 ('RecoveryNode'): it takes 2 children (the action, then its recovery), "
              "not 3");
        CHECK(refusal({record(1, 0, "RecoveryNode", R"({"number_of_retries": -1})"),
                       leaf(2, 1, "s"), leaf(3, 1, "s")}) ==
              "node 1 ('RecoveryNode'): 'number_of_retries' must be from 0 to 4294967295");
    }

    // ---- BehaviorTree.CPP 4.10: TryCatch ---------------------------------------------------

    TEST_CASE("TryCatch runs its try block as a Sequence in one tick and leaves the catch") {
        expect_ticks({record(1, 0, "TryCatch"), leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")},
                     {{success,
                       {"enter #2", "exit success #2", "enter #3", "exit success #3", "enter #1",
                        "exit success #1"}}});
    }

    TEST_CASE("TryCatch resumes the running try child and goes on past it in the same tick") {
        expect_ticks(
            {record(1, 0, "TryCatch"), leaf(2, 1, "rs"), leaf(3, 1, "s"), leaf(4, 1, "s")},
            {{running, {"enter #2", "enter #1"}},
             {success, {"exit success #2", "enter #3", "exit success #3", "exit success #1"}}});
    }

    TEST_CASE("TryCatch ticks the catch in the tick of the failure and fails once it finishes") {
        expect_ticks({record(1, 0, "TryCatch"), leaf(2, 1, "f"), leaf(3, 1, "s"), leaf(4, 1, "rs")},
                     {{running, {"enter #2", "exit failure #2", "enter #4", "enter #1"}},
                      {failure, {"exit success #4", "exit failure #1"}}});
        // A catch that fails fails the node too, and the next run starts at the try block.
        expect_ticks({record(1, 0, "TryCatch"), leaf(2, 1, "sf"), leaf(3, 1, "f"), leaf(4, 1, "f")},
                     {{failure,
                       {"enter #2", "exit success #2", "enter #3", "exit failure #3", "enter #4",
                        "exit failure #4", "enter #1", "exit failure #1"}},
                      {failure,
                       {"enter #2", "exit failure #2", "enter #4", "exit failure #4", "enter #1",
                        "exit failure #1"}}});
    }

    TEST_CASE("TryCatch with catch_on_halt ticks the catch when halted in the try block") {
        testing::script_log log;
        agent a(make({record(1, 0, "TryCatch", R"({"catch_on_halt": true})"), leaf(2, 1, "r"),
                      leaf(3, 1, "r")}),
                &log, 1);
        CHECK(run(a, 1) == "r");
        log.calls.clear();
        a.halt();
        // The try child is halted first, then the catch runs once, and is halted in turn.
        CHECK(log.calls == std::vector<std::string>{"halt #2", "enter #3", "halt #3"});
        // Without it, or halted while the catch runs, a halt ticks nothing.
        testing::script_log plain_log;
        agent plain(make({record(1, 0, "TryCatch"), leaf(2, 1, "r"), leaf(3, 1, "s")}), &plain_log,
                    1);
        run(plain, 1);
        plain_log.calls.clear();
        plain.halt();
        CHECK(plain_log.calls == std::vector<std::string>{"halt #2"});
        testing::script_log catching_log;
        agent catching(make({record(1, 0, "TryCatch", R"({"catch_on_halt": true})"),
                             leaf(2, 1, "f"), leaf(3, 1, "r")}),
                       &catching_log, 1);
        CHECK(run(catching, 1) == "r");
        catching_log.calls.clear();
        catching.halt();
        CHECK(catching_log.calls == std::vector<std::string>{"halt #3"});
    }

    TEST_CASE("TryCatch refuses at load fewer than two children, as BehaviorTree.CPP does") {
        CHECK(refusal({record(1, 0, "TryCatch"), leaf(2, 1, "s")}) ==
              "node 1 ('TryCatch'): it takes 2 or more children (the try block, then the catch), "
              "not 1");
    }

    TEST_CASE("RandomSelector starts at a child drawn from the agent's seeded generator") {
        auto t = make(
            {record(1, 0, "RandomSelector"), leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")});
        std::map<std::string, int> first_tried;
        for (std::uint64_t seed = 0; seed < 300; ++seed) {
            testing::script_log log;
            agent a(t, &log, seed);
            CHECK(run(a, 1) == "s");
            REQUIRE(log.calls.size() == 2);
            ++first_tried[log.calls[0]];
            testing::script_log again;
            agent same(t, &again, seed);
            run(same, 1);
            CHECK(again.calls == log.calls);  // the same seed, the same choice
        }
        CHECK(first_tried.size() == 3);
        for (const auto& [call, times] : first_tried) CHECK(times > 60);
        testing::script_log log;
        agent failing(make({record(1, 0, "RandomSelector"), leaf(2, 1, "f"), leaf(3, 1, "f")}),
                      &log, 7);
        CHECK(run(failing, 1) == "f");  // it tries every child before failing
        CHECK(log.enters == 2);
    }

    // ---- Skipped children ------------------------------------------------------------------
    // A leaf "k" returns skipped. BehaviorTree.CPP 4 moves past a SKIPPED child in every
    // composite, and a composite whose children were all skipped returns SKIPPED.

    // BehaviorTree.CPP src/controls/sequence_node.cpp, fallback_node.cpp: "It was requested to
    // skip this node"; "Skip if ALL the nodes have been skipped".
    TEST_CASE("Sequence and Selector move past a skipped child and are skipped if all are") {
        expect_ticks({record(1, 0, "Sequence"), leaf(2, 1, "k"), leaf(3, 1, "s")},
                     {{success,
                       {"enter #2", "exit skipped #2", "enter #3", "exit success #3", "enter #1",
                        "exit success #1"}}});
        expect_ticks({record(1, 0, "Sequence"), leaf(2, 1, "k"), leaf(3, 1, "k")},
                     {{skipped,
                       {"enter #2", "exit skipped #2", "enter #3", "exit skipped #3", "enter #1",
                        "exit skipped #1"}}});
        CHECK(roots({record(1, 0, "Selector"), leaf(2, 1, "k"), leaf(3, 1, "f")}, 1) ==
              std::vector<status>{failure});
        CHECK(roots({record(1, 0, "Selector"), leaf(2, 1, "k"), leaf(3, 1, "s")}, 1) ==
              std::vector<status>{success});
        CHECK(roots({record(1, 0, "Selector"), leaf(2, 1, "k"), leaf(3, 1, "k")}, 1) ==
              std::vector<status>{skipped});
    }

    TEST_CASE("Sequence counts the skipped children of the whole run, across ticks") {
        // #2 is skipped and #3 runs; next tick #3 is resumed, then #4 is skipped: success.
        CHECK(roots({record(1, 0, "Sequence"), leaf(2, 1, "k"), leaf(3, 1, "rs"), leaf(4, 1, "k")},
                    2) == std::vector<status>{running, success});
        // A Repeat that runs, then is skipped with its child: every child of the run was
        // skipped, as BehaviorTree.CPP's skipped_count_ (kept while the node is active) says.
        CHECK(roots({record(1, 0, "Sequence"), leaf(2, 1, "k"),
                     record(3, 1, "Repeat", R"({"count": 2})"), leaf(4, 3, "sk")},
                    2) == std::vector<status>{running, skipped});
        CHECK(roots({record(1, 0, "Sequence"), leaf(2, 1, "s"),
                     record(3, 1, "Repeat", R"({"count": 2})"), leaf(4, 3, "sk")},
                    2) == std::vector<status>{running, success});
        CHECK(roots({record(1, 0, "Selector"), leaf(2, 1, "k"),
                     record(3, 1, "Repeat", R"({"count": 2})"), leaf(4, 3, "sk")},
                    2) == std::vector<status>{running, skipped});
    }

    // BehaviorTree.CPP src/controls/reactive_sequence.cpp, reactive_fallback.cpp.
    TEST_CASE("ReactiveSequence and ReactiveSelector move past skipped children") {
        for (const char* type : {"ReactiveSequence", "ReactiveSelector"}) {
            CAPTURE(type);
            CHECK(roots({record(1, 0, type), leaf(2, 1, "k"), leaf(3, 1, "r")}, 1) ==
                  std::vector<status>{running});
            CHECK(roots({record(1, 0, type), leaf(2, 1, "k"), leaf(3, 1, "k")}, 1) ==
                  std::vector<status>{skipped});
        }
        CHECK(roots({record(1, 0, "ReactiveSequence"), leaf(2, 1, "k"), leaf(3, 1, "s")}, 1) ==
              std::vector<status>{success});
        CHECK(roots({record(1, 0, "ReactiveSelector"), leaf(2, 1, "k"), leaf(3, 1, "f")}, 1) ==
              std::vector<status>{failure});
    }

    // BehaviorTree.CPP src/controls/parallel_node.cpp: a skipped child is not completed (it is
    // ticked again), counts toward a negative success threshold, and all skipped is SKIPPED.
    TEST_CASE("Parallel ticks a skipped child again and counts it toward a negative threshold") {
        // success_threshold -1 (all): one success and one skip are enough.
        expect_ticks({record(1, 0, "Parallel"), leaf(2, 1, "k"), leaf(3, 1, "s")},
                     {{success,
                       {"enter #2", "exit skipped #2", "enter #3", "exit success #3", "enter #1",
                        "exit success #1"}}});
        // A threshold of 2 counts successes only: #2 is ticked again until it succeeds.
        expect_ticks(
            {record(1, 0, "Parallel", R"({"success_threshold": 2})"), leaf(2, 1, "ks"),
             leaf(3, 1, "s")},
            {{running, {"enter #2", "exit skipped #2", "enter #3", "exit success #3", "enter #1"}},
             {success, {"enter #2", "exit success #2", "exit success #1"}}});
        // All skipped: with a negative threshold the skips reach it, so success, as in
        // BehaviorTree.CPP (the threshold is checked before the all-skipped rule); with a
        // positive one the node is skipped.
        CHECK(roots({record(1, 0, "Parallel"), leaf(2, 1, "k"), leaf(3, 1, "k")}, 1) ==
              std::vector<status>{success});
        CHECK(roots({record(1, 0, "Parallel", R"({"success_threshold": 1})"), leaf(2, 1, "k"),
                     leaf(3, 1, "k")},
                    1) == std::vector<status>{skipped});
        CHECK(roots({record(1, 0, "Parallel"), leaf(2, 1, "k"), leaf(3, 1, "f")}, 1) ==
              std::vector<status>{failure});
    }

    // BehaviorTree.CPP src/controls/parallel_all_node.cpp: skipped children count as done.
    TEST_CASE("ParallelAll takes a skipped child as done and is skipped if all are") {
        CHECK(roots({record(1, 0, "ParallelAll"), leaf(2, 1, "k"), leaf(3, 1, "rs")}, 2) ==
              std::vector<status>{running, success});
        CHECK(roots({record(1, 0, "ParallelAll"), leaf(2, 1, "k"), leaf(3, 1, "f")}, 1) ==
              std::vector<status>{failure});
        CHECK(roots({record(1, 0, "ParallelAll"), leaf(2, 1, "k"), leaf(3, 1, "k")}, 1) ==
              std::vector<status>{skipped});
    }

    // BehaviorTree.CPP src/controls/sequence_with_memory_node.cpp: a skipped child moves on
    // in the same tick (no wake-up), all skipped is SKIPPED.
    TEST_CASE("SequenceWithMemory moves past a skipped child in the same tick") {
        CHECK(roots({record(1, 0, "SequenceWithMemory"), leaf(2, 1, "k"), leaf(3, 1, "s"),
                     leaf(4, 1, "s")},
                    2) == std::vector<status>{running, success});
        CHECK(roots({record(1, 0, "SequenceWithMemory"), leaf(2, 1, "k"), leaf(3, 1, "k")}, 2) ==
              std::vector<status>{skipped, skipped});
    }

    TEST_CASE("IfThenElse and WhileDoElse are skipped with their condition or branch") {
        for (const char* type : {"IfThenElse", "WhileDoElse"}) {
            CAPTURE(type);
            CHECK(roots({record(1, 0, type), leaf(2, 1, "k"), leaf(3, 1, "s"), leaf(4, 1, "s")},
                        1) == std::vector<status>{skipped});
            CHECK(roots({record(1, 0, type), leaf(2, 1, "f"), leaf(3, 1, "s"), leaf(4, 1, "k")},
                        1) == std::vector<status>{skipped});
        }
        // WhileDoElse halts the running branch when its condition is skipped.
        expect_ticks({record(1, 0, "WhileDoElse"), leaf(2, 1, "sk"), leaf(3, 1, "r")},
                     {{running, {"enter #2", "exit success #2", "enter #3", "enter #1"}},
                      {skipped, {"enter #2", "exit skipped #2", "halt #3", "exit skipped #1"}}});
    }

    TEST_CASE("a switch is skipped when the branch it ticks is") {
        auto t = make_with_mode(
            {record(1, 0, "Switch2", R"({"variable": "mode", "case_1": "a", "case_2": "b"})"),
             leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "k")});
        script_log log;
        agent a(t, &log);
        CHECK(a.tick(0.1) == skipped);  // "" matches no case: the default, #4
    }

    TEST_CASE("PipelineSequence and RoundRobin move past skipped children") {
        CHECK(roots({record(1, 0, "PipelineSequence"), leaf(2, 1, "k"), leaf(3, 1, "s")}, 1) ==
              std::vector<status>{success});
        CHECK(roots({record(1, 0, "PipelineSequence"), leaf(2, 1, "k"), leaf(3, 1, "k")}, 1) ==
              std::vector<status>{skipped});
        CHECK(roots({record(1, 0, "RoundRobin"), leaf(2, 1, "k"), leaf(3, 1, "s")}, 1) ==
              std::vector<status>{success});
        CHECK(roots({record(1, 0, "RoundRobin"), leaf(2, 1, "k"), leaf(3, 1, "f")}, 1) ==
              std::vector<status>{failure});
        CHECK(roots({record(1, 0, "RoundRobin", R"({"wrap_around": true})"), leaf(2, 1, "k"),
                     leaf(3, 1, "k")},
                    1) == std::vector<status>{skipped});
    }

    // Nav2 nav2_behavior_tree/plugins/control/recovery_node.cpp: "If first child is skipped,
    // the entire branch is considered skipped"; a skipped recovery means no recovery was
    // possible: FAILURE, not counted as a retry.
    TEST_CASE("RecoveryNode is skipped with its first child and fails on a skipped recovery") {
        CHECK(roots({record(1, 0, "RecoveryNode"), leaf(2, 1, "k"), leaf(3, 1, "s")}, 1) ==
              std::vector<status>{skipped});
        expect_ticks({record(1, 0, "RecoveryNode"), leaf(2, 1, "f"), leaf(3, 1, "k")},
                     {{failure,
                       {"enter #2", "exit failure #2", "enter #3", "exit skipped #3", "enter #1",
                        "exit failure #1"}}});
    }

    TEST_CASE("RandomSelector moves past skipped children and is skipped if all are") {
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            CAPTURE(seed);
            auto t = make({record(1, 0, "RandomSelector"), leaf(2, 1, "k"), leaf(3, 1, "f")});
            script_log log;
            agent a(t, &log, seed);
            CHECK(a.tick(0.1) == failure);
            agent b(make({record(1, 0, "RandomSelector"), leaf(2, 1, "k"), leaf(3, 1, "k")}), &log,
                    seed);
            CHECK(b.tick(0.1) == skipped);
        }
    }

    TEST_CASE("RandomSelector resumed after skipped children is skipped if the rest are too") {
        // The children tried before the running one in an earlier tick tell by their status
        // bytes that they were skipped. Each seed starts at #2 or #3: from #2, #2 is skipped
        // and #3 runs, then #3 is skipped; from #3, #3 runs, then #3 and #2 are skipped.
        int started_at_skipped = 0;
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            CAPTURE(seed);
            script_log log;
            agent a(make({record(1, 0, "RandomSelector"), leaf(2, 1, "k"), leaf(3, 1, "rk")}), &log,
                    seed);
            CHECK(a.tick(0.1) == running);
            started_at_skipped += a.last_status(1) == skipped ? 1 : 0;
            CHECK(a.tick(0.1) == skipped);
            CHECK(log.violations == 0);
        }
        CHECK(started_at_skipped > 0);
        CHECK(started_at_skipped < 8);
    }
}
