// Scenarios (canopy/testing/scenario.hpp): read, located; run step by step; reported for a
// person and as JUnit XML. Also how a program's doctest runs one.
#include "canopy/testing/scenario.hpp"

#include <filesystem>

#include "test_support.hpp"

using namespace canopy;
using testing::builtin_registry;
namespace fs = std::filesystem;

namespace {

const fs::path data = fs::path(CANOPY_SOURCE_DIR) / "data";

scenario_read_result read_scenario_json(const std::string& json) {
    return read_scenario(json, (data / "scenarios" / "s.json").string());
}

// Whether reading `json` fails with this message among its problems.
bool refuses(const std::string& json, const std::string& message) {
    const scenario_read_result r = read_scenario_json(json);
    CHECK_FALSE(r);
    for (const diagnostic& d : r.diagnostics) {
        if (d.message == message) return true;
    }
    for (const diagnostic& d : r.diagnostics) MESSAGE(to_string(d));
    return false;
}

}  // namespace

TEST_SUITE("scenarios") {
    TEST_CASE("a program's test runs a scenario file and sees it hold") {
        const scenario_read_result r = load_scenario(data / "scenarios" / "guard_alarm.json");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        CHECK(r.scenario.ticks == 24);
        CHECK(r.scenario.steps.size() == 5);
        const scenario_result result = run_scenario(r.scenario, builtin_registry());
        CHECK_MESSAGE(result.passed(), result.report());
        CHECK(result.ticks == 24);
    }

    TEST_CASE("a scenario gives the names a BehaviorTree.CPP tree's program provides") {
        const scenario_read_result r =
            read_scenario_json(R"({"tree": "../../tests/cli/provided_values.xml",
            "steps": [{"tick": 1, "set": {"decision": "chase", "ball_out": false,
                                          "max_speed": 1.5}, "status": "success"},
                      {"tick": 2, "set": {"decision": "flee"}, "status": "failure"},
                      {"tick": 3, "set": {"decision": "chase", "ball_out": true},
                       "status": "failure"},
                      {"tick": 4, "set": {"ball_out": false}, "status": "success"}]})");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        const scenario_result result = run_scenario(r.scenario, builtin_registry());
        CHECK_MESSAGE(result.passed(), result.report());
    }

    TEST_CASE("a failure says where, which tick, expected and got, with the tick's trace") {
        const scenario_read_result r = read_scenario_json(R"({"tree": "../guard.json", "steps": [
            {"tick": 3, "set": {"alarm": true}},
            {"tick": 4, "status": "success", "blackboard": {"mode": "patrol", "alarm": true},
             "ran": ["back on patrol"], "not_ran": ["look around"]}],
            "never_ran": ["say so"], "ran": ["#99"]})");
        REQUIRE(r);
        const scenario_result result = run_scenario(r.scenario, builtin_registry());
        CHECK_FALSE(result.passed());
        REQUIRE(result.failures.size() == 6);
        CHECK(result.failures[0].tick == 4);
        CHECK(result.failures[0].message == "expected status success, got running");
        CHECK(result.failures[0].where.line == 3);
        CHECK(result.failures[0].trace.find("Wait \"look around\" #6: running -> running") !=
              std::string::npos);
        CHECK(result.failures[1].message == "expected mode = \"patrol\", got \"search\"");
        CHECK(result.failures[2].message == "expected 'back on patrol' to run, and it did not");
        CHECK(result.failures[3].message == "expected 'look around' not to run, and node #6 ran");
        CHECK(result.failures[4].message.find("no node of the tree is '#99'") == 0);
        CHECK(result.failures[5].message == "'say so' ran (node #4), though it must never run");
        const std::string report = result.report();
        CHECK(report.find("s.json:3:13: tick 4: expected status success, got running\n"
                          "  the tick, as `canopy run --trace` shows it:\n") != std::string::npos);
        const std::string junit = junit_xml({result}, "suite <1>");
        CHECK(junit.find("<testsuite name=\"suite &lt;1&gt;\" tests=\"1\" failures=\"1\"") !=
              std::string::npos);
        CHECK(junit.find("<failure message=\"expected status success, got running\">") !=
              std::string::npos);
    }

    TEST_CASE("what cannot run is a failure, not an exception") {
        const scenario_read_result missing =
            read_scenario_json(R"({"tree": "../nope.json", "ticks": 2})");
        REQUIRE(missing);
        const scenario_result refused = run_scenario(missing.scenario, builtin_registry());
        REQUIRE(refused.failures.size() == 1);
        CHECK(refused.failures[0].message.find("the tree does not load:") == 0);
        const scenario_read_result wrong_key =
            read_scenario_json(R"({"tree": "../guard.json", "ticks": 1,
            "blackboard": {"alarms": true, "mode": 3}})");
        REQUIRE(wrong_key);
        const scenario_result result = run_scenario(wrong_key.scenario, builtin_registry());
        REQUIRE(result.failures.size() == 2);
        CHECK(result.failures[0].message == "the tree has no blackboard key 'alarms'");
        CHECK(result.failures[1].message == "cannot write 3 into key 'mode', which holds string");
        const scenario_read_result own = read_scenario_json(R"({"tree": "../guard.json",
            "steps": [{"tick": 1, "events": ["canopy:tick"], "status": "running"}]})");
        REQUIRE(own);
        const scenario_result posted = run_scenario(own.scenario, builtin_registry());
        REQUIRE(posted.failures.size() == 1);
        CHECK(posted.failures[0].message.find("cannot post 'canopy:tick': ") == 0);
    }

    TEST_CASE("a bad scenario file is refused where it is wrong") {
        CHECK(refuses("[]", "a scenario is a JSON object, not an array"));
        CHECK(refuses(R"({"ticks": 3})",
                      "a scenario names the tree it runs: \"tree\", a path from its folder"));
        CHECK(refuses(R"({"tree": "../guard.json"})",
                      "a scenario runs some ticks: give \"ticks\" or \"steps\""));
        CHECK(refuses(R"({"tree": "../guard.json", "tiks": 3, "ticks": 1})",
                      "'tiks' means nothing in a scenario (did you mean 'ticks'?)"));
        CHECK(refuses(R"({"tree": "../guard.json", "steps": [{"status": "success"}]})",
                      "a step says at which tick it applies: \"tick\", from 1"));
        CHECK(refuses(R"({"tree": "../guard.json", "steps": [{"tick": 1,
            "status": "done"}]})",
                      "'done' is no status here (success, failure, running or skipped)"));
        CHECK(refuses(R"({"tree": "../guard.json", "ticks": 1, "stub": "skipped"})",
                      "'skipped' is no status here (success, failure or running)"));
        CHECK(refuses(R"({"tree": "../guard.json", "ticks": 1,
            "blackboard": {"mode": [1]}})",
                      "the value of 'mode' must be a number, a string or a boolean, not an array"));
        CHECK(refuses(R"({"tree": "../guard.json", "ticks": 1,
            "substitute": "no/rules.json"})",
                      "cannot read the substitution rules file: cannot open: No such file or "
                      "directory"));
        CHECK(refuses(R"({"tree": "../guard.json", "ticks": 2, "steps": [{"tick": 3}]})",
                      "this step is at tick 3, past the 2 ticks the scenario runs (\"ticks\")"));
        const scenario_read_result r =
            read_scenario_json("{\"tree\": \"../guard.json\", \"ticks\": -1}");
        REQUIRE_FALSE(r.diagnostics.empty());
        CHECK(r.diagnostics.back().message == "'ticks' must be a whole number, 0 or more");
        CHECK(r.diagnostics.back().where.line == 1);
        CHECK(r.diagnostics.back().where.column == 36);
    }
}
