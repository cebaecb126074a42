// Table-driven tests of the built-in decorators: each tick's root status and every node's
// enter, exit and halt, written from the documented semantics (docs/nodes.md).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

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

using tick_results = std::vector<tick_result>;
constexpr status S = status::success;
constexpr status F = status::failure;
constexpr status R = status::running;
constexpr status K = status::skipped;

// One tick of an agent, recorded.
tick_result step(agent& a, double dt = 0.1) {
    return record_ticks(a, 1, dt).front();
}

}  // namespace

TEST_SUITE("decorators") {
    TEST_CASE("Not (Inverter) swaps success and failure and passes running through") {
        script_log log;
        agent a(make({record(1, 0, "Inverter"), leaf(2, 1, "srf")}), &log);
        CHECK(record_ticks(a, 3) ==
              tick_results{{F, {"enter #2", "exit success #2", "enter #1", "exit failure #1"}},
                           {R, {"enter #2", "enter #1"}},
                           {S, {"exit failure #2", "exit success #1"}}});
    }

    TEST_CASE("ForceSuccess and ForceFailure replace a finished child's result, not running") {
        script_log log;
        agent a(make({record(1, 0, "ForceSuccess"), leaf(2, 1, "frs")}), &log);
        CHECK(record_ticks(a, 3) ==
              tick_results{{S, {"enter #2", "exit failure #2", "enter #1", "exit success #1"}},
                           {R, {"enter #2", "enter #1"}},
                           {S, {"exit success #2", "exit success #1"}}});
        agent b(make({record(1, 0, "ForceFailure"), leaf(2, 1, "s")}), &log);
        CHECK(record_ticks(b, 1) ==
              tick_results{{F, {"enter #2", "exit success #2", "enter #1", "exit failure #1"}}});
    }

    TEST_CASE("Repeat runs one iteration per tick of a child that finishes when entered") {
        script_log log;
        agent a(make({record(1, 0, "Repeat", R"({"count": 3})"), leaf(2, 1, "s")}), &log);
        CHECK(record_ticks(a, 4) ==
              tick_results{
                  {R, {"enter #2", "exit success #2", "enter #1"}},
                  {R, {"enter #2", "exit success #2"}},
                  {S, {"enter #2", "exit success #2", "exit success #1"}},  // the last at once
                  {R, {"enter #2", "exit success #2", "enter #1"}}});       // counting afresh
    }

    TEST_CASE("Repeat starts the next iteration in the same tick after one that ran across ticks") {
        script_log log;
        // The child's results: r s | s | r s | s ...: iterations of 2, 1, 2, 1 ticks.
        agent a(make({record(1, 0, "Repeat", R"({"count": 3})"), leaf(2, 1, "rss")}), &log);
        CHECK(record_ticks(a, 4) ==
              tick_results{{R, {"enter #2", "enter #1"}},
                           // the first iteration ends, the second is entered and ends: yield
                           {R, {"exit success #2", "enter #2", "exit success #2"}},
                           {R, {"enter #2"}},
                           {S, {"exit success #2", "exit success #1"}}});
        agent b(make({record(1, 0, "Repeat", R"({"count": 2})"), leaf(2, 1, "rs")}), &log);
        CHECK(record_ticks(b, 3) == tick_results{{R, {"enter #2", "enter #1"}},
                                                 {R, {"exit success #2", "enter #2"}},
                                                 {S, {"exit success #2", "exit success #1"}}});
    }

    TEST_CASE("Repeat fails as soon as its child fails, and counts afresh after") {
        script_log log;
        agent a(make({record(1, 0, "Repeat", R"({"count": 2})"), leaf(2, 1, "rsf")}), &log);
        CHECK(
            record_ticks(a, 3) ==
            tick_results{{R, {"enter #2", "enter #1"}},
                         {F, {"exit success #2", "enter #2", "exit failure #2", "exit failure #1"}},
                         {R, {"enter #2", "enter #1"}}});
    }

    TEST_CASE("Repeat with count 0 succeeds at once without ticking its child") {
        script_log log;
        agent a(make({record(1, 0, "Repeat", R"({"count": 0})"), leaf(2, 1, "f")}), &log);
        CHECK(record_ticks(a, 2) == tick_results{{S, {"enter #1", "exit success #1"}},
                                                 {S, {"enter #1", "exit success #1"}}});
        CHECK(log.enters == 0);
    }

    TEST_CASE("Repeat with a huge count or -1 does one iteration per tick and never stalls") {
        for (const char* count : {"4294967295", "-1", "9223372036854775807"}) {
            CAPTURE(count);
            agent a(make({record(1, 0, "Repeat", std::string(R"({"count": )") + count + "}"),
                          record(2, 1, "AlwaysSuccess")}));
            CHECK(record_ticks(a, 2) ==
                  tick_results{{R, {"enter #2", "exit success #2", "enter #1"}},
                               {R, {"enter #2", "exit success #2"}}});
            int running = 0;
            for (int k = 0; k < 10000; ++k) running += a.tick(0.1) == R ? 1 : 0;
            CHECK(running == 10000);
        }
    }

    TEST_CASE("Repeat reads count from the blackboard at each tick; below -1 acts as 0") {
        script_log log;
        agent a(make({record(1, 0, "Repeat", R"({"count": "{count}"})"), leaf(2, 1, "s")}), &log);
        a.blackboard().set("count", std::int64_t{2});
        CHECK(record_ticks(a, 2) ==
              tick_results{{R, {"enter #2", "exit success #2", "enter #1"}},
                           {S, {"enter #2", "exit success #2", "exit success #1"}}});
        a.blackboard().set("count", std::int64_t{0});
        CHECK(step(a) == tick_result{S, {"enter #1", "exit success #1"}});
        a.blackboard().set("count", std::int64_t{-7});
        CHECK(step(a) == tick_result{S, {"enter #1", "exit success #1"}});
        a.blackboard().set("count", std::int64_t{-1});
        CHECK(record_ticks(a, 2) == tick_results{{R, {"enter #2", "exit success #2", "enter #1"}},
                                                 {R, {"enter #2", "exit success #2"}}});
        a.blackboard().set("count", std::int64_t{1});  // 2 done already: it stops
        CHECK(step(a) == tick_result{S, {"exit success #1"}});
    }

    TEST_CASE("Repeat forgets its count when halted") {
        script_log log;
        agent a(make({record(1, 0, "ReactiveSequence"),
                      record(2, 1, "CheckBlackboard", R"({"key": "alarm", "value": false})"),
                      record(3, 1, "Repeat", R"({"count": 2})"), leaf(4, 3, "s")}),
                &log);
        CHECK(step(a).root == R);  // one success counted
        a.blackboard().set("alarm", true);
        CHECK(step(a) ==
              tick_result{F, {"enter #2", "exit failure #2", "halt #3", "exit failure #1"}});
        a.blackboard().set("alarm", false);
        CHECK(step(a).root == R);  // counting from 0 again: two more are needed
        CHECK(step(a).root == S);
    }

    TEST_CASE("Retry (RetryUntilSuccessful) retries a failing child, one attempt per tick") {
        script_log log;
        agent a(make({record(1, 0, "Retry", R"({"attempts": 3})"), leaf(2, 1, "ffs")}), &log);
        CHECK(record_ticks(a, 3) ==
              tick_results{{R, {"enter #2", "exit failure #2", "enter #1"}},
                           {R, {"enter #2", "exit failure #2"}},
                           {S, {"enter #2", "exit success #2", "exit success #1"}}});
        agent b(make({record(1, 0, "RetryUntilSuccessful", R"({"attempts": 2})"), leaf(2, 1, "f")}),
                &log);
        CHECK(record_ticks(b, 2) ==
              tick_results{{R, {"enter #2", "exit failure #2", "enter #1"}},
                           {F, {"enter #2", "exit failure #2", "exit failure #1"}}});
    }

    TEST_CASE("Retry retries at once, in the same tick, a child that failed after running") {
        script_log log;
        agent a(make({record(1, 0, "Retry", R"({"attempts": 2})"), leaf(2, 1, "rf")}), &log);
        CHECK(record_ticks(a, 3) == tick_results{{R, {"enter #2", "enter #1"}},
                                                 {R, {"exit failure #2", "enter #2"}},
                                                 {F, {"exit failure #2", "exit failure #1"}}});
    }

    TEST_CASE("Retry with attempts 0 fails at once; attempts may come from the blackboard") {
        script_log log;
        agent a(make({record(1, 0, "Retry", R"({"attempts": 0})"), leaf(2, 1, "s")}), &log);
        CHECK(step(a) == tick_result{F, {"enter #1", "exit failure #1"}});
        agent b(make({record(1, 0, "Retry", R"({"attempts": "{count}"})"), leaf(2, 1, "f")}), &log);
        b.blackboard().set("count", std::int64_t{1});
        CHECK(step(b) ==
              tick_result{F, {"enter #2", "exit failure #2", "enter #1", "exit failure #1"}});
        CHECK(log.enters == 1);
    }

    TEST_CASE("Repeat and Retry refuse a literal count below -1 at load") {
        CHECK(refusal({record(1, 0, "Repeat", R"({"count": -2})"), leaf(2, 1, "s")}) ==
              "node 1 ('Repeat'): 'count' must be -1 (for ever) or 0 or more, not -2");
        CHECK(refusal({record(1, 0, "Retry", R"({"attempts": -5})"), leaf(2, 1, "s")}) ==
              "node 1 ('Retry'): 'attempts' must be -1 (for ever) or 0 or more, not -5");
    }

    TEST_CASE("RepeatUntilSuccess ticks its child once per tick until it succeeds") {
        script_log log;
        agent a(make({record(1, 0, "RepeatUntilSuccess"), leaf(2, 1, "ffrs")}), &log);
        CHECK(record_ticks(a, 4) == tick_results{{R, {"enter #2", "exit failure #2", "enter #1"}},
                                                 {R, {"enter #2", "exit failure #2"}},
                                                 {R, {"enter #2"}},
                                                 {S, {"exit success #2", "exit success #1"}}});
    }

    TEST_CASE(
        "RepeatUntilFailure (KeepRunningUntilFailure) runs until its child fails, then fails") {
        for (const char* name : {"RepeatUntilFailure", "KeepRunningUntilFailure"}) {
            CAPTURE(name);
            script_log log;
            agent a(make({record(1, 0, name), leaf(2, 1, "srf")}), &log);
            CHECK(record_ticks(a, 3) ==
                  tick_results{{R, {"enter #2", "exit success #2", "enter #1"}},
                               {R, {"enter #2"}},
                               {F, {"exit failure #2", "exit failure #1"}}});
        }
    }

    // BehaviorTree.CPP include/behaviortree_cpp/decorators/run_once_node.h: then_skip defaults
    // to true; once the child has completed, SKIPPED without ticking it.
    TEST_CASE("RunOnce is skipped, its child unticked, after the child's first finish") {
        script_log log;
        agent a(make({record(1, 0, "RunOnce"), leaf(2, 1, "rf")}), &log);
        CHECK(record_ticks(a, 4) == tick_results{{R, {"enter #2", "enter #1"}},
                                                 {F, {"exit failure #2", "exit failure #1"}},
                                                 {K, {"enter #1", "exit skipped #1"}},
                                                 {K, {"enter #1", "exit skipped #1"}}});
        a.reset();
        CHECK(step(a) == tick_result{R, {"enter #2", "enter #1"}});
    }

    TEST_CASE("RunOnce with then_skip false returns its child's first result for ever after") {
        script_log log;
        agent a(make({record(1, 0, "RunOnce", R"({"then_skip": false})"), leaf(2, 1, "rf")}), &log);
        CHECK(record_ticks(a, 4) == tick_results{{R, {"enter #2", "enter #1"}},
                                                 {F, {"exit failure #2", "exit failure #1"}},
                                                 {F, {"enter #1", "exit failure #1"}},
                                                 {F, {"enter #1", "exit failure #1"}}});
        a.reset();
        CHECK(step(a) == tick_result{R, {"enter #2", "enter #1"}});
    }

    TEST_CASE("RunOnce runs its child again after a halt that interrupted the first run") {
        script_log log;
        agent a(make({record(1, 0, "ReactiveSequence"),
                      record(2, 1, "CheckBlackboard", R"({"key": "alarm", "value": false})"),
                      record(3, 1, "RunOnce"), leaf(4, 3, "rs")}),
                &log);
        CHECK(step(a).root == R);
        a.blackboard().set("alarm", true);
        CHECK(step(a) ==
              tick_result{
                  F, {"enter #2", "exit failure #2", "halt #4", "halt #3", "exit failure #1"}});
        a.blackboard().set("alarm", false);
        CHECK(step(a) ==
              tick_result{S,
                          {"enter #2", "exit success #2", "enter #4", "exit success #4", "enter #3",
                           "exit success #3", "enter #1", "exit success #1"}});
        // Skipped from then on: the ReactiveSequence moves past it and succeeds.
        CHECK(step(a) == tick_result{S,
                                     {"enter #2", "exit success #2", "enter #3", "exit skipped #3",
                                      "enter #1", "exit success #1"}});
    }

    TEST_CASE("RunOnce reads then_skip at each tick, from the blackboard too") {
        script_log log;
        agent a(make({record(1, 0, "RunOnce", R"({"then_skip": "{alarm}"})"), leaf(2, 1, "s")}),
                &log);
        CHECK(run(a, 2) == "ss");
        a.blackboard().set("alarm", true);
        CHECK(run(a, 1) == "s");  // "skipped"
        CHECK(step(a).root == K);
        a.blackboard().set("alarm", false);
        CHECK(step(a) == tick_result{S, {"enter #1", "exit success #1"}});
    }

    TEST_CASE("RunOnce does not take a skipped child for its first finish") {
        script_log log;
        agent a(make({record(1, 0, "RunOnce", R"({"then_skip": false})"), leaf(2, 1, "kf")}), &log);
        CHECK(record_ticks(a, 3) ==
              tick_results{{K, {"enter #2", "exit skipped #2", "enter #1", "exit skipped #1"}},
                           {F, {"enter #2", "exit failure #2", "enter #1", "exit failure #1"}},
                           {F, {"enter #1", "exit failure #1"}}});
    }

    TEST_CASE("Timeout fails, halting its child unticked, once seconds have passed since entry") {
        script_log log;
        SUBCASE("dt 0.3, seconds 0.5: elapsed 0 and 0.3 tick the child, 0.6 fails") {
            agent a(make({record(1, 0, "Timeout", R"({"seconds": 0.5})"), leaf(2, 1, "r")}), &log);
            CHECK(record_ticks(a, 4, 0.3) == tick_results{{R, {"enter #2", "enter #1"}},
                                                          {R, {}},
                                                          {F, {"halt #2", "exit failure #1"}},
                                                          {R, {"enter #2", "enter #1"}}});
            CHECK(log.calls == std::vector<std::string>{"enter #2", "halt #2", "enter #2"});
        }
        SUBCASE("dt 0.5, seconds 0.3: the second tick fails") {
            agent a(make({record(1, 0, "Timeout", R"({"seconds": 0.3})"), leaf(2, 1, "r")}), &log);
            CHECK(record_ticks(a, 2, 0.5) ==
                  tick_results{{R, {"enter #2", "enter #1"}}, {F, {"halt #2", "exit failure #1"}}});
        }
        SUBCASE("dt 0.1, seconds 0.3: three steps of 0.1 are exactly 0.3, so the 4th tick fails") {
            agent a(make({record(1, 0, "Timeout", R"({"seconds": 0.3})"), leaf(2, 1, "r")}), &log);
            CHECK(record_ticks(a, 4, 0.1) == tick_results{{R, {"enter #2", "enter #1"}},
                                                          {R, {}},
                                                          {R, {}},
                                                          {F, {"halt #2", "exit failure #1"}}});
        }
        SUBCASE("a child that finishes in time gives its result") {
            agent a(make({record(1, 0, "Timeout", R"({"seconds": 0.5})"), leaf(2, 1, "rf")}), &log);
            CHECK(record_ticks(a, 2, 0.3) ==
                  tick_results{{R, {"enter #2", "enter #1"}},
                               {F, {"exit failure #2", "exit failure #1"}}});
        }
    }

    TEST_CASE("Timeout of 0 is no timeout, literal or from a key, and refuses a negative") {
        CHECK(refusal({record(1, 0, "Timeout", R"({"seconds": -1.5})"), leaf(2, 1, "s")}) ==
              "node 1 ('Timeout'): 'seconds' must be 0 or more, not -1.5");
        script_log log;
        SUBCASE("a literal 0 ticks a running child on and on, as BehaviorTree.CPP's msec=0") {
            agent a(make({record(1, 0, "Timeout", R"({"seconds": 0})"), leaf(2, 1, "r")}), &log);
            CHECK(record_ticks(a, 3, 100.0) ==
                  tick_results{{R, {"enter #2", "enter #1"}}, {R, {}}, {R, {}}});
        }
        SUBCASE("a key's 0 or less too; a key's time limits the child") {
            agent a(make({record(1, 0, "Timeout", R"({"seconds": "{health}"})"), leaf(2, 1, "r")}),
                    &log);
            CHECK(step(a, 5.0) == tick_result{R, {"enter #2", "enter #1"}});  // health is 0
            a.blackboard().set("health", -3.0);
            CHECK(step(a, 5.0) == tick_result{R, {}});
            a.blackboard().set("health", 1.0);  // 10 s have passed since the entry
            CHECK(step(a, 5.0) == tick_result{F, {"halt #2", "exit failure #1"}});
        }
    }

    TEST_CASE("Delay returns running when entered and ticks its child once seconds have passed") {
        script_log log;
        agent a(make({record(1, 0, "Delay", R"({"seconds": 0.5})"), leaf(2, 1, "rs")}), &log);
        CHECK(record_ticks(a, 5, 0.3) ==
              tick_results{{R, {"enter #1"}},  // elapsed 0
                           {R, {}},            // 0.3
                           {R, {"enter #2"}},  // 0.6: the child runs
                           {S, {"exit success #2", "exit success #1"}},
                           {R, {"enter #1"}}});  // a new activation waits
    }

    TEST_CASE("Delay of 0 waits exactly one tick, and a halt restarts the wait") {
        script_log log;
        agent a(make({record(1, 0, "Delay", R"({"seconds": 0})"), leaf(2, 1, "s")}), &log);
        CHECK(record_ticks(a, 2) ==
              tick_results{{R, {"enter #1"}},
                           {S, {"enter #2", "exit success #2", "exit success #1"}}});
        agent b(make({record(1, 0, "ReactiveSequence"),
                      record(2, 1, "CheckBlackboard", R"({"key": "alarm", "value": false})"),
                      record(3, 1, "Delay", R"({"seconds": 0.2})"), leaf(4, 3, "s")}),
                &log);
        CHECK(record_ticks(b, 2).back().root == R);  // 0.1 of 0.2 waited
        b.blackboard().set("alarm", true);
        CHECK(step(b).root == F);  // halts the Delay
        b.blackboard().set("alarm", false);
        CHECK(run(b, 3) == "rrs");  // waits 0.2 again: elapsed 0, 0.1, 0.2
    }

    TEST_CASE("Cooldown counts from when it entered its child, not from when the child ended") {
        script_log log;
        agent a(make({record(1, 0, "Cooldown", R"({"seconds": 0.3})"), leaf(2, 1, "rrs")}), &log);
        CHECK(record_ticks(a, 6) ==
              tick_results{{R, {"enter #2", "enter #1"}},  // time 0.1: ready again at 0.4
                           {R, {}},
                           {S, {"exit success #2", "exit success #1"}},
                           {R, {"enter #2", "enter #1"}},  // 0.4
                           {R, {}},
                           {S, {"exit success #2", "exit success #1"}}});
        agent b(make({record(1, 0, "Cooldown", R"({"seconds": 0.3})"), leaf(2, 1, "s")}), &log);
        CHECK(record_ticks(b, 5) ==
              tick_results{{S, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
                           {F, {"enter #1", "exit failure #1"}},
                           {F, {"enter #1", "exit failure #1"}},
                           {S, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
                           {F, {"enter #1", "exit failure #1"}}});
    }

    TEST_CASE("Cooldown under a ReactiveSelector enters its child at most once every seconds") {
        // The data/hornet.json pattern: a higher-priority branch pre-empts the cooled branch.
        script_log log;
        agent a(
            make({record(1, 0, "ReactiveSelector"), record(2, 1, "Sequence"),
                  record(3, 2, "CheckBlackboard", R"({"key": "alarm", "value": true})"),
                  leaf(4, 2, "s"), record(5, 1, "Cooldown", R"({"seconds": 1})"), leaf(6, 5, "r")}),
            &log);
        const std::vector<std::string> alarm_off{"enter #3", "exit failure #3", "enter #2",
                                                 "exit failure #2"};
        auto then = [&](std::vector<std::string> first, std::vector<std::string> rest) {
            first.insert(first.end(), rest.begin(), rest.end());
            return first;
        };
        CHECK(step(a, 0.25) ==
              tick_result{R, then(alarm_off, {"enter #6", "enter #5", "enter #1"})});  // time 0.25
        a.blackboard().set("alarm", true);
        CHECK(step(a, 0.25) ==
              tick_result{S,
                          {"enter #3", "exit success #3", "enter #4", "exit success #4", "enter #2",
                           "exit success #2", "halt #6", "halt #5", "exit success #1"}});
        a.blackboard().set("alarm", false);
        for (int k = 0; k < 2; ++k) {  // 0.75 and 1.0: the halted child may not start again yet
            CHECK(step(a, 0.25) ==
                  tick_result{F, then(alarm_off, {"enter #5", "exit failure #5", "enter #1",
                                                  "exit failure #1"})});
        }
        CHECK(step(a, 0.25) ==
              tick_result{R, then(alarm_off, {"enter #6", "enter #5", "enter #1"})});  // 1.25

        // Over a long run with the alarm toggling, the child starts at most once a second.
        script_log other;
        agent b(a.shared_tree(), &other);
        std::vector<int> starts;  // in ticks of 0.25 s
        for (int k = 0; k < 400; ++k) {
            b.blackboard().set("alarm", k % 7 == 2 || k % 11 == 5);
            const tick_result t = step(b, 0.25);
            if (std::find(t.events.begin(), t.events.end(), "enter #6") != t.events.end())
                starts.push_back(k);
        }
        REQUIRE(starts.size() > 20);
        for (std::size_t i = 1; i < starts.size(); ++i) CHECK(starts[i] - starts[i - 1] >= 4);
        CHECK(log.violations + other.violations == 0);
    }

    // BehaviorTree.CPP include/behaviortree_cpp/decorators/script_precondition.h: `if` is
    // tested only while the child is not running; false returns `else`, FAILURE by default.
    TEST_CASE("Precondition returns else without ticking its child when its script is false") {
        script_log log;
        agent a(make({record(1, 0, "Precondition", R"({"if": "count >= 2"})"), leaf(2, 1, "rs")}),
                &log);
        CHECK(step(a) == tick_result{F, {"enter #1", "exit failure #1"}});  // count is 0
        a.blackboard().set("count", std::int64_t{3});
        CHECK(step(a) == tick_result{R, {"enter #2", "enter #1"}});
        a.blackboard().set("count", std::int64_t{0});  // not tested while the child runs
        CHECK(step(a) == tick_result{S, {"exit success #2", "exit success #1"}});
        CHECK(step(a) == tick_result{F, {"enter #1", "exit failure #1"}});
        agent b(make({record(1, 0, "Precondition", R"({"if": "!alarm", "else": "SUCCESS"})"),
                      leaf(2, 1, "f")}),
                &log);
        CHECK(step(b) ==
              tick_result{F, {"enter #2", "exit failure #2", "enter #1", "exit failure #1"}});
        b.blackboard().set("alarm", true);
        CHECK(step(b) == tick_result{S, {"enter #1", "exit success #1"}});
    }

    TEST_CASE("Precondition's else may be any result BehaviorTree.CPP allows, and nothing else") {
        script_log log;
        for (const auto& [otherwise, expected] :
             {std::pair{"RUNNING", R}, std::pair{"running", R},
              std::pair{"SKIPPED", status::skipped}, std::pair{"Success", S}}) {
            const std::string else_text =
                otherwise;  // a copy: doctest's lambda cannot capture a binding
            CAPTURE(else_text);
            agent a(make({record(1, 0, "Precondition",
                                 std::string(R"({"if": "alarm", "else": ")") + otherwise + "\"}"),
                          leaf(2, 1, "s")}),
                    &log);
            CHECK(a.tick(0.1) == expected);
            CHECK(log.enters == 0);  // the child never ticked
        }
        CHECK(refusal({record(1, 0, "Precondition", R"({"if": "alarm", "else": "IDLE"})"),
                       leaf(2, 1, "s")}) ==
              "node 1 ('Precondition'): 'else' must be SUCCESS, FAILURE, SKIPPED or RUNNING, not "
              "'IDLE'");
    }

    TEST_CASE("Precondition tests its script again after a halt") {
        script_log log;
        agent a(make({record(1, 0, "ReactiveSequence"),
                      record(2, 1, "CheckBlackboard", R"({"key": "alarm", "value": false})"),
                      record(3, 1, "Precondition", R"({"if": "count == 1"})"), leaf(4, 3, "r")}),
                &log);
        a.blackboard().set("count", std::int64_t{1});
        CHECK(step(a).root == R);
        a.blackboard().set("alarm", true);
        CHECK(step(a).root == F);  // halts the Precondition and its child
        a.blackboard().set("alarm", false);
        a.blackboard().set("count", std::int64_t{5});
        CHECK(step(a) == tick_result{F,
                                     {"enter #2", "exit success #2", "enter #3", "exit failure #3",
                                      "enter #1", "exit failure #1"}});
    }

    TEST_CASE("RateController ticks its child at once, then again 1/hz after it succeeded") {
        script_log log;
        agent a(make({record(1, 0, "RateController", R"({"hz": 4})"), leaf(2, 1, "s")}), &log);
        const tick_result ticked{S, {"enter #2", "exit success #2", "enter #1", "exit success #1"}};
        const tick_result waiting{R, {"enter #1"}};
        const tick_result still{R, {}};
        // Period 0.25 s; ticks at 0.1, 0.2, ...: the child at 0.1, 0.4 and 0.7.
        CHECK(record_ticks(a, 7) ==
              tick_results{ticked,
                           waiting,
                           still,
                           {S, {"enter #2", "exit success #2", "exit success #1"}},
                           waiting,
                           still,
                           {S, {"enter #2", "exit success #2", "exit success #1"}}});
    }

    TEST_CASE("RateController keeps ticking a running child and restarts its timer on success") {
        script_log log;
        agent a(make({record(1, 0, "RateController", R"({"hz": 5})"), leaf(2, 1, "rrs")}), &log);
        CHECK(record_ticks(a, 5) ==
              tick_results{{R, {"enter #2", "enter #1"}},  // 0.1
                           {R, {}},
                           {S, {"exit success #2", "exit success #1"}},  // 0.3
                           {R, {"enter #1"}},
                           {R, {"enter #2"}}});  // 0.5: 0.2 s after the success
    }

    TEST_CASE("RateController ticks its child at once again after a failure or a halt") {
        script_log log;
        agent a(make({record(1, 0, "RateController", R"({"hz": 1})"), leaf(2, 1, "fs")}), &log);
        CHECK(record_ticks(a, 3) ==
              tick_results{{F, {"enter #2", "exit failure #2", "enter #1", "exit failure #1"}},
                           {S, {"enter #2", "exit success #2", "enter #1", "exit success #1"}},
                           {R, {"enter #1"}}});
        agent b(make({record(1, 0, "ReactiveSequence"),
                      record(2, 1, "CheckBlackboard", R"({"key": "alarm", "value": false})"),
                      record(3, 1, "RateController", R"({"hz": 1})"), leaf(4, 3, "sr")}),
                &log);
        CHECK(run(b, 2) == "sr");  // the child at once, then the rate holds it back
        b.blackboard().set("alarm", true);
        CHECK(run(b, 1) == "f");  // halts the waiting RateController
        b.blackboard().set("alarm", false);
        CHECK(step(b) ==
              tick_result{R, {"enter #2", "exit success #2", "enter #4", "enter #3", "enter #1"}});
    }

    TEST_CASE("RateController with hz 0 ticks its child once per activation; negative is refused") {
        script_log log;
        agent a(make({record(1, 0, "RateController", R"({"hz": 0})"), leaf(2, 1, "s")}), &log);
        CHECK(run(a, 100, 1000.0) == "s" + std::string(99, 'r'));
        CHECK(refusal({record(1, 0, "RateController", R"({"hz": -2})"), leaf(2, 1, "s")}) ==
              "node 1 ('RateController'): 'hz' must be 0 (once per activation) or more, not -2");
    }

    TEST_CASE("Limiter lets its child finish max_loop times, then fails without ticking it") {
        script_log log;
        agent a(make({record(1, 0, "Limiter", R"({"max_loop": 2})"), leaf(2, 1, "rs")}), &log);
        CHECK(record_ticks(a, 6) == tick_results{{R, {"enter #2", "enter #1"}},
                                                 {S, {"exit success #2", "exit success #1"}},
                                                 {R, {"enter #2", "enter #1"}},
                                                 {S, {"exit success #2", "exit success #1"}},
                                                 {F, {"enter #1", "exit failure #1"}},
                                                 {F, {"enter #1", "exit failure #1"}}});
        a.reset();
        CHECK(step(a) == tick_result{R, {"enter #2", "enter #1"}});
    }

    TEST_CASE("Limiter does not count a halted run, nor forget its count on a halt") {
        script_log log;
        agent a(make({record(1, 0, "ReactiveSequence"),
                      record(2, 1, "CheckBlackboard", R"({"key": "alarm", "value": false})"),
                      record(3, 1, "Limiter", R"({"max_loop": 1})"), leaf(4, 3, "rs")}),
                &log);
        CHECK(run(a, 1) == "r");
        a.blackboard().set("alarm", true);
        CHECK(run(a, 1) == "f");  // halted: not a finish
        a.blackboard().set("alarm", false);
        CHECK(run(a, 1) == "s");  // the one allowed finish
        CHECK(step(a) == tick_result{F,
                                     {"enter #2", "exit success #2", "enter #3", "exit failure #3",
                                      "enter #1", "exit failure #1"}});
        CHECK(refusal({record(1, 0, "Limiter", R"({"max_loop": 0})"), leaf(2, 1, "s")}) ==
              "node 1 ('Limiter'): 'max_loop' must be 1 or more, not 0");
    }

    TEST_CASE("MaxTime ticks its child, then fails if more than seconds have passed since entry") {
        script_log log;
        SUBCASE("a child still running is halted after its tick") {
            agent a(make({record(1, 0, "MaxTime", R"({"seconds": 0.25})"), leaf(2, 1, "r")}), &log);
            CHECK(record_ticks(a, 4) == tick_results{{R, {"enter #2", "enter #1"}},  // elapsed 0
                                                     {R, {}},
                                                     {R, {}},                                // 0.2
                                                     {F, {"halt #2", "exit failure #1"}}});  // 0.3
        }
        SUBCASE("a child that succeeds too late still fails") {
            agent a(make({record(1, 0, "MaxTime", R"({"seconds": 0.25})"), leaf(2, 1, "rrrs")}),
                    &log);
            CHECK(record_ticks(a, 4).back() ==
                  tick_result{F, {"exit success #2", "exit failure #1"}});
        }
        SUBCASE("exactly seconds is not more than seconds") {
            agent a(make({record(1, 0, "MaxTime", R"({"seconds": 0.3})"), leaf(2, 1, "r")}), &log);
            CHECK(run(a, 5) == "rrrrf");  // elapsed 0.3 on the 4th tick, 0.4 on the 5th
        }
        SUBCASE("dt 0.3, seconds 0.5") {
            agent a(make({record(1, 0, "MaxTime", R"({"seconds": 0.5})"), leaf(2, 1, "rrs")}),
                    &log);
            CHECK(run(a, 3, 0.3) == "rrf");  // the success at elapsed 0.6 comes too late
        }
        CHECK(log.violations == 0);
    }

    TEST_CASE("timed decorators refuse a negative literal seconds at load") {
        for (const char* type : {"Delay", "Cooldown", "MaxTime"}) {
            CAPTURE(type);
            CHECK(refusal({record(1, 0, type, R"({"seconds": -0.25})"), leaf(2, 1, "s")}) ==
                  "node 1 ('" + std::string(type) + "'): 'seconds' must be 0 or more, not -0.25");
        }
    }

    // ---- Skipped children ------------------------------------------------------------------

    // BehaviorTree.CPP src/decorators/inverter_node.cpp and force_success_node.h /
    // force_failure_node.h: RUNNING and SKIPPED are returned as the child gave them.
    TEST_CASE("Not, ForceSuccess and ForceFailure pass a skipped child's result on") {
        for (const char* name : {"Not", "ForceSuccess", "ForceFailure"}) {
            CAPTURE(name);
            script_log log;
            agent a(make({record(1, 0, name), leaf(2, 1, "ks")}), &log);
            CHECK(step(a) ==
                  tick_result{K, {"enter #2", "exit skipped #2", "enter #1", "exit skipped #1"}});
            CHECK(step(a).root == (std::string(name) == "ForceSuccess" ? S : F));
        }
    }

    // BehaviorTree.CPP src/decorators/repeat_node.cpp: "the child has been skipped. Skip the
    // decorator too. Don't reset the counter, though !"
    TEST_CASE("Repeat is skipped with its child and goes on from its count afterwards") {
        script_log log;
        agent a(make({record(1, 0, "Repeat", R"({"count": 3})"), leaf(2, 1, "sks")}), &log);
        CHECK(run(a, 1) == "r");  // one iteration, entered this tick
        CHECK(step(a) == tick_result{K, {"enter #2", "exit skipped #2", "exit skipped #1"}});
        CHECK(run(a, 1) == "r");   // second success; the count went on from 1
        CHECK(step(a).root == S);  // third: 3 of 3 (a fresh count would still be running)
    }

    // BehaviorTree.CPP src/decorators/retry_node.cpp: SKIPPED skips the node.
    TEST_CASE("Retry and RepeatUntilSuccess are skipped with their child") {
        for (const char* name : {"Retry", "RepeatUntilSuccess"}) {
            CAPTURE(name);
            script_log log;
            const std::string params = std::string(name) == "Retry" ? R"({"attempts": 3})" : "";
            agent a(make({record(1, 0, name, params), leaf(2, 1, "ks")}), &log);
            CHECK(run(a, 2) == "ss");  // skipped, then success
            CHECK(log.violations == 0);
        }
    }

    // BehaviorTree.CPP include/behaviortree_cpp/decorators/keep_running_until_failure_node.h:
    // a child status other than SUCCESS, FAILURE or RUNNING leaves the node RUNNING.
    TEST_CASE("RepeatUntilFailure (KeepRunningUntilFailure) keeps running over a skipped child") {
        script_log log;
        agent a(make({record(1, 0, "KeepRunningUntilFailure"), leaf(2, 1, "kf")}), &log);
        CHECK(record_ticks(a, 2) ==
              tick_results{{R, {"enter #2", "exit skipped #2", "enter #1"}},
                           {F, {"enter #2", "exit failure #2", "exit failure #1"}}});
    }

    TEST_CASE("Timeout and Delay pass a skipped child on, and their next activation starts anew") {
        script_log log;
        agent a(make({record(1, 0, "Timeout", R"({"seconds": 0.25})"), leaf(2, 1, "krrrr")}), &log);
        CHECK(step(a).root == K);
        CHECK(run(a, 4) == "rrrf");  // the timeout counts from the new entry
        agent d(make({record(1, 0, "Delay", R"({"seconds": 0.1})"), leaf(2, 1, "ks")}), &log);
        CHECK(run(d, 2) == "rs");  // skipped
        CHECK(run(d, 2) == "rs");  // waits again, then succeeds
    }

    TEST_CASE("Cooldown, RateController and Limiter do not count a skipped child as a run") {
        script_log log;
        agent c(make({record(1, 0, "Cooldown", R"({"seconds": 10})"), leaf(2, 1, "ks")}), &log);
        CHECK(run(c, 1) == "s");   // skipped: no cooldown started
        CHECK(run(c, 2) == "sf");  // success starts it
        agent r(make({record(1, 0, "RateController", R"({"hz": 0.1})"), leaf(2, 1, "kss")}), &log);
        CHECK(run(r, 1) == "s");   // skipped: the timer is not armed
        CHECK(run(r, 2) == "sr");  // ticked at once, then held back
        agent l(make({record(1, 0, "Limiter", R"({"max_loop": 1})"), leaf(2, 1, "ks")}), &log);
        CHECK(step(l).root == K);
        CHECK(run(l, 2) == "sf");  // the one counted run
        CHECK(log.violations == 0);
    }

    TEST_CASE("MaxTime is skipped with its child, however long it has been") {
        script_log log;
        agent a(make({record(1, 0, "MaxTime", R"({"seconds": 0.1})"), leaf(2, 1, "k")}), &log);
        CHECK(step(a, 1.0).root == K);
    }

    // ---- BlackboardCheckInt, BlackboardCheckDouble, BlackboardCheckString ------------------

    // BehaviorTree.CPP 3 include/behaviortree_cpp_v3/decorators/blackboard_precondition.h:
    // equal values tick the child; otherwise a running child is halted and return_on_mismatch
    // (FAILURE by default) is returned.
    TEST_CASE("BlackboardCheckInt ticks its child while the values are equal") {
        script_log log;
        agent a(
            make({record(1, 0, "BlackboardCheckInt", R"({"value_A": "{count}", "value_B": 42})"),
                  leaf(2, 1, "rrs")}),
            &log);
        CHECK(step(a) == tick_result{F, {"enter #1", "exit failure #1"}});
        a.blackboard().set("count", std::int64_t{42});
        CHECK(step(a) == tick_result{R, {"enter #2", "enter #1"}});
        a.blackboard().set("count", std::int64_t{7});
        CHECK(step(a) == tick_result{F, {"halt #2", "exit failure #1"}});
        a.blackboard().set("count", std::int64_t{42});
        CHECK(run(a, 2) == "rs");
        CHECK(log.violations == 0);
    }

    TEST_CASE("BlackboardCheckDouble and BlackboardCheckString compare numbers and text") {
        script_log log;
        agent d(make({record(1, 0, "BlackboardCheckDouble",
                             R"({"value_A": "{health}", "value_B": 0.5,
                                 "return_on_mismatch": "SUCCESS"})"),
                      leaf(2, 1, "f")}),
                &log);
        CHECK(run(d, 1) == "s");  // 0 is not 0.5: SUCCESS, the child unticked
        d.blackboard().set("health", 0.5);
        CHECK(run(d, 1) == "f");
        agent t(make({record(1, 0, "BlackboardCheckString",
                             R"({"value_A": "calm", "value_B": "calm"})"),
                      leaf(2, 1, "s")}),
                &log);
        CHECK(run(t, 1) == "s");
        agent k(make({record(1, 0, "BlackboardCheckString",
                             R"({"value_A": "calm", "value_B": "Calm",
                                 "return_on_mismatch": "skipped"})"),
                      leaf(2, 1, "s")}),
                &log);
        CHECK(step(k).root == K);
    }

    TEST_CASE("BlackboardCheck refuses a return_on_mismatch that is not a status") {
        CHECK(refusal({record(1, 0, "BlackboardCheckInt",
                              R"({"value_A": 1, "value_B": 2, "return_on_mismatch": "IDLE"})"),
                       leaf(2, 1, "s")}) ==
              "node 1 ('BlackboardCheckInt'): 'return_on_mismatch' must be SUCCESS, FAILURE, "
              "RUNNING or SKIPPED (or in lower case), not 'IDLE'");
    }

    TEST_CASE("every decorator matches each enter with one exit or halt in random trees") {
        // Decorators stacked over scripted leaves (which may also skip) under reactive
        // composites that the alarm key makes halt them, ticked with random time steps.
        const std::vector<std::string> decorators{
            R"("Repeat", "params": {"count": 2})",
            R"("Retry", "params": {"attempts": -1})",
            R"("RepeatUntilSuccess")",
            R"("RepeatUntilFailure")",
            R"("RunOnce")",
            R"("Timeout", "params": {"seconds": 0.3})",
            R"("Delay", "params": {"seconds": 0.2})",
            R"("Cooldown", "params": {"seconds": 0.5})",
            R"("Precondition", "params": {"if": "count < 3"})",
            R"("RateController", "params": {"hz": 4})",
            R"("Limiter", "params": {"max_loop": 3})",
            R"("MaxTime", "params": {"seconds": 0.4})",
            R"("RunOnce", "params": {"then_skip": false})",
            R"("BlackboardCheckInt", "params": {"value_A": "{count}", "value_B": 2})"};
        std::mt19937 random(7);
        auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
        for (int round = 0; round < 300; ++round) {
            std::vector<std::string> records{
                record(1, 0, "Parallel"), record(2, 1, "ReactiveSequence"),
                record(3, 2, "CheckBlackboard", R"({"key": "alarm", "value": false})")};
            int id = 4;
            for (int branch = 0; branch < 3; ++branch) {
                int parent = branch == 0 ? 2 : 1;
                for (int depth = 1 + static_cast<int>(pick(3)); depth > 0; --depth, ++id) {
                    records.push_back(R"({"id": )" + std::to_string(id) + R"(, "parentId": )" +
                                      std::to_string(parent) + R"(, "type": )" +
                                      decorators[pick(decorators.size())] + "}");
                    parent = id;
                }
                std::string results;
                for (std::size_t k = 1 + pick(4); k > 0; --k) results += "sfrrk"[pick(5)];
                records.push_back(leaf(id++, parent, results));
            }
            script_log log;
            agent a(make(records), &log);
            for (int k = 0; k < 60; ++k) {
                a.blackboard().set("alarm", pick(4) == 0);
                a.blackboard().set("count", static_cast<std::int64_t>(pick(5)));
                a.tick(0.05 * static_cast<double>(pick(6)));
                if (pick(30) == 0) a.reset();
            }
            a.reset();
            CHECK(log.violations == 0);
            CHECK(log.enters == log.finishes);
        }
    }
}
