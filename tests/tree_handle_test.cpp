// Agents that follow a tree_handle: they move to each tree published, at their next tick.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "runtime_support.hpp"

namespace canopy {
namespace {

using testing::leaf;
using testing::record;
using testing::script_log;

std::shared_ptr<const tree> two_leaves(const std::string& first, const std::string& second) {
    return testing::make({record(1, 0, "Sequence"), leaf(2, 1, first), leaf(3, 1, second)});
}

}  // namespace

TEST_SUITE("tree handle") {
    TEST_CASE("an agent moves to a published tree at its next tick, halting what ran") {
        tree_handle handle(two_leaves("s", "r"));
        CHECK(handle.version() == 1);
        script_log log;
        agent a(handle, &log);
        CHECK(a.followed().current() == handle.current());
        CHECK(a.tick(0.1) == status::running);  // #2 succeeded, #3 runs
        CHECK(a.is_running(2));

        std::shared_ptr<const tree> next = testing::make({record(7, 0, "Not"), leaf(8, 7, "f")});
        handle.publish(next);
        CHECK(handle.version() == 2);
        CHECK(&a.tree() != next.get());  // not before its tick
        log.calls.clear();
        CHECK(a.tick(0.1) == status::success);
        CHECK(&a.tree() == next.get());
        // The old tree's running leaf was halted before the new tree's first tick.
        CHECK(log.calls == std::vector<std::string>{"halt #3", "enter #8", "exit failure #8"});
        CHECK(log.violations == 0);
        CHECK(a.time() == doctest::Approx(0.2));  // the clock goes on

        // Nothing new: the agent stays, and keeps its node states.
        log.calls.clear();
        a.tick(0.1);
        CHECK(&a.tree() == next.get());
    }

    TEST_CASE("moving keeps the values of the blackboard keys both trees have") {
        auto with_keys = [](const std::string& keys) {
            return testing::runtime_tree(R"({"blackboard": )" + keys +
                                         R"(, "nodes": [{"id": 1, "type": "AlwaysSuccess"}]})");
        };
        tree_handle handle(
            with_keys(R"({"speed": "number", "name": "string", "lives": "integer"})"));
        agent a(handle);
        a.blackboard().set("speed", 2.5);
        a.blackboard().set("name", std::string("hornet"));
        a.blackboard().set("lives", std::int64_t{3});
        a.blackboard().set("health", 40.0);  // the program's own key
        handle.publish(with_keys(R"({"name": "string", "lives": "number", "fresh": "boolean"})"));
        a.tick(0.1);
        CHECK(a.blackboard().get<std::string_view>("name") == "hornet");
        CHECK(a.blackboard().get<double>("health") == 40.0);
        CHECK(a.blackboard().get<double>("lives") == 0.0);  // another type: starts afresh
        CHECK_FALSE(a.blackboard().get<bool>("fresh"));
        CHECK_THROWS_AS(a.blackboard().get<double>("speed"), error);
    }

    TEST_CASE("a handle copies share one tree; an empty one makes no agent") {
        tree_handle handle(two_leaves("s", "s"));
        tree_handle copy = handle;
        copy.publish(two_leaves("f", "s"));
        CHECK(handle.version() == 2);
        CHECK(handle.current() == copy.current());
        CHECK_THROWS_AS(agent{tree_handle{}}, error);
        CHECK_THROWS_AS(handle.publish(nullptr), error);
        CHECK_FALSE(tree_handle());
        agent plain(handle.current());
        CHECK_FALSE(plain.followed());
    }

    TEST_CASE("agents on several threads follow a handle while it changes") {
        // Two versions that an agent can tell apart by its root's record id.
        const std::shared_ptr<const tree> one = testing::make({record(1, 0, "AlwaysSuccess")});
        const std::shared_ptr<const tree> two =
            testing::make({record(2, 0, "Not"), record(3, 2, "AlwaysFailure")});
        tree_handle handle(one);
        std::vector<agent> agents;
        for (int i = 0; i < 200; ++i) agents.emplace_back(handle);
        std::atomic<bool> done{false};
        std::atomic<int> wrong{0};
        auto ticker = [&](std::size_t first, std::size_t last) {
            while (!done.load()) {
                for (std::size_t i = first; i < last; ++i) {
                    agents[i].tick(0.01);
                    const std::int64_t root = agents[i].tree().record_id(tree::root);
                    if (root != 1 && root != 2) ++wrong;
                    if (agents[i].tick(0.01) != status::success) ++wrong;
                }
            }
        };
        std::thread left(ticker, 0, 100);
        std::thread right(ticker, 100, 200);
        for (int round = 0; round < 200; ++round) handle.publish(round % 2 == 0 ? two : one);
        handle.publish(two);
        done = true;
        left.join();
        right.join();
        CHECK(wrong == 0);
        for (agent& a : agents) {
            a.tick(0.01);
            CHECK(&a.tree() == two.get());
        }
    }
}

}  // namespace canopy
