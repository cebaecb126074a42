// One test per row of docs/nodes.md: what each built-in node does, tick by tick.
#include <iostream>
#include <sstream>

#include "runtime_support.hpp"

using namespace canopy;
using testing::run;
using testing::runtime_tree;
using testing::script_log;

using testing::leaf;
using testing::make;
using testing::record;

TEST_SUITE("nodes") {
    TEST_CASE("Sequence ticks children in order and resumes at the running one") {
        script_log log;
        agent a(
            make({record(1, 0, "Sequence"), leaf(2, 1, "s"), leaf(3, 1, "rs"), leaf(4, 1, "f")}),
            &log);
        CHECK(run(a, 2) == "rf");
        // The first child is not ticked again while the second runs.
        CHECK(log.calls == std::vector<std::string>{"enter #2", "exit success #2", "enter #3",
                                                    "exit success #3", "enter #4",
                                                    "exit failure #4"});
        CHECK(run(a, 1) == "r");  // a new run starts at the first child
        CHECK(log.violations == 0);
    }

    TEST_CASE("Selector (Fallback) stops at the first child that does not fail") {
        script_log log;
        agent a(
            make({record(1, 0, "Fallback"), leaf(2, 1, "f"), leaf(3, 1, "rs"), leaf(4, 1, "s")}),
            &log);
        CHECK(run(a, 2) == "rs");
        CHECK(log.calls.back() == "exit success #3");
        CHECK(std::count(log.calls.begin(), log.calls.end(), "enter #2") == 1);  // resumed at #3
        CHECK(std::count(log.calls.begin(), log.calls.end(), "enter #4") == 0);
        agent b(make({record(1, 0, "Selector"), leaf(2, 1, "f"), leaf(3, 1, "f")}), &log);
        CHECK(run(b, 1) == "f");
    }

    TEST_CASE(
        "ReactiveSequence re-checks from the first child and halts the running one it leaves") {
        script_log log;
        agent a(make({record(1, 0, "ReactiveSequence"), leaf(2, 1, "ssf"), leaf(3, 1, "r")}), &log);
        CHECK(run(a, 3) == "rrf");
        CHECK(log.calls == std::vector<std::string>{"enter #2", "exit success #2", "enter #3",
                                                    "enter #2", "exit success #2",  //
                                                    "enter #2", "exit failure #2", "halt #3"});
        CHECK(log.violations == 0);
    }

    TEST_CASE(
        "ReactiveSelector re-checks from the first child and halts the running one it leaves") {
        script_log log;
        agent a(make({record(1, 0, "ReactiveSelector"), leaf(2, 1, "ffs"), leaf(3, 1, "r")}), &log);
        CHECK(run(a, 3) == "rrs");
        CHECK(log.calls.back() == "halt #3");
        CHECK(log.violations == 0);
    }

    TEST_CASE("Parallel finishes on its thresholds and halts the children still running") {
        SUBCASE("all must succeed (defaults: success_threshold -1, failure_threshold 1)") {
            script_log log;
            agent a(make({record(1, 0, "Parallel"), leaf(2, 1, "s"), leaf(3, 1, "rrs")}), &log);
            CHECK(run(a, 3) == "rrs");
            CHECK(std::count(log.calls.begin(), log.calls.end(), "enter #2") ==
                  1);  // not re-ticked
        }
        SUBCASE("one failure fails it, halting the rest") {
            script_log log;
            agent a(make({record(1, 0, "Parallel"), leaf(2, 1, "rf"), leaf(3, 1, "r")}), &log);
            CHECK(run(a, 2) == "rf");
            CHECK(log.calls.back() == "halt #3");
        }
        SUBCASE("one success is enough when success_threshold is 1 (seed 003's OR)") {
            script_log log;
            agent a(make({record(1, 0, "Parallel",
                                 R"({"success_threshold": 1, "failure_threshold": -1})"),
                          leaf(2, 1, "f"), leaf(3, 1, "rs"), leaf(4, 1, "r")}),
                    &log);
            CHECK(run(a, 2) == "rs");
            CHECK(log.calls.back() == "halt #4");
        }
        SUBCASE("it fails as soon as success is out of reach") {
            script_log log;
            agent a(make({record(1, 0, "Parallel",
                                 R"({"success_threshold": 2, "failure_threshold": -1})"),
                          leaf(2, 1, "f"), leaf(3, 1, "f"), leaf(4, 1, "r")}),
                    &log);
            CHECK(run(a, 1) == "f");
        }
        SUBCASE("a threshold of 0 is refused at load") {
            load_result r = try_load_text(
                testing::json_tree(
                    {record(1, 0, "Parallel", R"({"success_threshold": 0})"), leaf(2, 1, "s")}),
                file_format::flat_json, testing::runtime_registry());
            CHECK(testing::only(r, diagnostic_code::invalid_param).message ==
                  "node 1 ('Parallel'): thresholds must be -1 (all children) or at least 1");
        }
    }

    TEST_CASE("RandomSelector starts at a child drawn from the agent's seeded generator") {
        auto t = make(
            {record(1, 0, "RandomSelector"), leaf(2, 1, "s"), leaf(3, 1, "s"), leaf(4, 1, "s")});
        std::map<std::string, int> first_tried;
        for (std::uint64_t seed = 0; seed < 300; ++seed) {
            script_log log;
            agent a(t, &log, seed);
            CHECK(run(a, 1) == "s");
            REQUIRE(log.calls.size() == 2);
            ++first_tried[log.calls[0]];
            script_log again;
            agent same(t, &again, seed);
            run(same, 1);
            CHECK(again.calls == log.calls);  // the same seed, the same choice
        }
        CHECK(first_tried.size() == 3);
        for (const auto& [call, times] : first_tried) CHECK(times > 60);
        script_log log;
        agent failing(make({record(1, 0, "RandomSelector"), leaf(2, 1, "f"), leaf(3, 1, "f")}),
                      &log, 7);
        CHECK(run(failing, 1) == "f");  // it tries every child before failing
        CHECK(log.enters == 2);
    }

    TEST_CASE("Not (Inverter) swaps success and failure and passes running through") {
        script_log log;
        agent a(make({record(1, 0, "Inverter"), leaf(2, 1, "srf")}), &log);
        CHECK(run(a, 3) == "frs");
    }

    TEST_CASE(
        "Repeat succeeds after count successes, repeating at once a child that finishes at once") {
        script_log log;
        agent a(make({record(1, 0, "Repeat", R"({"count": 3})"), leaf(2, 1, "s")}), &log);
        CHECK(run(a, 1) == "s");
        CHECK(log.enters == 3);
        agent b(make({record(1, 0, "Repeat", R"({"count": 2})"), leaf(2, 1, "rsf")}), &log);
        CHECK(run(b, 2) == "rf");  // a failure ends it
        agent forever(make({record(1, 0, "Repeat", R"({"count": -1})"), leaf(2, 1, "s")}), &log);
        CHECK(run(forever, 3) == "rrr");
    }

    TEST_CASE(
        "RepeatUntilSuccess and RepeatUntilFailure tick the child each tick until it gives that") {
        script_log log;
        agent a(make({record(1, 0, "RepeatUntilSuccess"), leaf(2, 1, "ffrs")}), &log);
        CHECK(run(a, 4) == "rrrs");
        agent b(make({record(1, 0, "RepeatUntilFailure"), leaf(2, 1, "ssf")}), &log);
        CHECK(run(b, 3) == "rrs");
    }

    TEST_CASE("Retry ticks a failing child again, up to attempts failures") {
        script_log log;
        agent a(make({record(1, 0, "Retry", R"({"attempts": 3})"), leaf(2, 1, "ffs")}), &log);
        CHECK(run(a, 1) == "s");
        CHECK(log.enters == 3);
        agent b(make({record(1, 0, "Retry", R"({"attempts": 2})"), leaf(2, 1, "f")}), &log);
        CHECK(run(b, 1) == "f");
    }

    TEST_CASE("ForceSuccess and ForceFailure replace a finished child's result") {
        script_log log;
        agent a(make({record(1, 0, "ForceSuccess"), leaf(2, 1, "fr")}), &log);
        CHECK(run(a, 2) == "sr");
        agent b(make({record(1, 0, "ForceFailure"), leaf(2, 1, "s")}), &log);
        CHECK(run(b, 1) == "f");
    }

    TEST_CASE("Timeout fails and halts its child once it has run longer than seconds") {
        script_log log;
        agent a(make({record(1, 0, "Timeout", R"({"seconds": 0.25})"), leaf(2, 1, "r")}), &log);
        CHECK(run(a, 4, 0.1) == "rrrf");  // 0, 0.1, 0.2 elapsed: running; 0.3 > 0.25: failure
        CHECK(log.calls.back() == "halt #2");
        CHECK(run(a, 1, 0.1) == "r");  // it starts afresh
    }

    TEST_CASE(
        "Cooldown fails without ticking its child until seconds have passed since it finished") {
        script_log log;
        agent a(make({record(1, 0, "Cooldown", R"({"seconds": 0.3})"), leaf(2, 1, "s")}), &log);
        CHECK(run(a, 5, 0.1) == "sffsf");
        CHECK(log.enters == 2);
    }

    TEST_CASE("AlwaysSuccess and AlwaysFailure") {
        agent a(make({record(1, 0, "Sequence"), record(2, 1, "AlwaysSuccess"),
                      record(3, 1, "AlwaysFailure")}));
        CHECK(run(a, 1) == "f");
        CHECK(a.last_status(1) == status::success);
        CHECK(a.last_status(2) == status::failure);
    }

    TEST_CASE("WaitTicks with ticks N runs on its first N ticks and succeeds on the next") {
        agent a(make({record(1, 0, "WaitTicks", R"({"ticks": 2})")}));
        CHECK(run(a, 4) == "rrsr");
        agent zero(make({record(1, 0, "WaitTicks", R"({"ticks": 0})")}));
        CHECK(run(zero, 1) == "s");
        load_result negative =
            try_load_text(testing::json_tree({record(1, 0, "WaitTicks", R"({"ticks": -5})")}),
                          file_format::flat_json, testing::runtime_registry());
        CHECK(testing::only(negative, diagnostic_code::invalid_param).message ==
              "node 1 ('WaitTicks'): 'ticks' must be 0 or more");
    }

    TEST_CASE("Wait (Sleep) succeeds on the first tick at which seconds have passed since entry") {
        // Elapsed time counts from the tick that entered it: 0, dt, 2 dt, ... Success comes
        // on the first tick with elapsed >= S, which is tick ceil(S/dt) + 1.
        auto ticks_to_finish = [](double seconds, double dt) {
            agent a(
                make({record(1, 0, "Wait", R"({"seconds": )" + std::to_string(seconds) + "}")}));
            int ticks = 1;
            while (a.tick(dt) == status::running) ++ticks;
            return ticks;
        };
        CHECK(ticks_to_finish(0.5, 0.1) == 6);  // elapsed 0, 0.1, ..., 0.5
        CHECK(ticks_to_finish(0.5, 0.3) == 3);  // elapsed 0, 0.3, 0.6
        CHECK(ticks_to_finish(1.0, 0.3) == 5);  // elapsed 0, 0.3, 0.6, 0.9, 1.2
        CHECK(ticks_to_finish(0.9, 0.3) == 4);  // 0.3 three times is exactly 0.9 here
        CHECK(ticks_to_finish(0.5, 0.5) == 2);
        CHECK(ticks_to_finish(0.0, 0.5) == 1);  // no time to wait: done when entered
        agent sleep(make({record(1, 0, "Sleep", R"({"seconds": 0.2})")}));
        CHECK(run(sleep, 4, 0.1) == "rrsr");  // an alias; a new run waits again
        load_result negative =
            try_load_text(testing::json_tree({record(1, 0, "Wait", R"({"seconds": -1})")}),
                          file_format::flat_json, testing::runtime_registry());
        CHECK(testing::only(negative, diagnostic_code::invalid_param).message ==
              "node 1 ('Wait'): 'seconds' must not be negative");
        load_result ticks =
            try_load_text(testing::json_tree({record(1, 0, "Wait", R"({"ticks": 1})")}),
                          file_format::flat_json, testing::runtime_registry());
        CHECK(testing::only(ticks, diagnostic_code::unknown_param).message ==
              "'Wait' has no parameter 'ticks'; it takes: seconds");
    }

    TEST_CASE("Wait keeps exact time for an agent that has run for months") {
        // A clock in floating-point seconds loses the sixtieth of a second after months of
        // uptime; the agent's clock counts nanoseconds.
        agent b(make({record(1, 0, "Wait", R"({"seconds": 0.05})")}));
        for (int day = 0; day < 200; ++day) b.tick(86400.0);
        // The 200th day's tick finished a run. 1/60 s is 16,666,667 ns, so three steps pass
        // 0.05 s: the new run is entered, then succeeds on the third step after.
        CHECK(run(b, 4, 1.0 / 60) == "rrrs");
        CHECK(b.time_ns() == 200LL * 86400 * 1000000000 + 4 * 16666667);
    }

    TEST_CASE("AlwaysRunning (Runner) runs for ever") {
        agent a(make({record(1, 0, "Runner")}));
        CHECK(run(a, 3) == "rrr");
    }

    TEST_CASE("Log writes its message, or its describe, and succeeds") {
        std::ostringstream captured;
        std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
        agent a(
            make({record(1, 0, "Sequence"),
                  R"({"id": 2, "parentId": 1, "type": "Log", "describe": "hello from the tree"})",
                  record(3, 1, "Log", R"({"message": "bye"})")}));
        const status result = a.tick(0.1);
        std::cout.rdbuf(old);
        CHECK(result == status::success);
        CHECK(captured.str() == "hello from the tree\nbye\n");
    }

    TEST_CASE("Log lines from agents on several threads never interleave") {
        std::ostringstream captured;
        std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
        auto t = make({record(1, 0, "Log", R"({"message": "one whole line from a tree"})")});
        std::vector<agent> agents;
        for (int i = 0; i < 200; ++i) agents.emplace_back(t);
        {
            parallel_ticker ticker(4);
            for (int k = 0; k < 5; ++k) ticker.tick(agents, 0.1);
        }
        std::cout.rdbuf(old);
        std::istringstream lines(captured.str());
        int count = 0;
        for (std::string line; std::getline(lines, line); ++count) {
            CHECK(line == "one whole line from a tree");
        }
        CHECK(count == 1000);
    }

    TEST_CASE("SetBlackboard writes a key and CheckBlackboard compares it") {
        agent a(
            make({record(1, 0, "Sequence"),
                  record(2, 1, "SetBlackboard", R"({"key": "health", "value": 40})"),
                  record(3, 1, "CheckBlackboard", R"({"key": "health", "op": "<", "value": 50})"),
                  record(4, 1, "SetBlackboard", R"({"key": "alarm", "value": true})"),
                  record(5, 1, "CheckBlackboard", R"({"key": "count", "value": 0})")}));
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().get<double>("health") == 40.0);
        CHECK(a.blackboard().get<bool>("alarm"));
        a.blackboard().set("count", 3);
        CHECK(a.tick(0.1) == status::failure);  // count == 0 no longer holds
    }

    TEST_CASE("blackboard parameters are checked at load, located") {
        auto load = [](const std::string& params) {
            return try_load_text(testing::json_tree({record(1, 0, "CheckBlackboard", params)}),
                                 file_format::flat_json, testing::runtime_registry(), "t.json");
        };
        diagnostic unknown =
            testing::only(load(R"({"key": "helth", "value": 1})"), diagnostic_code::unknown_key);
        CHECK(unknown.message == "unknown blackboard key 'helth' (did you mean 'health'?)");
        CHECK(unknown.where == source_location{2, 64});  // at the key parameter
        CHECK(testing::only(load(R"({"key": "alarm", "value": 1})"),
                            diagnostic_code::wrong_param_type)
                  .message ==
              "parameter 'value' of 'CheckBlackboard' must be a boolean, not an integer (1)");
        CHECK(testing::only(load(R"({"key": "alarm", "op": "<", "value": true})"),
                            diagnostic_code::invalid_param)
                  .message ==
              "node 1 ('CheckBlackboard'): a boolean key compares with == or != only, not '<'");
        CHECK(testing::only(load(R"({"key": "count", "op": "~", "value": 1})"),
                            diagnostic_code::invalid_param)
                  .message ==
              "node 1 ('CheckBlackboard'): 'op' must be one of == != < <= > >=, not '~'");
    }
}
