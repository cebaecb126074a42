// A program's node types for the tools: the words it gives them (registry::describe), the
// palettes written with them, and behavior3 files wiring variables to them by slot. The
// types are the example game's (demo/guards), which its node plugin hands the canopy CLI.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "canopy/canopy.hpp"
#include "guards/guard_nodes.hpp"

namespace canopy {
namespace {

registry guard_registry() {
    registry reg;
    register_builtin_nodes(reg);
    demo::register_guard_nodes(reg);
    return reg;
}

const nlohmann::json& definition(const nlohmann::json& palette, std::string_view name) {
    for (const nlohmann::json& def : palette) {
        if (def.at("name") == name) return def;
    }
    FAIL("no definition of " << name);
    return palette;
}

}  // namespace

TEST_SUITE("plugin types") {
    TEST_CASE("describe gives a type and its parameters the program's words") {
        registry reg = guard_registry();
        const node_type* chase = reg.find("Chase");
        REQUIRE(chase != nullptr);
        CHECK(chase->description == "Runs at the intruder until within reach");
        CHECK(chase->params.at(0).name == "speed");
        CHECK(chase->params.at(0).description == "metres per second");
        // A later description replaces the type's, and leaves the parameters it does not name.
        reg.describe("Chase", "Chases", {{"reach", "close enough"}});
        CHECK(chase->description == "Chases");
        CHECK(chase->params.at(0).description == "metres per second");
        CHECK(chase->params.at(2).description == "close enough");
    }

    TEST_CASE("describe refuses a type or a parameter the registry does not have") {
        registry reg = guard_registry();
        CHECK_THROWS_WITH_AS(reg.describe("Chse", "x"),
                             "cannot describe unregistered node type 'Chse' (did you mean "
                             "'Chase'?)",
                             registry_error);
        CHECK_THROWS_WITH_AS(reg.describe("Patrol", "x", {{"post", "y"}}),
                             "node type 'Patrol' has no parameter 'post' to describe (it has "
                             "posts)",
                             registry_error);
        CHECK(reg.find("Patrol")->description == "Walks the round of posts, one a tick");
    }

    TEST_CASE("the behavior3 palette gives a program's type its arguments, slots and words") {
        const registry reg = guard_registry();
        const nlohmann::json palette =
            nlohmann::json::parse(write_palette(reg, file_format::behavior3));
        const nlohmann::json& chase = definition(palette, "Chase");
        CHECK(chase.at("type") == "Action");
        CHECK(chase.at("desc") == "Runs at the intruder until within reach");
        const nlohmann::json& args = chase.at("args");
        REQUIRE(args.size() == 3);  // the output is a slot, not an argument
        CHECK(args[0].at("name") == "speed");
        CHECK(args[0].at("type") == "float?");
        CHECK(args[0].at("default") == 2.0);
        CHECK(args[0].at("desc") ==
              "metres per second (number; or a variable through input speed)");
        CHECK_FALSE(args[0].contains("oneof"));
        CHECK(args[1].at("name") == "distance");
        CHECK(args[1].at("oneof") == "distance");  // required: an argument or a variable
        CHECK(chase.at("input") == nlohmann::json({"speed?", "distance?", "reach?"}));
        CHECK(chase.at("output") == nlohmann::json({"remaining?"}));

        // A setting is read once, as a literal: an argument without a slot.
        const nlohmann::json& see = definition(palette, "SeeIntruder");
        CHECK(see.at("type") == "Condition");
        CHECK(see.at("input") == nlohmann::json({"distance?"}));
        const nlohmann::json& patrol = definition(palette, "Patrol");
        CHECK_FALSE(patrol.contains("input"));
        CHECK(patrol.at("args")[0].at("type") == "int?");
        CHECK(patrol.at("args")[0].at("desc") == "how many posts (integer)");
    }

    TEST_CASE("the Groot2 palette carries the program's words") {
        const std::string palette = write_palette(guard_registry(), file_format::btcpp_xml);
        CHECK(palette.find("Runs at the intruder until within reach") != std::string::npos);
        CHECK(palette.find(">metres per second (number; or {key} to read a blackboard key)<") !=
              std::string::npos);
    }

    TEST_CASE("a behavior3 tree wires variables to a program's type by slot, in palette order") {
        const registry reg = guard_registry();
        const load_result loaded = try_load_text(
            R"({"name": "guard", "root": {"id": 1, "name": "Sequence", "children": [
                 {"id": 2, "name": "SeeIntruder", "args": {"sight": 8}, "input": ["gap"]},
                 {"id": 3, "name": "Chase", "args": {"speed": 10}, "input": ["", "gap"],
                  "output": ["gap"]}]}})",
            file_format::behavior3, reg, "guard.json");
        for (const diagnostic& d : loaded.diagnostics) MESSAGE(d);
        REQUIRE(loaded.tree != nullptr);
        const tree& t = *loaded.tree;
        std::uint32_t gap = param::no_key;
        for (std::uint32_t k = 0; k < t.keys().size(); ++k) {
            if (t.keys()[k].name == "gap") gap = k;
        }
        REQUIRE(gap != param::no_key);
        for (tree::index i = 0; i < t.size(); ++i) {
            if (t.type_name(i) == "SeeIntruder") {
                CHECK(t.params(i).find_param("distance")->key == gap);
            } else if (t.type_name(i) == "Chase") {
                CHECK(t.params(i).find_param("speed")->key == param::no_key);
                CHECK(t.params(i).find_param("distance")->key == gap);
                CHECK(t.params(i).find_param("reach")->key == param::no_key);
                CHECK(t.params(i).find_param("remaining")->key == gap);
            }
        }
        // The file's words stay the file's: the slot, not the parameter it gives.
        CHECK(to_text(t).find("input2=\"{gap}\"") != std::string::npos);
    }

    TEST_CASE("a slot beyond a program's type's is refused, located") {
        const registry reg = guard_registry();
        const load_result loaded = try_load_text(
            R"({"name": "guard", "root": {"id": 1, "name": "SeeIntruder", "input": ["a", "b"]}})",
            file_format::behavior3, reg, "guard.json");
        CHECK(loaded.tree == nullptr);
        REQUIRE_FALSE(loaded.diagnostics.empty());
        CHECK(to_string(loaded.diagnostics.front()).find("'input2'") != std::string::npos);
    }
}

}  // namespace canopy
