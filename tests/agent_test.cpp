#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "random_trees.hpp"
#include "runtime_support.hpp"

using namespace canopy;
using testing::run;
using testing::runtime_tree;
using testing::script_log;

namespace {

// A leaf of a random tree (testing::random_records): a Scripted one, running now and then.
void scripted_leaf(record_set& records, int id, int parent, const testing::random_pick& pick) {
    std::string results;
    for (int k = 1 + pick(4); k > 0; --k) results += "sfrrk"[pick(5)];
    records.add(id, parent, "Scripted");
    records.add_param("results", results);
}

// Counts what an observer sees, to compare with what the nodes themselves saw.
struct counting_observer : observer {
    void on_tick(const agent&, tree::index, status before, status result) override {
        enters += before != status::running ? 1 : 0;
        exits += result != status::running ? 1 : 0;
    }
    void on_halt(const agent&, tree::index) override { ++halts; }
    long enters = 0;
    long exits = 0;
    long halts = 0;
};

// Keeps every tick's time step in a vector: state that owns memory. Each state holds a copy
// of the node's token, so token.use_count() - 1 is the number of states alive.
struct remembered_steps {
    std::vector<double> steps;
    std::shared_ptr<const int> token;
};

class remembering final : public stateful_node<remembered_steps> {
public:
    static std::vector<param_spec> parameters() { return {}; }
    explicit remembering(const param_list&) {}
    void construct_state(void* storage) const override {
        ::new (storage) remembered_steps{{}, token_};
    }
    status tick(context& ctx) const override {
        std::vector<double>& steps = state(ctx).steps;
        steps.push_back(ctx.dt());
        return steps.size() < 3 ? status::running : status::success;
    }
    long states_alive() const { return token_.use_count() - 1; }

private:
    std::shared_ptr<const int> token_ = std::make_shared<const int>(0);
};

// A state whose constructor throws once `fail_from` of them (in any node) have been made.
class refusing final : public stateful_node<std::string> {
public:
    static std::vector<param_spec> parameters() { return {}; }
    explicit refusing(const param_list&) {}
    void construct_state(void* storage) const override {
        if (++made > fail_from) throw std::runtime_error("no room for the state");
        ::new (storage) std::string("long enough a text to be on the heap, not in the string");
    }
    status tick(context&) const override { return status::success; }
    static inline int fail_from = 1'000;
    static inline int made = 0;
};

}  // namespace

TEST_SUITE("agent") {
    TEST_CASE(
        "every enter is matched by exactly one exit or halt, over thousands of random trees") {
        std::mt19937 random(2024);
        registry reg = testing::runtime_registry();
        long leaf_enters = 0;
        for (int round = 0; round < 2000; ++round) {
            load_result built = build_tree(
                testing::random_records(random, 2 + static_cast<int>(random() % 40), scripted_leaf),
                reg);
            REQUIRE(built);
            script_log log;
            log.keep_calls = false;
            counting_observer seen;
            agent a(built.tree, &log, static_cast<std::uint64_t>(round));
            a.set_observer(&seen);
            for (int tick = 0; tick < 25; ++tick) {
                a.tick(0.1);
                if (random() % 10 == 0) a.reset();
                if (random() % 4 == 0) a.blackboard().set("count", std::int64_t(random() % 3));
            }
            a.reset();
            CHECK(log.violations == 0);
            CHECK(log.enters == log.finishes);
            CHECK(seen.enters == seen.exits + seen.halts);
            for (tree::index i = 0; i < built.tree->size(); ++i) CHECK_FALSE(a.is_running(i));
            leaf_enters += log.enters;
        }
        CHECK(leaf_enters > 10000);  // the trees did run
    }

    TEST_CASE("tick takes a time step from 0 to a year, and refuses any other") {
        agent a(runtime_tree(R"([{"id": 1, "type": "Wait", "params": {"seconds": 1}}])"));
        CHECK(a.tick(0.0) == status::running);  // no time passes: a Wait never ends
        CHECK(a.tick(0.0) == status::running);
        CHECK(a.time_ns() == 0);
        CHECK_THROWS_WITH_AS(
            a.tick(-0.1), "agent::tick: dt must be a number of seconds from 0 to a year, not -0.1",
            error);
        CHECK_THROWS_WITH_AS(a.tick(1e308),
                             "agent::tick: dt must be a number of seconds from 0 to a year, not "
                             "1e+308",
                             error);
        CHECK_THROWS_AS(a.tick(std::numeric_limits<double>::quiet_NaN()), error);
        CHECK_THROWS_AS(a.tick(std::numeric_limits<double>::infinity()), error);
        CHECK_THROWS_AS(a.tick(366.0 * 24 * 3600), error);
        CHECK(a.time_ns() == 0);  // a refused step changes nothing
        CHECK(a.tick(1.0) == status::success);
        CHECK(a.time_ns() == 1000000000);
        CHECK(a.time() == 1.0);
    }

    TEST_CASE("ticks a tree 10,000 levels deep") {
        const int depth = 10000;
        load_result r = build_tree(testing::not_chain(depth), testing::runtime_registry());
        REQUIRE(r);
        agent a(r.tree);
        CHECK(a.tick(0.1) ==
              ((depth - 1) % 2 == 1 ? status::failure : status::success));  // 9,999 inversions
    }

    TEST_CASE("agents share one tree and keep their own state") {
        auto t = runtime_tree(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 1}},
            {"id": 3, "parentId": 1, "type": "SetBlackboard", "params": {"key": "count", "value": 7}}])");
        agent first(t);
        agent second(t);
        CHECK(first.tick(0.1) == status::running);
        CHECK(first.tick(0.1) == status::success);
        CHECK(second.tick(0.1) == status::running);  // its Wait has its own counter
        CHECK(first.blackboard().get<std::int64_t>("count") == 7);
        CHECK(second.blackboard().get<std::int64_t>("count") == 0);
        CHECK(t.use_count() == 3);
        CHECK(&first.tree() == &second.tree());
    }

    TEST_CASE("reset halts running nodes, children before parents, and restarts") {
        script_log log;
        auto t =
            runtime_tree(R"([{"id": 1, "type": "Sequence"}, {"id": 2, "parentId": 1, "type": "Not"},
            {"id": 3, "parentId": 2, "type": "Scripted", "params": {"results": "r"}}])");
        agent a(t, &log);
        std::ostringstream trace;
        trace_printer printer(trace);
        a.set_observer(&printer);
        CHECK(run(a, 1) == "r");
        a.reset();
        CHECK(trace.str() ==
              "-- tick 1 (0.1 s)\n"
              "Sequence #1\n"
              "  Not #2\n"
              "    Scripted #3: idle -> running\n"
              "  Not #2: idle -> running\n"
              "Sequence #1: idle -> running\n"
              "    Scripted #3: halted\n"
              "  Not #2: halted\n"
              "Sequence #1: halted\n");
        CHECK(log.calls == std::vector<std::string>{"enter #3", "halt #3"});
        CHECK(a.time() == 0.0);
        CHECK(a.last_status(0) == status::idle);
    }

    TEST_CASE("replace_tree halts the old tree's running nodes and runs the new one") {
        script_log log;
        agent a(runtime_tree(R"([{"id": 1, "type": "Scripted", "params": {"results": "r"}}])"),
                &log);
        a.tick(0.1);
        a.replace_tree(runtime_tree(R"([{"id": 9, "type": "AlwaysFailure"}])"));
        CHECK(log.calls == std::vector<std::string>{"enter #1", "halt #1"});
        CHECK(a.tick(0.1) == status::failure);
        CHECK(a.tree().record_id(0) == 9);
    }

    TEST_CASE("a node state that owns memory lives until its agent is freed or reset") {
        registry reg = testing::runtime_registry();
        reg.add<remembering>("Remembering");
        load_result r = try_load_text(R"([{"id": 1, "type": "Remembering"}])",
                                      file_format::flat_json, reg, "t.json");
        REQUIRE(r);
        std::shared_ptr<const tree> t = r.tree;
        const auto& node = dynamic_cast<const remembering&>(*t->object(0));
        {
            std::vector<agent> agents;
            for (int k = 0; k < 3; ++k) agents.emplace_back(t);
            CHECK(node.states_alive() == 3);
            CHECK(agents[0].tick(0.25) == status::running);
            CHECK(agents[0].tick(0.5) == status::running);
            agents[0].reset();  // the vector is destroyed and made anew: a run starts afresh
            CHECK(node.states_alive() == 3);
            CHECK(run(agents[0], 3) == "rrs");
            agent moved(std::move(agents[1]));
            CHECK(node.states_alive() == 3);
            moved.replace_tree(runtime_tree(R"([{"id": 9, "type": "AlwaysFailure"}])"));
            CHECK(node.states_alive() == 2);
        }
        CHECK(node.states_alive() == 0);
    }

    TEST_CASE("an agent whose node state cannot be made is not made, and leaks nothing") {
        registry reg = testing::runtime_registry();
        reg.add<remembering>("Remembering");
        reg.add<refusing>("Refusing");
        load_result r = try_load_text(
            R"([{"id": 1, "type": "Sequence"}, {"id": 2, "parentId": 1, "type": "Remembering"},
                {"id": 3, "parentId": 1, "type": "Refusing"},
                {"id": 4, "parentId": 1, "type": "Refusing"}])",
            file_format::flat_json, reg, "t.json");
        REQUIRE(r);
        const auto& remembered = dynamic_cast<const remembering&>(*r.tree->object(1));
        refusing::made = 0;
        refusing::fail_from = 3;  // the first agent's two, the second agent's first, not its second
        agent made(r.tree);
        CHECK(remembered.states_alive() == 1);
        CHECK_THROWS_WITH_AS(agent(r.tree), "no room for the state", std::runtime_error);
        // The second agent's Remembering state, made before the throw, is gone again (and
        // AddressSanitizer sees no string or block left behind).
        CHECK(remembered.states_alive() == 1);
        CHECK(made.tick(0.1) == status::running);
        refusing::fail_from = 1'000;
    }

    TEST_CASE("an agent is one block of about a byte per node, and moves without copying it") {
        auto t = runtime_tree(
            R"([{"id": 1, "type": "Sequence"}, {"id": 2, "parentId": 1, "type": "AlwaysSuccess"},
            {"id": 3, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 3}}])");
        agent a(t);
        // 3 status bytes, the Wait's 8-byte state at offset 8, then 3 blackboard cells (and
        // no update stamps: no node of the tree reads them).
        CHECK(a.state_bytes() == 8 + 8 + 3 * 8);
        CHECK(t->state_bytes() == a.state_bytes());
        a.tick(0.1);
        agent moved(std::move(a));
        CHECK(run(moved, 3) == "rrs");
    }

    TEST_CASE("leaves from functions see the host, the time step and their parameters") {
        struct pet {
            int coins = 0;
        } host;
        registry reg;
        register_builtin_nodes(reg);
        reg.add_condition("CoinNearby", [](context& ctx) { return ctx.host<pet>().coins < 2; });
        reg.add_action("PickUpCoin",
                       [](context& ctx) {
                           ctx.host<pet>().coins +=
                               static_cast<int>(ctx.params().get<std::int64_t>("per_pick"));
                           return ctx.dt() > 0 ? status::success : status::failure;
                       },
                       std::nullopt, {param_spec::optional("per_pick", std::int64_t{1})});
        load_result r = try_load_text(
            R"([{"id": 1, "type": "Sequence"}, {"id": 2, "parentId": 1, "type": "CoinNearby"},
            {"id": 3, "parentId": 1, "type": "PickUpCoin"}])",
            file_format::flat_json, reg);
        REQUIRE(r);
        agent a(r.tree, &host);
        CHECK(a.tick(0.5) == status::success);
        CHECK(a.tick(0.0) == status::failure);
        CHECK(host.coins == 2);
        CHECK(a.tick(0.5) == status::failure);  // no coin nearby any more
    }

    TEST_CASE("after a node throws, reset halts every node the tick had entered") {
        registry reg = testing::runtime_registry();
        reg.add_action("Throw", [](context&) -> status { throw std::runtime_error("boom"); });
        load_result r = try_load_text(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "Scripted", "params": {"results": "s"}},
            {"id": 3, "parentId": 1, "type": "Throw"}])",
                                      file_format::flat_json, reg);
        REQUIRE(r);
        script_log log;
        agent a(r.tree, &log);
        CHECK_THROWS_WITH(a.tick(0.1), "boom");
        CHECK(a.is_running(0));
        a.reset();
        for (tree::index i = 0; i < r.tree->size(); ++i) CHECK_FALSE(a.is_running(i));
        CHECK(log.violations == 0);
    }

    TEST_CASE("a tree whose leaves have no behaviour loads but cannot make an agent") {
        registry reg;
        reg.add_leaf("Daydream");
        load_result r =
            try_load_text(R"([{"id": 1, "type": "Daydream"}])", file_format::flat_json, reg);
        REQUIRE(r);
        CHECK_THROWS_WITH_AS(
            agent(r.tree),
            "node type 'Daydream' has no behaviour, so its trees cannot run; register it with "
            "add_action, add_condition or add<YourNode>, not add_leaf",
            error);
    }

    TEST_CASE("the blackboard refuses a value of the wrong type and an unknown key") {
        agent a(runtime_tree(R"([{"id": 1, "type": "AlwaysSuccess"}])"));
        blackboard board = a.blackboard();
        board.set("health", 3);  // an integer into a number key is fine
        CHECK(board.get<double>("health") == 3.0);
        CHECK_THROWS_WITH_AS(board.set("alarm", 1.5),
                             "blackboard key 'alarm' holds a boolean value, not a number", error);
        CHECK_THROWS_WITH_AS(board.get<bool>("count"),
                             "blackboard key 'count' holds an integer value, not a boolean", error);
        CHECK_THROWS_WITH_AS(board.slot("mana"), "no blackboard key 'mana'", error);
        CHECK(board.find("alarm") == 2);
    }

    TEST_CASE("a parallel ticker ticks every agent once, on several threads") {
        auto t = runtime_tree(R"([{"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 2}},
            {"id": 3, "parentId": 1, "type": "SetBlackboard", "params": {"key": "count", "value": 5}}])");
        std::vector<agent> agents;
        for (int i = 0; i < 1001; ++i) agents.emplace_back(t);
        parallel_ticker ticker(3);
        CHECK(ticker.threads() == 3);
        for (int tick = 0; tick < 3; ++tick) ticker.tick(agents, 0.1);
        for (agent& a : agents) {
            CHECK(a.last_status(0) == status::success);
            CHECK(a.time() == doctest::Approx(0.3));
            CHECK(a.blackboard().get<std::int64_t>("count") == 5);
        }
    }

    TEST_CASE("a parallel ticker passes a node's exception on to its caller") {
        registry reg;
        reg.add_action("Throw", [](context&) -> status { throw std::runtime_error("boom"); });
        load_result r =
            try_load_text(R"([{"id": 1, "type": "Throw"}])", file_format::flat_json, reg);
        REQUIRE(r);
        std::vector<agent> agents;
        for (int i = 0; i < 10; ++i) agents.emplace_back(r.tree);
        parallel_ticker ticker(2);
        CHECK_THROWS_WITH(ticker.tick(agents, 0.1), "boom");
    }

    TEST_CASE("an action taking its host by type gets the agent's host without asking") {
        struct robot {
            int steps = 0;
        } host;
        registry reg;
        register_builtin_nodes(reg);
        reg.add_action("Step", [](robot& r, context&) {
            ++r.steps;
            return status::success;
        });
        reg.add_condition("Tired", [](const robot& r, context&) { return r.steps >= 2; });
        load_result loaded = try_load_text(
            R"([{"id": 1, "type": "Selector"}, {"id": 2, "parentId": 1, "type": "Tired"},
            {"id": 3, "parentId": 1, "type": "Step"}])",
            file_format::flat_json, reg);
        REQUIRE(loaded);
        agent a(loaded.tree, &host);
        for (int i = 0; i < 4; ++i) a.tick(0.1);
        CHECK(host.steps == 2);
        CHECK(a.host<robot>() == &host);
    }

    TEST_CASE("an agent refuses a host of another type than its tree's actions take") {
        struct robot {
            int steps = 0;
        } host;
        struct car {
        } other;
        registry reg;
        register_builtin_nodes(reg);
        reg.add_action("Step", [](robot& r, context&) {
            ++r.steps;
            return status::success;
        });
        load_result loaded =
            try_load_text(R"([{"id": 1, "type": "Step"}])", file_format::flat_json, reg);
        REQUIRE(loaded);
        SUBCASE("at construction") {
            auto wrong = [&] { agent a(loaded.tree, &other); };
            CHECK_THROWS_AS(wrong(), host_error);
            auto none = [&] { agent a(loaded.tree); };
            CHECK_THROWS_WITH_AS(
                none(), doctest::Contains("node type 'Step' takes the agent's host"), host_error);
            try {
                wrong();
            } catch (const error& e) {
                CHECK(e.code() == error_code::host);
            }
        }
        SUBCASE("in set_host, which keeps the host it had") {
            agent a(loaded.tree, &host);
            CHECK_THROWS_AS(a.set_host(&other), host_error);
            CHECK_THROWS_AS(a.set_host(nullptr), host_error);
            CHECK(a.host<robot>() == &host);
            a.tick(0.1);
            CHECK(host.steps == 1);
        }
        SUBCASE("in move_to, which stays on its tree") {
            registry other_reg;
            other_reg.add_action("Drive", [](car&, context&) { return status::success; });
            load_result driving =
                try_load_text(R"([{"id": 1, "type": "Drive"}])", file_format::flat_json, other_reg);
            REQUIRE(driving);
            agent a(loaded.tree, &host);
            CHECK_THROWS_AS(a.move_to(driving.tree), host_error);
            CHECK(&a.tree() == loaded.tree.get());
            a.tick(0.1);
            CHECK(host.steps == 1);
        }
    }

    TEST_CASE("asking for the host as another type throws instead of casting") {
        struct robot {
            int steps = 0;
        } host;
        struct car {
            int fuel = 0;
        };
        registry reg;
        reg.add_action("AsCar", [](context& ctx) {
            ctx.host<car>().fuel = 1;
            return status::success;
        });
        reg.add_action("MaybeCar", [](context& ctx) {
            return ctx.host_or_null<car>() == nullptr ? status::failure : status::success;
        });
        load_result as_car =
            try_load_text(R"([{"id": 1, "type": "AsCar"}])", file_format::flat_json, reg);
        load_result maybe =
            try_load_text(R"([{"id": 1, "type": "MaybeCar"}])", file_format::flat_json, reg);
        REQUIRE(as_car);
        REQUIRE(maybe);
        agent wrong(as_car.tree, &host);
        CHECK_THROWS_WITH_AS(wrong.tick(0.1), doctest::Contains("car', which it is not"),
                             host_error);
        agent missing(as_car.tree);
        CHECK_THROWS_AS(missing.tick(0.1), host_error);
        CHECK(missing.host<robot>() == nullptr);
        agent without(maybe.tree);
        CHECK(without.tick(0.1) == status::failure);
        agent other(maybe.tree, &host);
        CHECK_THROWS_AS(other.tick(0.1), host_error);
        CHECK(host.steps == 0);
    }
}
