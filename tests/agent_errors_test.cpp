// An error out of a node stays its agent's, as the agent's error_policy says: the others of a
// population tick on, and the error names the node; what an agent needs from its host is
// checked when the agent is made.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "canopy/canopy.hpp"

using namespace canopy;

namespace {

struct npc {
    bool broken = false;  // its guard throws
    int patrols = 0;
};

// A guard that throws for a broken NPC, checked on every tick in front of a patrol that
// runs; one record a line, so that each node has a line of its own.
std::shared_ptr<const tree> guard_tree() {
    static registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        r.add_condition("Guard", [](npc& n, context&) {
            if (n.broken) throw std::runtime_error("the guard's sensor is gone");
            return false;
        });
        r.add_action("Patrol", [](npc& n, context&) {
            ++n.patrols;
            return status::running;
        });
        return r;
    }();
    load_result loaded = try_load_text(R"([
{"id": 1, "type": "ReactiveSelector"},
{"id": 2, "parentId": 1, "type": "Sequence"},
{"id": 3, "parentId": 2, "type": "Guard"},
{"id": 4, "parentId": 1, "type": "Patrol"}
])",
                                       file_format::flat_json, reg);
    REQUIRE(loaded);
    return loaded.tree;
}

struct robot {
    int steps = 0;
};
struct car {};

// A class node that needs the host, and says so.
struct robot_step final : node {
    using host_type = robot;
    status tick(context& ctx) const override {
        ++ctx.host<robot>().steps;
        return status::success;
    }
};

// Every event an agent's observers are told, as text.
struct observer_event_log final : observer {
    std::vector<std::string> lines;
    void on_tick(const agent&, tree::index node, status, status result) override {
        lines.push_back(std::to_string(node) + " " + std::string(to_string(result)));
    }
    void on_halt(const agent&, tree::index node) override {
        lines.push_back(std::to_string(node) + " halted");
    }
    void on_error(const agent&, const node_error& e) override {
        lines.push_back(std::to_string(e.node) + " error: " + e.message);
    }
};

}  // namespace

TEST_SUITE("agent errors") {
    TEST_CASE("a guard whose node throws fails alone: the others tick, the event names the node") {
        auto t = guard_tree();
        std::vector<npc> npcs(5);
        npcs[2].broken = true;
        std::vector<agent> agents;
        for (npc& n : npcs) agents.emplace_back(t, &n);
        for (agent& a : agents) a.set_error_policy(error_policy::fail);
        observer_event_log log;
        agents[2].set_observer(&log);
        std::vector<status> results;
        for (agent& a : agents) results.push_back(a.tick(0.1));
        CHECK(results == std::vector<status>{status::running, status::running, status::failure,
                                             status::running, status::running});
        for (std::size_t i = 0; i < npcs.size(); ++i) {
            CAPTURE(i);
            CHECK(npcs[i].patrols == (i == 2 ? 0 : 1));
            CHECK((agents[i].last_error() != nullptr) == (i == 2));
        }
        const node_error& e = *agents[2].last_error();
        CHECK(e.node == 2);
        CHECK(e.tick == 1);
        CHECK_FALSE(e.code.has_value());
        CHECK(e.message == "the guard's sensor is gone");
        CHECK(e.text == "node 3 ('Guard', line 4, column 1): the guard's sensor is gone");
        CHECK(agents[2].interruption() == e.text);
        // Told where the tick stopped, then the running nodes halted, children first.
        CHECK(log.lines == std::vector<std::string>{"2 error: the guard's sensor is gone",
                                                    "2 halted", "1 halted", "0 halted"});
        CHECK(agents[2].last_status(tree::root) == status::failure);
        CHECK_FALSE(agents[2].is_running(1));
        // The next tick starts afresh, and forgets the error once it finishes.
        npcs[2].broken = false;
        CHECK(agents[2].tick(0.1) == status::running);
        CHECK(agents[2].last_error() == nullptr);
        CHECK(agents[2].interruption().empty());
    }

    TEST_CASE("with halt, the agent's tick returns idle and every running node is halted") {
        auto t = guard_tree();
        npc n;
        agent a(t, &n);
        a.set_error_policy(error_policy::halt);
        CHECK(a.tick(0.1) == status::running);
        n.broken = true;
        CHECK(a.tick(0.1) == status::idle);
        CHECK(a.running_path().empty());
        CHECK(a.last_status(tree::root) == status::idle);
        REQUIRE(a.last_error() != nullptr);
        CHECK(a.last_error()->tick == 2);
    }

    TEST_CASE("by default the error passes through tick, and the agent and observers know it") {
        auto t = guard_tree();
        npc n;
        n.broken = true;
        agent a(t, &n);
        CHECK(a.error_policy() == error_policy::rethrow);
        observer_event_log log;
        a.set_observer(&log);
        CHECK_THROWS_WITH_AS(a.tick(0.1), "the guard's sensor is gone", std::runtime_error);
        REQUIRE(a.last_error() != nullptr);
        CHECK(a.last_error()->node == 2);
        CHECK(log.lines == std::vector<std::string>{"2 error: the guard's sensor is gone"});
        // The nodes it left entered stay so, until a reset halts them.
        CHECK(a.is_running(1));
        a.reset();
        CHECK_FALSE(a.is_running(1));
    }

    TEST_CASE("a canopy::error keeps its code, and a message naming the node gets its place") {
        registry reg;
        register_builtin_nodes(reg);
        // Asks for a host it did not declare: found only as it ticks.
        reg.add_action("AsInt", [](context& ctx) {
            ctx.host<int>() = 1;
            return status::success;
        });
        load_result loaded = try_load_text(R"([
{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "AsInt"}
])",
                                           file_format::flat_json, reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        a.set_error_policy(error_policy::halt);
        CHECK(a.error_policy() == error_policy::halt);
        CHECK(a.tick(0) == status::idle);
        REQUIRE(a.last_error() != nullptr);
        CHECK(a.last_error()->code == error_code::host);
        CHECK(a.last_error()->text.rfind("node 2 ('AsInt', line 3, column 1) asked for the "
                                         "agent's host as a 'int', but the agent has none",
                                         0) == 0);
        CHECK(to_string(error_policy::fail) == "fail");
        CHECK(to_string(error_policy::halt) == "halt");
        CHECK(to_string(error_policy::rethrow) == "rethrow");
    }

    TEST_CASE("a parallel ticker ticks every agent when one throws") {
        auto t = guard_tree();
        std::vector<npc> npcs(40);
        npcs[3].broken = true;
        npcs[30].broken = true;
        SUBCASE("each error stays its agent's failure") {
            std::vector<agent> agents;
            for (npc& n : npcs) agents.emplace_back(t, &n).set_error_policy(error_policy::fail);
            parallel_ticker ticker(2);
            ticker.tick(agents, 0.1);
            for (std::size_t i = 0; i < agents.size(); ++i) {
                CAPTURE(i);
                const bool broken = i == 3 || i == 30;
                CHECK(agents[i].last_status(tree::root) ==
                      (broken ? status::failure : status::running));
                CHECK(npcs[i].patrols == (broken ? 0 : 1));
                if (broken) {
                    REQUIRE(agents[i].last_error() != nullptr);
                    CHECK(agents[i].last_error()->node == 2);
                }
            }
        }
        SUBCASE("passed through, the first is rethrown once every agent has ticked") {
            std::vector<agent> agents;
            for (npc& n : npcs) agents.emplace_back(t, &n);
            parallel_ticker ticker(2);
            CHECK_THROWS_WITH(ticker.tick(agents, 0.1), "the guard's sensor is gone");
            for (std::size_t i = 0; i < agents.size(); ++i) {
                CAPTURE(i);
                CHECK(npcs[i].patrols == (i == 3 || i == 30 ? 0 : 1));
            }
        }
    }

    TEST_CASE("a class node that needs the host is checked when the agent is made") {
        registry reg;
        register_builtin_nodes(reg);
        reg.add<robot_step>("Step");
        // The class node sits on a branch no tick reaches.
        load_result loaded = try_load_text(R"([{"id": 1, "type": "Selector"},
            {"id": 2, "parentId": 1, "type": "AlwaysSuccess"},
            {"id": 3, "parentId": 1, "type": "Step"}])",
                                           file_format::flat_json, reg);
        REQUIRE(loaded);
        robot r;
        car c;
        CHECK_NOTHROW(agent(loaded.tree, &r));
        auto without = [&] { agent a(loaded.tree); };
        CHECK_THROWS_WITH_AS(without(), doctest::Contains("node type 'Step'"), host_error);
        CHECK_THROWS_WITH_AS(without(), doctest::Contains("robot'"), host_error);
        CHECK_THROWS_WITH_AS(without(), doctest::Contains("is missing"), host_error);
        auto wrong = [&] { agent a(loaded.tree, &c); };
        CHECK_THROWS_WITH_AS(wrong(), doctest::Contains("robot'"), host_error);
        CHECK_THROWS_WITH_AS(wrong(), doctest::Contains("is a '"), host_error);
        CHECK_THROWS_WITH_AS(wrong(), doctest::Contains("car'"), host_error);
        agent a(loaded.tree, &r);
        CHECK_THROWS_AS(a.set_host(&c), host_error);
    }

    TEST_CASE("a host type's name is the C++ name") {
        CHECK(detail::host_type_name(detail::host_type_of<int>()) == "int");
        CHECK(detail::host_type_name(detail::host_type_of<std::vector<int>>()).find("vector") !=
              std::string::npos);
        CHECK(detail::host_type_name({}) == "no host");
        CHECK(detail::host_type_of<robot>() != detail::host_type_of<int>());
        CHECK(detail::host_type_of<const robot>() == detail::host_type_of<robot>());
    }
}
