// Coverage: what every node's ticks returned, over several agents, as counts, JSON and a
// summary that names what was never seen.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "canopy/canopy.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

// A Selector whose first child runs for two ticks then fails (Not over WaitTicks), and whose
// second succeeds; a third child it never reaches.
std::shared_ptr<const tree> covered_tree() {
    return testing::runtime_tree(R"({"name": "covered", "nodes": [
        {"id": 1, "type": "Selector", "describe": "try in turn"},
        {"id": 2, "parentId": 1, "type": "Not"},
        {"id": 3, "parentId": 2, "type": "WaitTicks", "params": {"ticks": 2}},
        {"id": 4, "parentId": 1, "type": "AlwaysSuccess", "describe": "fallback"},
        {"id": 5, "parentId": 1, "type": "AlwaysFailure"}
    ]})");
}

}  // namespace

TEST_SUITE("coverage") {
    TEST_CASE("counts each node's outcomes over every agent, a run once however long") {
        const auto t = covered_tree();
        coverage_recorder coverage(t);
        agent first(t);
        agent second(t);
        first.set_observer(&coverage);
        second.set_observer(&coverage);
        for (int i = 0; i < 3; ++i) {
            first.tick(0.1);
            second.tick(0.1);
        }
        // Not: running for two ticks (one run), then failure; the Selector likewise, then
        // success through AlwaysSuccess.
        const node_coverage inverted = coverage.of(1);
        CHECK(inverted.running == 2);  // one run per agent
        CHECK(inverted.failure == 2);
        CHECK(inverted.success == 0);
        CHECK(coverage.of(2).success == 2);
        CHECK(coverage.of(0).running == 2);
        CHECK(coverage.of(0).success == 2);
        CHECK(coverage.of(3).success == 2);
        CHECK_FALSE(coverage.of(4).ticked());

        const coverage_summary summary = summarize(coverage);
        CHECK(summary.outcomes == 10);
        CHECK(summary.seen == 4);  // Selector, WaitTicks and AlwaysSuccess success; Not failure
        CHECK(summary.never_ticked == std::vector<tree::index>{4});
        CHECK(summary.never_succeeded == std::vector<tree::index>{1});
        CHECK(summary.never_failed == std::vector<tree::index>{0, 2, 3});
    }

    // BehaviorTree.CPP's TreeObserver counts changes of status: a condition a running
    // ReactiveSequence ticks again returns success again without a change, until the sequence
    // finishes and resets it.
    TEST_CASE("a reactive composite whose child runs resets the others; the root, each tick") {
        // As BehaviorTree.CPP's TreeObserver sees them: ReactiveSequence halts ("resets") its
        // other children when one runs, so the condition's success is a change at each tick;
        // tickRoot resets a finished root, so a leaf root counts every tick.
        const auto t = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "ReactiveSequence"},
            {"id": 2, "parentId": 1, "type": "AlwaysSuccess"},
            {"id": 3, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}}]})");
        coverage_recorder coverage(t);
        agent a(t);
        a.set_observer(&coverage);
        for (int i = 0; i < 3; ++i) a.tick(0.1);  // running, running, success
        CHECK(coverage.of(1).success == 3);
        CHECK(coverage.of(0).success == 1);
        CHECK(coverage.of(0).running == 1);
        a.tick(0.1);  // the sequence's next run
        CHECK(coverage.of(1).success == 4);
        CHECK(coverage.of(0).running == 2);  // one per run

        const auto leaf =
            testing::runtime_tree(R"({"nodes": [{"id": 1, "type": "AlwaysSuccess"}]})");
        coverage_recorder root(leaf);
        agent b(leaf);
        b.set_observer(&root);
        for (int i = 0; i < 3; ++i) b.tick(0.1);
        CHECK(root.of(0).success == 3);
    }

    TEST_CASE("a status returned again without a reset between counts once") {
        // A Sequence (not reactive) resumes at its running child: the first child, not ticked
        // again, is not counted again; a Parallel's finished child likewise.
        const auto t = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "AlwaysSuccess"},
            {"id": 3, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}}]})");
        coverage_recorder coverage(t);
        agent a(t);
        a.set_observer(&coverage);
        for (int i = 0; i < 3; ++i) a.tick(0.1);
        CHECK(coverage.of(1).success == 1);
        CHECK(coverage.of(2).running == 1);
        CHECK(coverage.of(2).success == 1);
    }

    TEST_CASE("writes the counts as JSON and names what was never seen") {
        const auto t = covered_tree();
        coverage_recorder coverage(t);
        agent a(t);
        a.set_observer(&coverage);
        for (int i = 0; i < 3; ++i) a.tick(0.1);
        const nlohmann::json written = nlohmann::json::parse(coverage_json(coverage));
        CHECK(written["tree"] == "covered");
        CHECK(written["outcomes"] == 10);
        CHECK(written["seen"] == 4);
        REQUIRE(written["nodes"].size() == 5);
        const nlohmann::json& fallback = written["nodes"][3];
        CHECK(fallback["id"] == 4);
        CHECK(fallback["name"] == "fallback");
        CHECK(fallback["type"] == "AlwaysSuccess");
        CHECK(fallback["success"] == 1);
        CHECK(fallback["failure"] == 0);
        CHECK(written["nodes"][1]["running"] == 1);

        std::ostringstream text;
        print_coverage_summary(text, coverage);
        CHECK(text.str() ==
              "coverage: 4 of 10 node outcomes seen (success and failure of each node), 40.0%\n"
              "  never ticked (1):\n"
              "    #5 AlwaysFailure\n"
              "  never succeeded (1):\n"
              "    #2 Not\n"
              "  never failed (3):\n"
              "    #1 Selector \"try in turn\"\n"
              "    #3 WaitTicks\n"
              "    #4 AlwaysSuccess \"fallback\"\n");
    }

    TEST_CASE("names each node in its file's words: BehaviorTree.CPP's and behavior3's") {
        load_result btcpp =
            try_load_file(std::string(CANOPY_SOURCE_DIR) + "/tests/data/views/btcpp.xml",
                          testing::runtime_registry());
        REQUIRE(btcpp);
        coverage_recorder coverage(btcpp.tree);
        agent a(btcpp.tree);
        a.set_observer(&coverage);
        a.tick(0.1);  // the first Sleep runs
        const nlohmann::json written = nlohmann::json::parse(coverage_json(coverage));
        REQUIRE(written["nodes"].size() == 6);
        CHECK(written["nodes"][1]["type"] == "Sleep");
        CHECK(written["nodes"][2]["type"] == "RetryUntilSuccessful");
        CHECK(written["nodes"][4]["type"] == "SubTree");
        std::ostringstream text;
        print_coverage_summary(text, coverage);
        CHECK(text.str().find("  never ticked (4):\n"
                              "    #3 RetryUntilSuccessful\n"
                              "    #4 Sleep\n"
                              "    #5 SubTree \"reload\"\n"
                              "    #6 Sleep\n") != std::string::npos);
        CHECK(text.str().find("Wait") == std::string::npos);
        CHECK(text.str().find("Retry ") == std::string::npos);

        load_result behavior3 =
            try_load_file(std::string(CANOPY_SOURCE_DIR) + "/tests/data/views/behavior3.json",
                          testing::runtime_registry());
        REQUIRE(behavior3);
        coverage_recorder counted(behavior3.tree);
        const nlohmann::json nodes = nlohmann::json::parse(coverage_json(counted))["nodes"];
        CHECK(nodes[1]["type"] == "Wait");  // not Canopy's behavior3.Wait
        CHECK(nodes[4]["type"] == "Let");
    }

    TEST_CASE("agents on several threads count every tick") {
        const auto t = covered_tree();
        coverage_recorder coverage(t);
        std::vector<agent> agents;
        for (int i = 0; i < 64; ++i) agents.emplace_back(t);
        for (agent& a : agents) a.set_observer(&coverage);
        parallel_ticker ticker(4);
        for (int i = 0; i < 3; ++i) ticker.tick(agents, 0.1);
        CHECK(coverage.of(1).failure == 64);
        CHECK(coverage.of(3).success == 64);
    }
}

}  // namespace canopy
