// Several observers on one agent (observer_list, agent::add_observer), and what a program
// asks of an agent while debugging it: its running path, the trace with tick numbers.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "canopy/canopy.hpp"
#include "runtime_support.hpp"

using namespace canopy;

namespace {

// A Sequence whose WaitTicks runs two ticks under a Parallel beside a running leaf: a period
// of three ticks with two running branches.
std::shared_ptr<const tree> parallel_tree() {
    return testing::runtime_tree(R"({"name": "both", "nodes": [
        {"id": 1, "type": "Parallel", "describe": "watch and wait",
         "params": {"success_threshold": 1, "failure_threshold": 1}},
        {"id": 2, "parentId": 1, "type": "Sequence"},
        {"id": 3, "parentId": 2, "type": "WaitTicks", "params": {"ticks": 2}},
        {"id": 4, "parentId": 2, "type": "AlwaysSuccess"},
        {"id": 5, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 5}}
    ]})");
}

struct callback_counter final : observer {
    int visits = 0, ticks = 0, halts = 0, errors = 0;
    void on_visit(const agent&, tree::index) override { ++visits; }
    void on_tick(const agent&, tree::index, status, status) override { ++ticks; }
    void on_halt(const agent&, tree::index) override { ++halts; }
    void on_error(const agent&, const node_error&) override { ++errors; }
};

}  // namespace

TEST_SUITE("observers") {
    TEST_CASE("a trace and a coverage watch the same agent") {
        auto t = parallel_tree();
        agent a(t);
        trace_recorder trace(t, 10);
        coverage_recorder coverage(t);
        a.add_observer(&trace);
        a.add_observer(&coverage);
        for (int k = 0; k < 3; ++k) a.tick(0.1);
        CHECK(trace.recording().ticks.size() == 3);
        CHECK(coverage.of(3).success == 1);  // the AlwaysSuccess, at the third tick
        CHECK(coverage.of(2).running == 1);  // the WaitTicks, one run over two ticks
        CHECK(a.observers() == std::vector<observer*>{&trace, &coverage});
    }

    TEST_CASE("observers are told in the order added, and each can be detached") {
        auto t = parallel_tree();
        agent a(t);
        callback_counter first, second, third;
        a.add_observer(&first);
        a.add_observer(&first);  // already there: once
        a.add_observer(nullptr);
        CHECK(a.observers() == std::vector<observer*>{&first});
        a.add_observer(&second);
        a.add_observer(&third);
        a.tick(0.1);
        CHECK(first.ticks == second.ticks);
        CHECK(second.ticks == third.ticks);
        CHECK(first.ticks > 0);
        CHECK(a.remove_observer(&second));
        CHECK_FALSE(a.remove_observer(&second));
        CHECK(a.observers() == std::vector<observer*>{&first, &third});
        a.tick(0.1);
        CHECK(first.ticks == third.ticks);
        CHECK(second.ticks < first.ticks);
        CHECK(a.remove_observer(&first));
        CHECK(a.observers() == std::vector<observer*>{&third});
        // set_observer makes one the only one.
        a.set_observer(&second);
        CHECK(a.observers() == std::vector<observer*>{&second});
        a.set_observer(nullptr);
        CHECK(a.observers().empty());
        // The list moves with the agent.
        a.add_observer(&first);
        a.add_observer(&second);
        agent moved(std::move(a));
        const int before = first.ticks;
        moved.tick(0.1);
        CHECK(first.ticks > before);
        CHECK(moved.observers() == std::vector<observer*>{&first, &second});
    }

    TEST_CASE("an observer list passes every event to each, errors included") {
        callback_counter one, two;
        observer_list list{&one, nullptr, &two};
        CHECK(list.size() == 2);
        registry reg;
        register_builtin_nodes(reg);
        reg.add_action("Throw", [](context&) -> status { throw std::runtime_error("boom"); });
        load_result r = try_load_text(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "Throw"}])",
                                      file_format::flat_json, reg);
        REQUIRE(r);
        agent a(r.tree);
        a.set_error_policy(error_policy::fail);
        a.set_observer(&list);
        CHECK(a.tick(0) == status::failure);
        CHECK(one.errors == 1);
        CHECK(two.errors == 1);
        CHECK(one.halts == 2);  // the Throw and the Sequence the error left running
        CHECK(two.visits == 2);
        CHECK(list.remove(&one));
        CHECK_FALSE(list.contains(&one));
    }

    TEST_CASE("an agent's running path names what it is doing") {
        auto t = parallel_tree();
        agent a(t);
        CHECK(a.running_path().empty());
        CHECK(running_path_text(a).empty());
        a.tick(0.1);
        CHECK(a.running_path() == std::vector<tree::index>{0, 1, 2, 4});
        CHECK(running_path_text(a) ==
              "Parallel \"watch and wait\" #1 > [Sequence #2 > WaitTicks #3 | WaitTicks #5]");
        a.tick(0.1);
        a.tick(0.1);  // the Sequence succeeds, and so does the Parallel
        CHECK(a.running_path().empty());
    }

    TEST_CASE("the trace printer names each tick and its time, and errors") {
        auto t = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 1}}]})");
        agent a(t);
        std::ostringstream out;
        trace_printer printer(out);
        a.set_observer(&printer);
        a.tick(0.25);
        a.tick(0.25);
        CHECK(out.str() ==
              "-- tick 1 (0.25 s)\n"
              "Sequence #1\n"
              "  WaitTicks #2: idle -> running\n"
              "Sequence #1: idle -> running\n"
              "-- tick 2 (0.5 s)\n"
              "Sequence #1\n"
              "  WaitTicks #2: running -> success\n"
              "Sequence #1: running -> success\n");
        registry reg;
        register_builtin_nodes(reg);
        reg.add_action("Throw", [](context&) -> status { throw std::runtime_error("boom"); });
        load_result r = try_load_text(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "Throw"}])",
                                      file_format::flat_json, reg);
        REQUIRE(r);
        agent b(r.tree);
        b.set_error_policy(error_policy::halt);
        std::ostringstream err;
        trace_printer errors(err);
        b.set_observer(&errors);
        b.tick(0);
        CHECK(err.str() ==
              "-- tick 1 (0 s)\n"
              "Sequence #1\n"
              "  Throw #2: error: boom\n"
              "  Throw #2: halted\n"
              "Sequence #1: halted\n");
    }
}
