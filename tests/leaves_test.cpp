// The built-in leaves, one test per row of docs/nodes.md: what each does, tick by tick.
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

TEST_SUITE("leaves") {
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
        CHECK(testing::refusal({record(1, 0, "WaitTicks", R"({"ticks": -5})")}) ==
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
        CHECK(testing::refusal({record(1, 0, "Wait", R"({"seconds": -1})")}) ==
              "node 1 ('Wait'): 'seconds' must not be negative");
        load_result ticks =
            try_load_text(testing::json_tree({record(1, 0, "Wait", R"({"ticks": 1})")}),
                          file_format::flat_json, testing::runtime_registry());
        CHECK(testing::only(ticks, diagnostic_code::unknown_param).message ==
              "'Wait' has no parameter 'ticks'; it takes: seconds (WaitTicks takes 'ticks')");
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
