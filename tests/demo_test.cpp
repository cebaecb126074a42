// The demo packs behind data/: each tree runs in its demo's world, deterministically by seed.
#include <filesystem>
#include <set>

#include "hornet_nodes.hpp"
#include "idle_nodes.hpp"
#include "pet_nodes.hpp"
#include "test_support.hpp"

using namespace canopy;
using testing::source_dir;
namespace fs = std::filesystem;

namespace {

// Runs `agents` agents of a data/ tree in its demo's world, as `canopy run` does, and spells
// agent 0's statuses one letter a tick: "rrs" for running, running, success.
struct demo_run {
    demo_run(const std::string& file, std::size_t agents, std::uint64_t seed)
        : tree(load_file(source_dir / "data" / file, testing::test_registry())),
          pack(demo::pack_for(*tree)) {
        REQUIRE(pack != nullptr);
        world = pack->make_world(agents, seed);
        for (std::size_t i = 0; i < agents; ++i)
            runners.emplace_back(tree, world->host(i), seed + i);
    }

    std::string run(int ticks, double dt) {
        std::string statuses;
        for (int k = 0; k < ticks; ++k) {
            for (std::size_t i = 0; i < runners.size(); ++i) {
                world->before_tick(i, runners[i], dt);
                const status s = runners[i].tick(dt);
                if (i == 0) statuses += to_string(s)[0];
            }
        }
        return statuses;
    }

    template <typename Host>
    Host& host(std::size_t i) {
        return *world->host(i).template get<Host>();
    }

    std::shared_ptr<const canopy::tree> tree;
    const demo::pack* pack;
    std::unique_ptr<demo::world> world;
    std::vector<agent> runners;
};

}  // namespace

TEST_SUITE("demo") {
    TEST_CASE("each tree in data/ is run by the pack of its name, the same way for the same seed") {
        for (const char* name : {"pet", "hornet", "idle"}) {
            CAPTURE(name);
            demo_run first(std::string(name) + ".json", 3, 42);
            demo_run again(std::string(name) + ".xml", 3, 42);
            CHECK(first.pack->name == name);
            const std::string statuses = first.run(200, 0.1);
            CHECK(again.run(200, 0.1) == statuses);
            CHECK(statuses.find('r') != std::string::npos);  // each demo has actions that take time
            CHECK(first.world->describe(2) == again.world->describe(2));
        }
    }

    TEST_CASE("every demo type has a behaviour and an id in its pack's range") {
        const std::pair<std::int64_t, std::int64_t> ranges[] = {{100, 105}, {110, 129}, {130, 149}};
        REQUIRE(demo::packs().size() == 3);
        for (std::size_t k = 0; k < demo::packs().size(); ++k) {
            registry own;
            demo::packs()[k].register_nodes(own);
            for (const node_type& type : own.types()) {
                CAPTURE(type.name);
                CHECK(type.create);
                REQUIRE(type.id);
                CHECK(*type.id >= ranges[k].first);
                CHECK(*type.id <= ranges[k].second);
            }
        }
    }

    TEST_CASE("the pet picks coins up, and walks back to its owner when it has been away long") {
        demo_run pet("pet.json", 1, 1);
        const std::string statuses = pet.run(600, 0.1);
        CHECK(statuses.find('f') == std::string::npos);  // wandering always succeeds
        CHECK(pet.host<demo::pet_world>(0).coins > 0);
        // Somewhere the pet ran to a coin or to its owner for several ticks in a row.
        CHECK(statuses.find("rrrrr") != std::string::npos);
    }

    TEST_CASE("the hornet's world puts health and distance on the blackboard as they change") {
        demo_run fight("hornet.json", 1, 1);
        blackboard board = fight.runners[0].blackboard();
        const auto& arena = fight.host<demo::hornet_arena>(0);
        std::set<double> distances;
        double lowest_health = 100;
        for (int k = 0; k < 100; ++k) {
            fight.run(1, 0.1);
            distances.insert(board.get<double>("distance"));
            lowest_health = std::min(lowest_health, board.get<double>("health"));
        }
        fight.world->before_tick(0, fight.runners[0], 0.1);
        CHECK(board.get<double>("health") == arena.health);
        CHECK(board.get<double>("distance") == arena.distance());
        CHECK(distances.size() > 10);
        CHECK(lowest_health < 30);  // low enough to make her evade
        CHECK(arena.evades > 0);
        CHECK(arena.dashes > 0);
        CHECK(arena.quick_moves > 0);
        CHECK(arena.strikes > 0);
        CHECK(arena.needles > 0);
    }

    TEST_CASE("the idle body takes a new colour every half second, four times, then starts over") {
        demo_run idle("idle.json", 2, 5);
        // A quarter second a tick keeps agent time exact: Wait starts at the first tick's time
        // and succeeds once half a second has passed, on the third tick.
        CHECK(idle.run(9, 0.25) == "rrrrrrrrs");
        CHECK(idle.host<demo::idle_body>(0).changes == 4);
        CHECK(idle.run(3, 0.25) == "rrr");
        CHECK(idle.host<demo::idle_body>(0).changes == 5);
        // Colours come from each agent's own generator, seeded differently.
        CHECK(idle.world->describe(0) != idle.world->describe(1));
    }

    TEST_CASE("an agent made without a host fails the demo leaves instead of crashing") {
        std::shared_ptr<const tree> t =
            load_file(source_dir / "data/pet.json", testing::test_registry());
        agent lonely(t);
        CHECK(lonely.tick(0.1) == status::failure);
    }

    TEST_CASE("pack_for finds no pack for built-in types and refuses a tree of two packs") {
        load_result builtins = testing::load_json(R"([{"id": 1, "type": "AlwaysSuccess"}])");
        REQUIRE(builtins);
        CHECK(demo::pack_for(*builtins.tree) == nullptr);
        load_result mixed = testing::load_json(
            R"([{"id": 1, "type": "Sequence"}, {"id": 2, "parentId": 1, "type": "Wander"},
            {"id": 3, "parentId": 1, "type": "ChangeColour"}])");
        REQUIRE(mixed);
        CHECK_THROWS_WITH_AS(demo::pack_for(*mixed.tree),
                             "the tree uses node types of both the pet and the idle demo, but an "
                             "agent has the host of one demo only",
                             error);
    }
}
