#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>

#include "random_trees.hpp"
#include "runtime_support.hpp"

using namespace canopy;
using testing::runtime_tree;
using testing::script_log;

namespace {

// A nap of `seconds` from its entry, then success (or failure, with `fails`), which says so
// (context::running_until); the event "hurry" ends it at its next tick. It logs its enters,
// exits and halts, with the time, to the agent's script_log, as the Scripted leaf does.
struct nap_state {
    std::int64_t due = 0;
    bool hurried = false;
};

class nap final : public stateful_node<nap_state> {
public:
    void enter(context& ctx) const override {
        state(ctx) = {ctx.time_ns() + std::llround(*seconds_ * 1e9), false};
        record(ctx, "enter");
    }
    status tick(context& ctx) const override {
        const nap_state& s = state(ctx);
        if (s.hurried || ctx.time_ns() >= s.due) return *fails_ ? status::failure : status::success;
        return ctx.running_until(s.due);
    }
    void exit(context& ctx, status result) const override {
        record(ctx, "exit " + std::string(to_string(result)));
    }
    void halt(context& ctx) const override { record(ctx, "halt"); }
    void on_event(context& ctx, std::string_view event) const override {
        if (event == "hurry") state(ctx).hurried = true;
    }

private:
    static void record(context& ctx, const std::string& what) {
        ctx.host<script_log>().calls.push_back(what + " #" +
                                               std::to_string(ctx.tree().record_id(ctx.node())) +
                                               " at " + std::to_string(ctx.time_ns()));
    }
    setting<double> seconds_{"seconds"};
    setting<bool> fails_{"fails", false};
};

// Returns running without saying anything of its next tick, for ever.
class busy final : public node {
public:
    status tick(context& /*ctx*/) const override { return status::running; }
};

registry sleep_registry() {
    registry reg = testing::runtime_registry();
    reg.add<nap>("Nap", 400);
    reg.add<busy>("Busy", 401);
    return reg;
}

std::shared_ptr<const tree> sleep_tree(const std::string& json) {
    load_result r = try_load_text(json, file_format::flat_json, sleep_registry(), "t.json");
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

std::string one(const std::string& type, const std::string& params = "") {
    return testing::json_tree({testing::record(1, 0, type, params)});
}

// A leaf of a random tree (testing::random_records): one that waits and says so (Wait, Nap,
// AlwaysRunning), one that finishes at once or runs without saying so (Scripted), or a
// SetBlackboard.
void sleep_leaf(record_set& records, int id, int parent, const testing::random_pick& pick) {
    switch (pick(12)) {
        case 0:
        case 1:
        case 2:
            records.add(id, parent, "Wait");
            if (pick(3) == 0) {
                records.add_param("seconds", std::string("{health}"));
            } else {
                records.add_param("seconds", testing::random_seconds(pick));
            }
            break;
        case 3:
        case 4:
        case 5:
            records.add(id, parent, "Nap");
            records.add_param("seconds", testing::random_seconds(pick));
            records.add_param("fails", pick(3) == 0);
            break;
        case 6: records.add(id, parent, pick(3) == 0 ? "AlwaysRunning" : "AlwaysSuccess"); break;
        case 7:
            records.add(id, parent, "SetBlackboard");
            records.add_param("key", std::string("count"));
            records.add_param("value", std::int64_t{pick(3)});
            break;
        default: {
            // Mostly finishing at once; now and then running without saying more.
            std::string results;
            for (int k = 1 + pick(3); k > 0; --k) results += "ssffkr"[pick(6)];
            records.add(id, parent, "Scripted");
            records.add_param("results", results);
        }
    }
}

// Whether two agents of one tree are in the same state: statuses, clock, tick count, keys.
void check_same(const agent& asleep, canopy::blackboard asleep_keys, agent& ticked,
                const std::string& where) {
    INFO(where);
    const tree& t = ticked.tree();
    for (tree::index k = 0; k < t.size(); ++k) {
        if (asleep.status_bytes()[k] != ticked.status_bytes()[k]) {
            FAIL_CHECK("node #" << t.record_id(k) << " (" << t.type_name(k) << ") is "
                                << to_string(asleep.last_status(k)) << ", not "
                                << to_string(ticked.last_status(k)));
        }
    }
    CHECK(asleep.time_ns() == ticked.time_ns());
    CHECK(asleep.ticks() == ticked.ticks());
    const canopy::blackboard b = ticked.blackboard();
    for (std::uint32_t slot = 0; slot < b.keys().size(); ++slot) {
        CHECK_MESSAGE(asleep_keys.text(slot) == b.text(slot), "key " << b.keys()[slot].name);
    }
}

// Ticks `n` agents of each random tree in a world and, beside them, `n` agents ticked every
// frame, with the same steps and the same things done to them from outside between frames;
// compares them. Returns the agent-frames slept and ticked.
std::pair<long, long> compare_with_every_frame(int rounds, int agents, std::uint32_t seed,
                                               parallel_ticker* ticker) {
    std::mt19937 random(seed);
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    const registry reg = sleep_registry();
    long slept = 0;
    long ticked = 0;
    for (int round = 0; round < rounds; ++round) {
        load_result built =
            build_tree(testing::random_records(random, 2 + pick(30), sleep_leaf), reg);
        REQUIRE(built);
        std::vector<script_log> world_logs(agents);
        std::vector<script_log> every_frame_logs(agents);
        world w = ticker != nullptr ? world(*ticker) : world();
        std::vector<agent> every_frame;
        for (int i = 0; i < agents; ++i) {
            const auto agent_seed = static_cast<std::uint64_t>(round * 1000 + i);
            w.add(agent(built.tree, &world_logs[i], agent_seed));
            every_frame.emplace_back(built.tree, &every_frame_logs[i], agent_seed);
        }
        for (int frame = 0; frame < 80; ++frame) {
            static const double steps[] = {1.0 / 60, 1.0 / 60, 1.0 / 30, 0.1, 0.25, 0.0};
            const double dt = steps[pick(6)];
            // From outside, between frames, to both.
            const int i = pick(agents);
            switch (pick(24)) {
                case 0: {
                    const double health = 0.1 * pick(20);
                    w.blackboard(i).set("health", health);
                    every_frame[i].blackboard().set("health", health);
                    break;
                }
                case 1: {
                    const std::int64_t count = pick(3);
                    w.blackboard(i).set("count", count);
                    every_frame[i].blackboard().set("count", count);
                    break;
                }
                case 2:
                    w.post_event(i, "hurry");
                    every_frame[i].post_event("hurry");
                    break;
                case 3:
                    w.reset(i);
                    every_frame[i].reset();
                    break;
                case 4:
                case 5: w.wake(i); break;  // changes nothing but who is ticked
                default: break;
            }
            w.tick(dt);
            for (agent& a : every_frame) a.tick(dt);
            slept += static_cast<long>(w.size() - w.ticked().size());
            ticked += static_cast<long>(w.ticked().size());
            for (int k = 0; k < agents; ++k) {
                // The calls of every frame, as they happen.
                if (world_logs[k].calls != every_frame_logs[k].calls) {
                    FAIL_CHECK("round " << round << ", frame " << frame << ", agent " << k
                                        << ": other calls");
                }
                world_logs[k].calls.clear();
                every_frame_logs[k].calls.clear();
            }
            // The agents' state, now and then, so that sleepers catch up over several frames.
            if (pick(4) == 0 || frame == 79) {
                for (int k = 0; k < agents; ++k) {
                    check_same(w.at(k), w.read_blackboard(k), every_frame[k],
                               "round " + std::to_string(round) + ", frame " +
                                   std::to_string(frame) + ", agent " + std::to_string(k));
                }
            }
        }
    }
    return {slept, ticked};
}

}  // namespace

TEST_SUITE("world") {
    TEST_CASE(
        "a world's agents go through the same states as agents ticked every frame, over "
        "random trees") {
        const auto [slept, ticked] = compare_with_every_frame(600, 4, 7, nullptr);
        MESSAGE("agent-frames slept: " << slept << ", ticked: " << ticked);
        CHECK(slept > ticked / 4);  // the agents did sleep, and often
    }

    TEST_CASE("a world ticks its awake agents on several threads as on one") {
        parallel_ticker ticker(2);
        const auto [slept, ticked] = compare_with_every_frame(6, 300, 11, &ticker);
        CHECK(slept > 0);
        CHECK(ticked > 0);
    }

    TEST_CASE("a Wait sleeps until the frame at which it succeeds when ticked every frame") {
        auto t = sleep_tree(testing::json_tree(
            {testing::record(1, 0, "Sequence"), testing::record(2, 1, "Wait", R"({"seconds": 1})"),
             testing::record(3, 1, "SetBlackboard", R"({"key": "count", "value": 1})")}));
        world w;
        w.add(agent(t));
        // Entered at 0.3 s, done at the first tick at or past 1.3 s: the 5th, at 1.5 s
        // (ceil(1 / 0.3) + 1 ticks of its run).
        w.tick(0.3);
        CHECK(w.asleep(0));
        CHECK(w.asleep_until_ns(0) == 1'300'000'000);
        CHECK(w.awake_count() == 0);
        for (int frame = 2; frame <= 4; ++frame) {
            w.tick(0.3);
            CHECK(w.ticked().empty());
            CHECK(w.at(0).ticks() == static_cast<std::uint64_t>(frame));
            CHECK(w.read_blackboard(0).get<std::int64_t>("count") == 0);
        }
        w.tick(0.3);
        CHECK(w.ticked() == std::vector<std::uint32_t>{0});
        CHECK(w.at(0).last_status(tree::root) == status::success);
        CHECK(w.read_blackboard(0).get<std::int64_t>("count") == 1);
        CHECK(w.at(0).time_ns() == 1'500'000'000);
        CHECK(w.at(0).ticks() == 5);
        CHECK_FALSE(w.asleep(0));  // its tree finished: it starts again at the next frame
    }

    TEST_CASE("a node that does not say when it is done keeps its agent awake") {
        SUBCASE("a program's action") {
            world w;
            w.add(agent(sleep_tree(testing::json_tree(
                {testing::record(1, 0, "Sequence"), testing::record(2, 1, "Busy")}))));
            for (int frame = 0; frame < 5; ++frame) {
                w.tick(0.1);
                CHECK_FALSE(w.asleep(0));
                CHECK(w.ticked().size() == 1);
            }
        }
        SUBCASE("a ReactiveSequence, which checks its conditions on every tick") {
            world w;
            w.add(agent(sleep_tree(testing::json_tree(
                {testing::record(1, 0, "ReactiveSequence"), testing::record(2, 1, "AlwaysSuccess"),
                 testing::record(3, 1, "Wait", R"({"seconds": 10})")}))));
            w.tick(0.1);
            CHECK_FALSE(w.asleep(0));
        }
        SUBCASE("WaitTicks, which counts its ticks") {
            world w;
            w.add(agent(sleep_tree(one("WaitTicks", R"({"ticks": 10})"))));
            w.tick(0.1);
            CHECK_FALSE(w.asleep(0));
        }
        SUBCASE("an agent with an observer, which would miss the ticks slept through") {
            world w;
            w.add(agent(sleep_tree(one("Wait", R"({"seconds": 10})"))));
            testing::call_recorder seen;
            w.wake(0).set_observer(&seen);
            w.tick(0.1);
            w.tick(0.1);
            CHECK_FALSE(w.asleep(0));
            CHECK(seen.events == std::vector<std::string>{"enter #1"});
        }
    }

    TEST_CASE("a Timeout wakes its agent at its deadline, and a sequence waits on its child") {
        world w;
        w.add(agent(
            sleep_tree(testing::json_tree({testing::record(1, 0, "Sequence"),
                                           testing::record(2, 1, "Timeout", R"({"seconds": 1})"),
                                           testing::record(3, 2, "Wait", R"({"seconds": 10})")}))));
        w.tick(0.25);
        CHECK(w.asleep_until_ns(0) == 1'250'000'000);
        for (int frame = 2; frame <= 4; ++frame) w.tick(0.25);
        CHECK(w.asleep(0));
        w.tick(0.25);
        CHECK(w.at(0).last_status(tree::root) == status::failure);
        CHECK(w.at(0).ticks() == 5);
    }

    TEST_CASE("AlwaysRunning sleeps until woken") {
        world w;
        w.add(agent(sleep_tree(one("AlwaysRunning"))));
        w.tick(0.1);
        CHECK(w.asleep_until_ns(0) == context::never);
        for (int frame = 0; frame < 100; ++frame) w.tick(0.1);
        CHECK(w.at(0).ticks() == 101);
        CHECK(std::llround(w.at(0).time() * 10) == 101);
        w.wake(0);
        CHECK_FALSE(w.asleep(0));
        w.tick(0.1);
        CHECK(w.ticked().size() == 1);
        CHECK(w.asleep(0));  // and back to sleep
    }

    TEST_CASE("what the program does to a sleeper wakes it") {
        // Each case: a world's agent and one ticked every frame, the same done to both.
        world w;
        std::vector<script_log> logs(2);
        // The world's agent of `tree_json`, and its twin ticked every frame.
        auto twins = [&](const std::string& tree_json) {
            auto t = sleep_tree(tree_json);
            w.add(agent(t, &logs[0]));
            return agent(t, &logs[1]);
        };
        auto tick_both = [&](agent& every_frame) {
            w.tick(0.1);
            every_frame.tick(0.1);
        };
        auto check_alike = [&](agent& every_frame) {
            for (int frame = 0; frame < 30; ++frame) {
                tick_both(every_frame);
                CHECK(w.at(0).last_status(tree::root) == every_frame.last_status(tree::root));
                CHECK(w.at(0).ticks() == every_frame.ticks());
            }
            CHECK(logs[0].calls == logs[1].calls);
        };
        SUBCASE("writing a key") {
            agent every_frame = twins(one("Wait", R"({"seconds": "{health}"})"));
            w.blackboard(0).set("health", 100.0);
            every_frame.blackboard().set("health", 100.0);
            tick_both(every_frame);
            CHECK(w.asleep_until_ns(0) == 100'100'000'000);
            w.blackboard(0).set("health", 0.5);
            every_frame.blackboard().set("health", 0.5);
            CHECK_FALSE(w.asleep(0));
            tick_both(every_frame);
            CHECK(w.asleep_until_ns(0) == 600'000'000);  // entered at 0.1 s
            check_alike(every_frame);
        }
        SUBCASE("posting an event") {
            agent every_frame = twins(one("Nap", R"({"seconds": 100})"));
            tick_both(every_frame);
            CHECK(w.asleep(0));
            w.post_event(0, "hurry");
            every_frame.post_event("hurry");
            CHECK_FALSE(w.asleep(0));
            tick_both(every_frame);
            CHECK(w.at(0).last_status(tree::root) == status::success);
            check_alike(every_frame);
        }
        SUBCASE("posting an event to every agent") {
            w.add(agent(sleep_tree(one("Nap", R"({"seconds": 100})")), &logs[0]));
            w.tick(0.1);
            w.post_event("hurry");
            CHECK_FALSE(w.asleep(0));
            w.tick(0.1);
            CHECK(w.at(0).last_status(tree::root) == status::success);
        }
        SUBCASE("a reset") {
            agent every_frame = twins(one("Nap", R"({"seconds": 1})"));
            for (int frame = 0; frame < 4; ++frame) tick_both(every_frame);
            w.reset(0);
            every_frame.reset();
            CHECK_FALSE(w.asleep(0));
            CHECK(w.at(0).time_ns() == 0);
            check_alike(every_frame);
        }
        SUBCASE("wake(), which changes nothing but the frames it is ticked at") {
            agent every_frame = twins(one("Nap", R"({"seconds": 1})"));
            tick_both(every_frame);
            w.wake(0);
            check_alike(every_frame);
        }
    }

    TEST_CASE("an action says when to come back with running_for") {
        registry reg = testing::runtime_registry();
        // Done at 2 s on the agent's clock; until then, nothing to do.
        reg.add_action("Patrol", [](context& ctx) {
            return ctx.time_ns() >= 2'000'000'000 ? status::success
                                                  : ctx.running_for(2.0 - ctx.time());
        });
        load_result r = try_load_text(one("Patrol"), file_format::flat_json, reg, "t.json");
        REQUIRE(r);
        world w;
        w.add(agent(r.tree));
        w.tick(0.25);
        CHECK(w.asleep_until_ns(0) == 2'000'000'000);
        for (int frame = 2; frame < 8; ++frame) {
            w.tick(0.25);
            CHECK(w.ticked().empty());
        }
        w.tick(0.25);
        CHECK(w.ticked().size() == 1);
        CHECK(w.at(0).last_status(tree::root) == status::success);
    }

    TEST_CASE("remove moves the last agent into the hole, asleep as it was") {
        auto waiting = sleep_tree(one("Wait", R"({"seconds": 1})"));
        auto busy = sleep_tree(one("Busy"));
        world w;
        w.add(agent(busy));
        w.add(agent(busy));
        w.add(agent(waiting));
        w.tick(0.1);
        CHECK(w.asleep(2));
        agent removed = w.remove(0);
        CHECK(removed.ticks() == 1);
        REQUIRE(w.size() == 2);
        CHECK(w.asleep(0));  // the Wait's agent, now at 0
        CHECK(w.asleep_until_ns(0) == 1'100'000'000);
        for (int frame = 0; frame < 10; ++frame) w.tick(0.1);
        CHECK(w.at(0).last_status(tree::root) == status::success);
        CHECK(w.at(0).ticks() == 11);
        CHECK_THROWS_WITH_AS(w.remove(2), "world::remove: no agent 2 (the world has 2)", error);
    }

    TEST_CASE("an agent's exception leaves it awake and the others ticked") {
        registry reg = testing::runtime_registry();
        reg.add_action("Throw",
                       [](context&) -> status { throw std::runtime_error("out of ammo"); });
        load_result r = try_load_text(one("Throw"), file_format::flat_json, reg, "t.json");
        REQUIRE(r);
        world w;
        w.add(agent(r.tree));
        w.add(agent(sleep_tree(one("Busy"))));
        CHECK_THROWS_WITH(w.tick(0.1), "out of ammo");
        CHECK(w.at(1).ticks() == 1);
        CHECK_FALSE(w.asleep(0));
        CHECK(w.awake_count() == 2);
    }

    TEST_CASE("world::tick refuses the steps agent::tick refuses, changing nothing") {
        world w;
        w.add(agent(sleep_tree(one("Busy"))));
        CHECK_THROWS_WITH_AS(w.tick(-1.0),
                             "world::tick: dt must be a number of seconds from 0 to a year, not -1",
                             error);
        CHECK(w.at(0).ticks() == 0);
    }
}
