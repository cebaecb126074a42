// Snapshots of agents (docs/snapshots.md): saved and restored into the same tree, a changed
// one, many at once; refused, the agent untouched; and agents moving to a new version of their
// tree in place.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime_support.hpp"
#include "test_support.hpp"

namespace canopy {
namespace {

using testing::leaf;
using testing::record;
using testing::script_log;

// Everything a run shows of an agent: each node's status, each key's value and whether it is
// set, the clock and the tick count.
std::string picture(agent& a) {
    std::string text =
        "t=" + std::to_string(a.time_ns()) + " n=" + std::to_string(a.ticks()) + " |";
    for (tree::index i = 0; i < a.tree().size(); ++i)
        text += " " + std::string(to_string(a.last_status(i)));
    text += " |";
    blackboard board = a.blackboard();
    for (std::uint32_t k = 0; k < board.keys().size(); ++k)
        text += " " + board.keys()[k].name + "=" + (board.is_set(k) ? board.text(k) : "<unset>");
    return text;
}

std::shared_ptr<const tree> tree_from_json(const std::string& json, const registry& reg) {
    load_result r = try_load_text(json, file_format::flat_json, reg, "t.json");
    for (const diagnostic& d : r.diagnostics) INFO(to_string(d));
    REQUIRE(r);
    return r.tree;
}

std::shared_ptr<const tree> btcpp_tree(const std::string& xml, const registry& reg) {
    load_result r = try_load_text(xml, file_format::btcpp_xml, reg, "t.xml");
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

// A BehaviorTree.CPP tree with every kind of state a built-in keeps: a Repeat's count, a
// Retry's attempts, a memory sequence's place, a RunOnce, timers, a Parallel, scripts writing
// integers, reals, strings and booleans.
const char* const busy_xml = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Parallel success_count="2" failure_count="2">
      <Repeat num_cycles="50">
        <SequenceWithMemory>
          <Script code="n := 0; name := 'a'; flag := false; r := 0.5"/>
          <Sleep msec="250"/>
          <Script code="n += 1; name = name + 'b'; flag = !flag; r = r * 3"/>
          <RetryUntilSuccessful num_attempts="3">
            <ScriptCondition code="n >= 3"/>
          </RetryUntilSuccessful>
          <RunOnce then_skip="true"><Script code="once := 1"/></RunOnce>
        </SequenceWithMemory>
      </Repeat>
      <Timeout msec="4000"><Sleep msec="9000"/></Timeout>
    </Parallel>
  </BehaviorTree>
</root>)";

// The uninterrupted agent and one restored from its snapshot after `split` ticks go on tick by
// tick alike.
void check_resumes(const std::shared_ptr<const tree>& t, int split, int more, double dt) {
    agent whole(t, {}, 7);
    for (int k = 0; k < split; ++k) whole.tick(dt);
    const std::string bytes = whole.save();
    agent resumed(t, {}, 99);  // another seed: the snapshot brings the generator
    resumed.tick(dt);          // and another state, which the restore replaces
    resumed.restore(bytes);
    REQUIRE(picture(resumed) == picture(whole));
    for (int k = 0; k < more; ++k) {
        const status a = whole.tick(dt);
        const status b = resumed.tick(dt);
        INFO("tick " << split + k + 1);
        REQUIRE(a == b);
        REQUIRE(picture(resumed) == picture(whole));
    }
}

// A node whose state owns memory and is not saved: a running one cannot be saved or moved.
struct unsaved_node : stateful_node<std::string> {
    void halt(context& /*ctx*/) const override { ++halts; }
    static inline int halts = 0;
    void enter(context& ctx) const override { state(ctx) = "started"; }
    status tick(context& ctx) const override {
        state(ctx) += "+";
        return state(ctx).size() > 10 ? status::success : status::running;
    }
};
}  // namespace

TEST_SUITE("snapshots") {
    TEST_CASE("a BehaviorTree.CPP agent restored at any tick goes on as if never stopped") {
        const registry reg = testing::test_registry();
        const std::shared_ptr<const tree> t = btcpp_tree(busy_xml, reg);
        for (int split : {0, 1, 2, 3, 5, 8, 13, 21}) {
            INFO("split at tick " << split);
            check_resumes(t, split, 40, 0.1);
        }
    }

    TEST_CASE("a behavior3 agent with arrays, events and waits restored goes on alike") {
        const std::shared_ptr<const tree> t = testing::behavior3_tree(R"({
            "name": "Sequence", "children": [
              {"name": "Calculate", "args": {"value": "a + 1"}, "output": ["a"]},
              {"name": "Wait", "args": {"time": 0.3}},
              {"name": "Push", "input": ["list", "a"]},
              {"name": "Filter", "input": ["list"], "output": ["x", "picked"], "children": [
                {"name": "Check", "args": {"value": "x % 2 == 0"}}]}
            ]})",
                                                                      R"([
              {"name": "a", "desc": ""}, {"name": "list", "desc": ""},
              {"name": "x", "desc": ""}, {"name": "picked", "desc": ""}])");
        agent first(t);
        testing::set_at(first.blackboard(), "list", dynamic_value(dynamic_value::array_type{}));
        testing::set_at(first.blackboard(), "a", std::numeric_limits<double>::quiet_NaN());
        first.tick(0.1);
        testing::set_at(first.blackboard(), "a", 0.0);
        for (int split : {1, 2, 4, 7}) {
            agent whole(t);
            whole.restore(first.save());
            for (int k = 0; k < split; ++k) whole.tick(0.1);
            agent resumed(t);
            resumed.restore(whole.save());
            for (int k = 0; k < 20; ++k) {
                REQUIRE(whole.tick(0.1) == resumed.tick(0.1));
                REQUIRE(picture(resumed) == picture(whole));
            }
        }
        // NaN, which JSON cannot say, comes back as NaN.
        agent nan_agent(t);
        testing::set_at(nan_agent.blackboard(), "a", std::numeric_limits<double>::quiet_NaN());
        agent back(t);
        back.restore(nan_agent.save());
        CHECK(std::isnan(testing::number_at(back.blackboard(), "a")));
    }

    TEST_CASE("a snapshot keeps the clock, the tick count, the generator and unset keys") {
        const registry reg = testing::test_registry();
        const std::shared_ptr<const tree> t = btcpp_tree(busy_xml, reg);
        agent a(t, {}, 5);
        for (int k = 0; k < 4; ++k) a.tick(0.25);
        agent b(t, {}, 6);
        b.restore(a.save());
        CHECK(b.time_ns() == 1'000'000'000);
        CHECK(b.ticks() == 4);
        CHECK(picture(b) == picture(a));
        a.reset();
        CHECK(a.ticks() == 0);
    }

    TEST_CASE("bad snapshots are refused with the agent untouched") {
        const registry reg = testing::test_registry();
        const std::shared_ptr<const tree> t = btcpp_tree(busy_xml, reg);
        agent saved(t, {}, 3);
        for (int k = 0; k < 6; ++k) saved.tick(0.1);
        const std::string good = saved.save();

        agent target(t, {}, 4);
        for (int k = 0; k < 2; ++k) target.tick(0.1);
        const std::string before = picture(target);
        const auto refusal = [&](std::string_view bytes) {
            try {
                target.restore(bytes);
            } catch (const error& e) {
                CHECK(e.code() == error_code::snapshot);
                CHECK(picture(target) == before);
                return std::string(e.what());
            }
            FAIL("restored");
            return std::string();
        };
        for (std::size_t cut = 0; cut < good.size(); cut += 7) {
            INFO("truncated to " << cut << " bytes");
            CHECK(refusal(good.substr(0, cut)).find("snapshot:") == 0);
        }
        CHECK(refusal("garbage, not a snapshot").find("not a Canopy snapshot") !=
              std::string::npos);
        CHECK(refusal(good + "x").find("damaged") != std::string::npos);
        std::string flipped = good;
        flipped[good.size() / 2] ^= 1;
        CHECK(refusal(flipped).find("damaged: its checksum does not match") != std::string::npos);

        std::string newer = good;
        newer[8] = static_cast<char>(snapshot_version + 1);
        CHECK(refusal(newer).find("newer than this build reads") != std::string::npos);

        // Another tree's snapshot, and a key whose type differs from the tree's.
        const std::shared_ptr<const tree> other = btcpp_tree(
            R"(<root BTCPP_format="4"><BehaviorTree ID="Other"><Sleep msec="5"/></BehaviorTree></root>)",
            reg);
        agent stranger(other);
        CHECK(refusal(stranger.save()).find("belongs to tree 'Other'") != std::string::npos);
        snapshot_content content = read_snapshot(good);
        for (snapshot_content::key& key : content.keys) {
            if (key.name == "n") key.type = "number";
        }
        CHECK(refusal(write_snapshot(content)).find("key 'n' holds number in the snapshot") !=
              std::string::npos);
        // A status byte that is no status.
        content = read_snapshot(good);
        content.agents[0].image[1] = 9;
        CHECK(refusal(write_snapshot(content)).find("has no status 9") != std::string::npos);
    }

    TEST_CASE("the JSON form holds the same content and restores as the bytes do") {
        const registry reg = testing::test_registry();
        const std::shared_ptr<const tree> t = btcpp_tree(busy_xml, reg);
        agent a(t, {}, 11);
        for (int k = 0; k < 7; ++k) a.tick(0.1);
        const std::string bytes = a.save();
        const std::string text = snapshot_to_json(bytes);
        CHECK(text.find(R"("canopy_snapshot": 1)") != std::string::npos);
        CHECK(text.find(R"("name": {)") != std::string::npos);  // the key "name", readable
        CHECK(text.find(R"("value": "ab")") != std::string::npos);
        CHECK(text.find(R"("running")") != std::string::npos);
        CHECK(snapshot_from_json(text) == bytes);
        agent b(t, {}, 12);
        b.restore(snapshot_from_json(text));
        CHECK(picture(b) == picture(a));

        // A person's edit: a key's value, which the restored agent then holds.
        std::string edited = text;
        const std::size_t at = edited.find(R"("value": "ab")");
        edited.replace(at, 13, R"("value": "zz")");
        b.restore(snapshot_from_json(edited));
        CHECK(b.blackboard().get<std::string_view>("name") == "zz");
        CHECK_THROWS_WITH_AS((void)snapshot_from_json("{}"),
                             doctest::Contains("no 'canopy_snapshot'"), error);
        CHECK_THROWS_WITH_AS((void)snapshot_from_json("[1,"), doctest::Contains("not JSON"), error);
        // A number out of a field's range, which the JSON library would convert unchecked.
        std::string huge = text;
        huge.replace(huge.find(R"("canopy_snapshot": 1)"), 20, R"("canopy_snapshot": 1e30)");
        CHECK_THROWS_WITH_AS((void)snapshot_from_json(huge),
                             doctest::Contains("a whole number in range expected"), error);
    }

    TEST_CASE("a running node whose state cannot be saved is refused, or its branch restarts") {
        struct saved_node : stateful_node<std::string> {
            void enter(context& ctx) const override { state(ctx) = "go"; }
            status tick(context& ctx) const override {
                state(ctx) += "!";
                return state(ctx).size() > 6 ? status::success : status::running;
            }
            bool save_state(const void* storage, std::string& out) const override {
                out = *static_cast<const std::string*>(storage);
                return true;
            }
            void restore_state(void* storage, std::string_view saved) const override {
                if (saved.empty()) throw std::runtime_error("nothing saved");
                *static_cast<std::string*>(storage) = std::string(saved);
            }
        };
        registry reg;
        register_builtin_nodes(reg);
        reg.add<unsaved_node>("Unsaved");
        reg.add<saved_node>("Saved");
        const std::shared_ptr<const tree> t =
            tree_from_json(testing::json_tree({record(1, 0, "Sequence"), record(2, 1, "Saved"),
                                               record(3, 1, "Unsaved")}),
                           reg);
        agent a(t);
        a.tick(0);  // Saved runs: "go!"
        agent b(t);
        b.restore(a.save());
        for (int k = 0; k < 5; ++k) REQUIRE(a.tick(0) == b.tick(0));
        CHECK(picture(a) == picture(b));
        CHECK(a.is_running(2));  // now Unsaved runs
        try {
            (void)a.save();
            FAIL("saved");
        } catch (const error& e) {
            CHECK(std::string(e.what()).find("node 2 ('Unsaved') is running and its state cannot "
                                             "be saved") != std::string::npos);
        }
        agent c(t);
        c.restore(a.save(unsaved_state::restart));
        CHECK(c.is_running(0));
        CHECK(c.last_status(1) == status::success);
        CHECK(c.last_status(2) == status::idle);
        // The Sequence has no running child: as after any halt of one, it starts again from
        // its first.
        CHECK(c.tick(0) == status::running);
        CHECK(c.is_running(1));
    }

    TEST_CASE("a reload halts a running node whose state cannot move, and restarts it") {
        registry reg;
        register_builtin_nodes(reg);
        reg.add<unsaved_node>("Unsaved");
        const auto version = [&](int count) {
            return tree_from_json(
                testing::json_tree(
                    {record(1, 0, "Sequence"),
                     record(2, 1, "Repeat", "{\"count\": " + std::to_string(count) + "}"),
                     record(3, 2, "Unsaved")}),
                reg);
        };
        tree_handle handle(version(2));
        agent a(handle);
        a.tick(0);
        REQUIRE(a.is_running(2));
        unsaved_node::halts = 0;
        handle.publish(version(3));  // only the Repeat's count changes
        a.tick(0);
        CHECK(unsaved_node::halts == 1);  // halted in the old tree, entered afresh in the new
        CHECK(a.is_running(2));
        CHECK(a.is_running(1));  // the Repeat kept its place
    }

    TEST_CASE("values that share an array keep sharing it, and NaN keeps its sign") {
        registry reg;
        register_builtin_nodes(reg);
        register_behavior3_nodes(reg);
        const std::shared_ptr<const tree> t = tree_from_json(
            R"({"blackboard": {"j": "json", "v": "json", "z": "number"},
                "nodes": [{"id": 1, "type": "AlwaysRunning"}]})",
            reg);
        agent a(t);
        const dynamic_value list(dynamic_value::array_type{dynamic_value(1.0)});
        a.blackboard().set("j", list);
        a.blackboard().set("v", list);  // the same array, as JavaScript's `v = j`
        a.blackboard().set("z", -std::numeric_limits<double>::quiet_NaN());
        for (const std::string& bytes :
             {a.save(), snapshot_from_json(snapshot_to_json(a.save()))}) {
            agent b(t);
            b.restore(bytes);
            const dynamic_value j = b.blackboard().get<dynamic_value>("j");
            j.shared_array()->push_back(dynamic_value(2.0));
            CHECK(b.blackboard().get<dynamic_value>("v").to_json() == "[1,2]");
            CHECK(std::signbit(b.blackboard().get<double>("z")));
        }
    }

    TEST_CASE("a program type's key is saved through its converters") {
        registry reg;
        register_builtin_nodes(reg);
        reg.add_builtin_types();
        const std::shared_ptr<const tree> t =
            tree_from_json(R"({"blackboard": {"path": "std::vector<double>", "label": "string"},
                          "nodes": [{"id": 1, "type": "AlwaysSuccess"}]})",
                           reg);
        agent a(t);
        a.blackboard().set("path", std::vector<double>{1.5, -2, 1e300});
        a.blackboard().set("label", std::string(200, 'q'));  // on the heap
        agent b(t);
        b.restore(a.save());
        CHECK(b.blackboard().get<std::vector<double>>("path") ==
              std::vector<double>{1.5, -2, 1e300});
        CHECK(b.blackboard().get<std::string_view>("label") == std::string(200, 'q'));
    }

    TEST_CASE("into a changed tree, unchanged nodes keep their place by identity") {
        script_log log;
        const std::shared_ptr<const tree> v1 =
            testing::make({record(1, 0, "Sequence"), leaf(2, 1, "s"), leaf(3, 1, "rrrrs")});
        agent a(v1, &log);
        CHECK(testing::run(a, 2) == "rr");  // #2 succeeded, #3 runs its second tick
        const std::string bytes = a.save();

        // A leaf inserted before the running one, and the running one's parameter changed: the
        // Sequence keeps no state, so it keeps its place, and so does the running leaf.
        const std::shared_ptr<const tree> v2 = testing::make(
            {record(1, 0, "Sequence"), leaf(4, 1, "f"), leaf(2, 1, "s"), leaf(3, 1, "rrrs")});
        agent b(v2, &log);
        CHECK_THROWS_AS(b.restore(bytes), error);  // another fingerprint, same_tree asked
        b.restore(bytes, snapshot_match::changed_tree);
        CHECK(b.is_running(3));
        CHECK(b.last_status(1) == status::idle);  // the new leaf has not run
        log.calls.clear();
        CHECK(testing::run(b, 2) == "rs");  // ticks 3 and 4 of "rrrs": no enter, no restart
        CHECK(log.calls == std::vector<std::string>{"exit success #3"});

        // A root of another type is another tree.
        const std::shared_ptr<const tree> v3 =
            testing::make({record(1, 0, "Selector"), leaf(2, 1, "s")});
        agent c(v3, &log);
        CHECK_THROWS_WITH_AS(c.restore(bytes, snapshot_match::changed_tree),
                             doctest::Contains("its root is a 'Sequence'"), error);
    }

    TEST_CASE("a reload keeps running agents in place, and restarts a branch that changed") {
        const auto version = [](const std::string& running, const std::string& tail) {
            return testing::make({record(1, 0, "Sequence"), leaf(2, 1, "s"),
                                  record(3, 1, "Repeat", R"({"count": 3})"), leaf(4, 3, running),
                                  leaf(5, 1, tail)});
        };
        tree_handle handle(version("rrs", "s"));
        std::vector<script_log> logs(200);
        std::vector<agent> agents;
        for (std::size_t k = 0; k < logs.size(); ++k) agents.emplace_back(handle, &logs[k], k);
        for (std::size_t k = 0; k < agents.size(); ++k)
            for (std::size_t n = 0; n <= k % 4; ++n) agents[k].tick(0.1);

        // Only a parameter of the last leaf changes: every agent keeps its place, and ticks on
        // as a twin does that its snapshot restores into the new tree.
        handle.publish(version("rrs", "f"));
        std::vector<script_log> twin_logs(agents.size());
        int running = 0;
        for (std::size_t k = 0; k < agents.size(); ++k) {
            logs[k].calls.clear();
            running += agents[k].is_running(3) ? 1 : 0;
            const bool leaf_ran = agents[k].is_running(3);
            agent twin(handle.current(), &twin_logs[k], k);
            twin.restore(agents[k].save(), snapshot_match::changed_tree);
            twin_logs[k].open = logs[k].open;
            for (int n = 0; n < 3; ++n) {
                agents[k].tick(0.1);
                twin.tick(0.1);
                CHECK(picture(agents[k]) == picture(twin));
            }
            CHECK(logs[k].calls == twin_logs[k].calls);
            if (leaf_ran) CHECK(logs[k].calls.front() != "enter #4");
            CHECK(logs[k].violations == 0);
        }
        CHECK(running > 100);  // most were in the middle of the Repeat's leaf

        // The Repeat's child changes type: its running leaf is halted and the new child runs
        // at once, the Repeat keeping its count and the Sequence its place.
        handle.publish(testing::make({record(1, 0, "Sequence"), leaf(2, 1, "s"),
                                      record(3, 1, "Repeat", R"({"count": 3})"),
                                      record(6, 3, "AlwaysSuccess"), leaf(5, 1, "s")}));
        int halted = 0;
        for (std::size_t k = 0; k < agents.size(); ++k) {
            const bool leaf_ran = agents[k].is_running(3);
            logs[k].calls.clear();
            agents[k].tick(0.1);
            if (leaf_ran) {
                ++halted;
                REQUIRE(!logs[k].calls.empty());
                CHECK(logs[k].calls.front() == "halt #4");
            }
            CHECK(logs[k].violations == 0);
            CHECK(logs[k].enters == logs[k].finishes + (agents[k].is_running(4) ? 1 : 0));
        }
        CHECK(halted > 50);
    }

    TEST_CASE("a key_slot names its key after a reload that reorders or drops keys") {
        const auto with_keys = [](const std::string& keys) {
            return testing::runtime_tree(R"({"blackboard": )" + keys +
                                         R"(, "nodes": [{"id": 1, "type": "AlwaysRunning"}]})");
        };
        tree_handle handle(with_keys(R"({"a": "integer", "b": "integer"})"));
        agent guard(handle);
        const key_slot b("b");
        guard.blackboard().set(b, 2);
        const std::uint32_t raw = guard.blackboard().slot("b");
        guard.tick(0.1);

        handle.publish(with_keys(R"({"c": "integer", "a": "integer", "b": "integer"})"));
        guard.tick(0.1);
        guard.blackboard().set(b, 5);
        CHECK(guard.blackboard().get<std::int64_t>("b") == 5);
        CHECK(guard.blackboard().get<std::int64_t>("a") == 0);  // untouched
        CHECK(guard.blackboard().get<std::int64_t>(b) == 5);
        CHECK(raw != guard.blackboard().slot("b"));  // why a slot number is not kept

        handle.publish(with_keys(R"({"a": "integer"})"));
        guard.tick(0.1);
        CHECK_THROWS_WITH_AS(guard.blackboard().set(b, 1),
                             doctest::Contains("no blackboard key 'b'"), error);
        const key_slot copy = b;
        CHECK(copy.name() == "b");
    }

    TEST_CASE("a reload gives a key the new default while the agent has not changed it") {
        const auto with_default = [](const std::string& speed) {
            return testing::runtime_tree(
                R"({"blackboard": {"speed": {"type": "number", "default": )" + speed +
                R"(}, "range": {"type": "number", "default": 1}}, "nodes": [{"id": 1, "type": "AlwaysRunning"}]})");
        };
        tree_handle handle(with_default("2"));
        agent idle_guard(handle);
        agent busy_guard(handle);
        busy_guard.blackboard().set("speed", 7.5);
        handle.publish(with_default("3"));
        idle_guard.tick(0.1);
        busy_guard.tick(0.1);
        CHECK(idle_guard.blackboard().get<double>("speed") == 3.0);  // the designer's new one
        CHECK(busy_guard.blackboard().get<double>("speed") == 7.5);  // the agent's own
    }

    TEST_CASE("many agents are saved and restored at once, all or none") {
        const std::shared_ptr<const tree> t =
            testing::make({record(1, 0, "Sequence"), leaf(2, 1, "rs"),
                           record(3, 1, "Wait", R"({"seconds": 1})")});
        script_log log;
        std::vector<agent> agents;
        for (int k = 0; k < 1000; ++k) agents.emplace_back(t, &log, k);
        for (std::size_t k = 0; k < agents.size(); ++k)
            for (std::size_t n = 0; n < k % 7; ++n) agents[k].tick(0.3);
        const std::string bytes = save_agents(agents.data(), agents.size());
        CHECK(bytes.size() < agents.size() * (t->state_bytes() + 24) + 1000);

        std::vector<agent> copies;
        for (int k = 0; k < 1000; ++k) copies.emplace_back(t, &log, 0);
        restore_agents(copies.data(), copies.size(), bytes);
        for (std::size_t k = 0; k < agents.size(); ++k)
            REQUIRE(picture(copies[k]) == picture(agents[k]));

        CHECK_THROWS_AS(restore_agents(copies.data(), 999, bytes), error);
        std::vector<agent> fresh;
        for (int k = 0; k < 1000; ++k) fresh.emplace_back(t, &log, 0);
        const std::string untouched = picture(fresh[0]);
        snapshot_content content = read_snapshot(bytes);
        content.agents.back().image[2] = 77;
        CHECK_THROWS_WITH_AS(restore_agents(fresh.data(), fresh.size(), write_snapshot(content)),
                             doctest::Contains("has no status 77"), error);
        CHECK(picture(fresh[0]) == untouched);
    }
}

}  // namespace canopy
