// BehaviorTree.CPP's substitution rules (load_options::substitutions): reading them, which
// nodes they match, and how the test nodes and replacements they put in place run.
#include <memory>

#include "runtime_support.hpp"
#include "test_support.hpp"

using namespace canopy;
using testing::builtin_registry;

namespace {

std::shared_ptr<const substitution_rules> rules(const std::string& json) {
    substitution_read_result read = read_substitution_rules(json, "rules.json");
    for (const diagnostic& d : read.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(read);
    return std::make_shared<const substitution_rules>(std::move(read.rules));
}

load_result load_with(const std::string& xml, const std::string& json, bool lenient = false) {
    load_options options;
    options.substitutions = rules(json);
    options.lenient = lenient;
    return try_load_text(xml, file_format::btcpp_xml, builtin_registry(), "main.xml", options);
}

std::shared_ptr<const tree> loaded_with(const std::string& xml, const std::string& json,
                                        bool lenient = false) {
    load_result r = load_with(xml, json, lenient);
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

// The first problem reading `json` finds, rendered.
std::string rules_refusal(const std::string& json) {
    const substitution_read_result read = read_substitution_rules(json, "rules.json");
    CHECK_FALSE(read);
    return read.diagnostics.empty() ? "" : to_string(read.diagnostics.front());
}

// Nodes named by their type are numbered in preorder from 1, BehaviorTree.CPP's paths.
const std::string paths_xml = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <AlwaysSuccess/>
      <AlwaysSuccess name="named"/>
      <SubTree ID="Sub"/>
      <SubTree ID="Sub" name="second"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <Sequence><AlwaysSuccess/><AlwaysSuccess name="named"/></Sequence>
  </BehaviorTree>
</root>)";

// The record ids of the nodes a rule whose pattern is `pattern` replaces, in preorder.
std::string replaced(const std::string& pattern) {
    const auto t = loaded_with(paths_xml, R"({"TestNodeConfigs": {"T": {"return_status":
        "FAILURE"}}, "SubstitutionRules": {")" +
                                              pattern + R"(": "T"}})");
    std::string ids;
    for (tree::index i = 0; i < t->size(); ++i) {
        if (t->type_name(i).substr(0, 6) != "T for ") continue;
        ids += (ids.empty() ? "" : " ") + std::to_string(t->record_id(i));
    }
    return ids;
}

}  // namespace

TEST_SUITE("substitution") {
    TEST_CASE("rules read as BehaviorTree.CPP reads them, in seconds and in file order") {
        const auto read = rules(R"({
            "TestNodeConfigs": {
                "Slow": {"return_status": "RUNNING", "async_delay": 1500.7,
                         "success_script": "a := 1", "post_script": "b := 2"},
                "Scripted": {"return_status_script": "x > 1 ? SUCCESS : FAILURE"}
            },
            "SubstitutionRules": {"z*": "Slow", "a": "Scripted", "m": "AlwaysFailure"}})");
        REQUIRE(read->configs.size() == 2);
        CHECK(read->configs[0].name == "Slow");
        CHECK(read->configs[0].return_status == status::running);
        CHECK(read->configs[0].async_delay == doctest::Approx(1.5));  // whole milliseconds
        CHECK(read->configs[0].success_script == "a := 1");
        CHECK(read->configs[1].return_status_script == "x > 1 ? SUCCESS : FAILURE");
        REQUIRE(read->rules.size() == 3);
        CHECK(read->rules[0].pattern == "z*");  // the file's order, not sorted
        CHECK(read->rules[2].replacement == "AlwaysFailure");
        CHECK(read->rules[1].where.line == 7);
    }

    TEST_CASE("bad rules are refused where they stand, saying what BehaviorTree.CPP wants") {
        CHECK(rules_refusal("[1]") ==
              "rules.json:1:1: error: substitution rules are a JSON object, not an array");
        CHECK(rules_refusal("{\"TestNodeConfigs\": {}}") ==
              "rules.json:1:1: error: substitution rules need \"SubstitutionRules\", an object of "
              "patterns and what replaces the nodes they match");
        CHECK(rules_refusal("{\"SubstitutionRules\": {\"x\": 3}}") ==
              "rules.json:1:29: error: the rule for 'x' must name a test node config or a node "
              "type, not an integer");
        CHECK(rules_refusal(R"({"TestNodeConfigs": {"T": {"async_delay": 3}},
            "SubstitutionRules": {}})") ==
              "rules.json:1:22: error: test node config 'T' must give \"return_status\" or "
              "\"return_status_script\"");
        CHECK(rules_refusal(R"({"TestNodeConfigs": {"T": {"return_status": "success"}},
            "SubstitutionRules": {}})") ==
              "rules.json:1:45: error: 'return_status' of test node config 'T' must be SUCCESS, "
              "FAILURE, RUNNING or SKIPPED, not \"success\" (did you mean 'SUCCESS'?)");
        CHECK(rules_refusal(R"({"TestNodeConfigs": {"T": {"return_status": "IDLE"}},
            "SubstitutionRules": {}})")
                  .find("(a node cannot return IDLE)") != std::string::npos);
        CHECK(rules_refusal(R"({"TestNodeConfigs": {"T": {"return_status": "SUCCESS",
            "async_delay": "100"}}, "SubstitutionRules": {}})")
                  .find("'async_delay' of test node config 'T' must be a number of "
                        "milliseconds, not a string") != std::string::npos);
        CHECK(rules_refusal("{\"SubstitutionRules\": ")
                  .find("rules.json:1:23: error: JSON syntax error") == 0);
        // A key BehaviorTree.CPP ignores is a warning: likely a typo.
        const substitution_read_result typo = read_substitution_rules(
            R"({"TestNodeConfigs": {"T": {"return_status": "SUCCESS", "post_scrpt": "a := 1"}},
                "SubstitutionRules": {}})",
            "rules.json");
        CHECK(typo);
        REQUIRE(typo.diagnostics.size() == 1);
        CHECK(typo.diagnostics[0].severity == diagnostic_severity::warning);
        CHECK(typo.diagnostics[0].message.find("(did you mean 'post_script'?)") !=
              std::string::npos);
        CHECK(load_substitution_rules("no/such/rules.json").diagnostics.at(0).code ==
              diagnostic_code::io_error);
    }

    TEST_CASE("a pattern matches a node's name, its type, or its path with wildcards") {
        // Main: Sequence 1, AlwaysSuccess 2, named 3, SubTree Sub 4 (Sequence 5,
        // AlwaysSuccess 6, named 7), SubTree second 8 (Sequence 9, AlwaysSuccess 10, named 11).
        // Record ids in the tree the subtrees are put in place in: 1-5 the main tree's, the
        // subtrees' from 6.
        CHECK(replaced("AlwaysSuccess") == "2 3 7 8 10 11");  // the type, named or not
        CHECK(replaced("named") == "3 8 11");
        CHECK(replaced("Always*") == "2");  // a wildcard reads the path only
        CHECK(replaced("*/AlwaysSuccess::*") == "7 10");
        CHECK(replaced("second/*") == "9 10 11");
        CHECK(replaced("Sub::4") == "4");  // the SubTree itself: its contents are never made
        CHECK(replaced("SubTree") == "4 5");
        CHECK(replaced("alwayssuccess") == "");
    }

    TEST_CASE("a test node returns its status, runs its scripts and never ticks children") {
        const auto t = loaded_with(R"(<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="n := 0; hits := 0"/>
      <Inverter name="guard"><AlwaysFailure/></Inverter>
      <Fallback>
        <AlwaysFailure name="shoot" _onFailure="n += 100"/>
        <AlwaysSuccess/>
      </Fallback>
    </Sequence>
  </BehaviorTree>
</root>)",
                                   R"({"TestNodeConfigs": {
            "Pass": {"return_status": "SUCCESS"},
            "Miss": {"return_status": "FAILURE", "failure_script": "hits += 1",
                     "post_script": "n += 1", "success_script": "hits := 99"}},
            "SubstitutionRules": {"guard": "Pass", "shoot": "Miss"}})");
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.last_status(3) == status::idle);  // the guard's child: never ticked
        // The test node's scripts first, then the node's own _onFailure.
        CHECK(testing::number_at(a.blackboard(), "hits") == 1);
        CHECK(testing::number_at(a.blackboard(), "n") == 101);
        CHECK(to_text(*t, true).find("AlwaysFailure (Miss for AlwaysFailure) \"shoot\" #6") !=
              std::string::npos);
    }

    TEST_CASE("a test node that an IfThenElse leaves failed fails again without its scripts") {
        // 4.10's TestNode is a StatefulActionNode: as the condition of a two-child IfThenElse
        // that failed, it is not reset, and at the next run returns FAILURE without running
        // its status script (which would now give SUCCESS) or its other scripts. Checked
        // against 4.10 with the same tree and rules.
        const auto t = loaded_with(R"(<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence>
      <RunOnce><Script code="n := 0; runs := 0"/></RunOnce>
      <Script code="n += 1; r := 0"/>
      <ForceSuccess><IfThenElse>
        <AlwaysFailure name="probe"/>
        <Script code="r := n"/>
      </IfThenElse></ForceSuccess>
    </Sequence>
  </BehaviorTree>
</root>)",
                                   R"({"TestNodeConfigs": {"T": {
            "return_status_script": "n >= 2 ? SUCCESS : FAILURE", "post_script": "runs += 1"}},
            "SubstitutionRules": {"probe": "T"}})");
        agent a(t);
        for (int k = 0; k < 3; ++k) CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "n") == 3);
        CHECK(testing::number_at(a.blackboard(), "r") == 0);
        CHECK(testing::number_at(a.blackboard(), "runs") == 1);
    }

    TEST_CASE("a delay runs on the agent's clock; running without one runs for ever") {
        const std::string xml = R"(<root BTCPP_format="4">
  <BehaviorTree ID="Main"><AlwaysSuccess name="x"/></BehaviorTree></root>)";
        agent slow(loaded_with(xml, R"({"TestNodeConfigs": {"T": {"return_status": "FAILURE",
            "async_delay": 250}}, "SubstitutionRules": {"x": "T"}})"));
        CHECK(testing::run(slow, 4) == "rrrf");  // started at 0.1, done once 0.25 passed
        agent stuck(loaded_with(xml, R"({"TestNodeConfigs": {"T": {"return_status": "RUNNING",
            "post_script": "k := 1"}}, "SubstitutionRules": {"x": "T"}})"));
        CHECK(testing::run(stuck, 3) == "rrr");
    }

    TEST_CASE("a status script knows the statuses, and fails the tick when it gives none") {
        const std::string xml = R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Sequence><Script code="a := 3"/><AlwaysFailure name="x"/></Sequence>
</BehaviorTree></root>)";
        auto with = [&](const std::string& script) {
            return std::make_shared<agent>(
                loaded_with(xml, R"({"TestNodeConfigs": {"T": {"return_status_script": ")" +
                                     script + R"("}}, "SubstitutionRules": {"x": "T"}})"));
        };
        CHECK(with("a > 2 ? SUCCESS : FAILURE")->tick(0.1) == status::success);
        CHECK(with("a > 5 ? SUCCESS : FAILURE")->tick(0.1) == status::failure);
        const auto skipped = with("SKIPPED");
        CHECK(skipped->tick(0.1) == status::success);  // the Sequence passes over it
        CHECK(skipped->last_status(2) == status::skipped);
        CHECK(with("a - 2")->tick(0.1) == status::running);
        CHECK(testing::tick_error(*with("a * 2")) ==
              "TestNode return_status_script resolved to invalid status (integer value: 6)");
        CHECK(testing::tick_error(*with("IDLE")).find("(integer value: 0)") != std::string::npos);
    }

    TEST_CASE("a registered type may stand in; the file is still checked as written") {
        const std::string xml = R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Fallback><Repeat num_cycles="2" name="r"><AlwaysFailure/></Repeat></Fallback>
</BehaviorTree></root>)";
        agent a(loaded_with(xml, R"({"SubstitutionRules": {"r": "AlwaysSuccess"}})"));
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.last_status(2) == status::idle);
        // The original's parameters are still checked.
        const load_result typo = load_with(
            R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Repeat num_cycle="2" name="r"><AlwaysFailure/></Repeat></BehaviorTree></root>)",
            R"({"SubstitutionRules": {"r": "AlwaysSuccess"}})");
        CHECK_FALSE(typo);
        CHECK(testing::only(typo, diagnostic_code::unknown_param).message.find("num_cycle") !=
              std::string::npos);
        // A replacement that would tick children the replaced node does not have.
        const load_result bad = load_with(R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <AlwaysSuccess name="x"/></BehaviorTree></root>)",
                                          R"({"SubstitutionRules": {"x": "Inverter"}})");
        CHECK_FALSE(bad);
        CHECK(to_string(bad.diagnostics.at(0)) ==
              "rules.json:1:24: error: 'Inverter' (a decorator) cannot stand in for "
              "'AlwaysSuccess' (a leaf): a node replaced keeps its children, so its replacement "
              "is a leaf or of its own kind");
        const load_result none = load_with(R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <AlwaysSuccess name="x"/></BehaviorTree></root>)",
                                           R"({"SubstitutionRules": {"x": "Nope"}})");
        CHECK_FALSE(none);
        CHECK(none.diagnostics.at(0).message.find("Substituted Node ID [Nope] not found") !=
              std::string::npos);
    }

    TEST_CASE("the program's own nodes, learned leniently, run as the rules say") {
        const auto t = loaded_with(R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Sequence><FindTarget target="{t}"/><Shoot target="{t}"/></Sequence></BehaviorTree>
  <TreeNodesModel>
    <Action ID="FindTarget"><output_port name="target"/></Action>
    <Action ID="Shoot"><input_port name="target"/></Action>
  </TreeNodesModel></root>)",
                                   R"({"TestNodeConfigs": {"OK": {"return_status": "SUCCESS",
            "post_script": "shots := 1"}},
            "SubstitutionRules": {"FindTarget": "OK", "Shoot": "OK"}})",
                                   true);
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(testing::number_at(a.blackboard(), "shots") == 1);
    }
}
