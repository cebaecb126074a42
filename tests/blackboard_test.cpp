// Blackboard values, keys a file declares, and parameters bound to keys (ports).
#include <canopy/run/port.hpp>

#include "runtime_support.hpp"

using namespace canopy;
using testing::make;
using testing::record;
using testing::run;
using testing::with_board;

namespace {

// Counts its ticks into an output port, and reads its step from an input that a file may
// bind to a key: the way a node author writes ports.
class step_counter final : public stateful_node<std::int64_t> {
public:
    static std::vector<param_spec> parameters() {
        return {param_spec::optional("step", std::int64_t{1}),
                param_spec::output_port("total", param_type::integer)};
    }
    explicit step_counter(const param_list& params)
        : step_(params, "step"), total_(params, "total") {}
    status tick(context& ctx) const override {
        std::int64_t& sum = state(ctx);
        sum += step_.get(ctx);
        total_.set(ctx, sum);
        return status::success;
    }

private:
    input<std::int64_t> step_;
    output<std::int64_t> total_;
};

registry port_registry() {
    registry reg = testing::runtime_registry();
    reg.add<step_counter>("Counter", 400);
    return reg;
}

load_result load_with_ports(const std::string& text, const registry& reg = port_registry()) {
    return try_load_text(text, file_format::flat_json, reg, "t.json");
}

}  // namespace

TEST_SUITE("blackboard") {
    TEST_CASE("a file declares keys with types and initial values, in JSON and in XML") {
        const std::string board =
            R"({"patrol_wait": {"type": "number", "default": 2.5}, "target": "string",
                "lives": {"type": "integer", "default": 3}, "angry": {"type": "boolean"}})";
        load_result json = load_with_ports(with_board(board, {record(1, 0, "AlwaysSuccess")}));
        REQUIRE(json);
        load_result xml = try_load_text(R"(<tree>
  <blackboard>
    <key name="patrol_wait" type="number" default="2.5"/>
    <key name="target" type="string"/>
    <key name="lives" type="integer" default="3"/>
    <key name="angry" type="boolean"/>
  </blackboard>
  <node id="1" type="AlwaysSuccess"/>
</tree>)",
                                        file_format::flat_xml, port_registry(), "t.xml");
        REQUIRE(xml);
        for (const load_result* loaded : {&json, &xml}) {
            agent a(loaded->tree);
            blackboard b = a.blackboard();
            CHECK(b.get<double>("patrol_wait") == 2.5);
            CHECK(b.get<std::string_view>("target").empty());
            CHECK(b.get<std::int64_t>("lives") == 3);
            CHECK_FALSE(b.get<bool>("angry"));
            CHECK(b.get<double>("health") == 0.0);  // the program's keys come first
            CHECK(loaded->tree->keys().size() == 7);
        }
    }

    TEST_CASE("string values live in the agent's block, of any length") {
        load_result loaded =
            load_with_ports(with_board(R"({"mode": "string"})", {record(1, 0, "AlwaysSuccess")}));
        REQUIRE(loaded);
        agent a(loaded.tree);
        a.blackboard().set("mode", "patrol");
        CHECK(a.blackboard().get<std::string_view>("mode") == "patrol");
        const std::string longer(1000, 'x');  // once capped at 63 bytes
        a.blackboard().set("mode", longer);
        CHECK(a.blackboard().get<std::string_view>("mode") == longer);
        a.blackboard().set("mode", "short");
        CHECK(a.blackboard().get<std::string_view>("mode") == "short");
        CHECK_THROWS_AS(a.blackboard().set("mode", 1), error);
        CHECK_THROWS_AS(a.blackboard().get<double>("mode"), error);
    }

    TEST_CASE("declarations that cannot be are located errors") {
        SUBCASE("an unknown type") {
            diagnostic d =
                testing::only(load_with_ports(with_board(R"({"speed": "float"})",
                                                         {record(1, 0, "AlwaysSuccess")})),
                              diagnostic_code::invalid_key);
            CHECK(d.message ==
                  "blackboard key 'speed' has type 'float'; a key is an integer, number, "
                  "boolean, string or a type the program registers");
            CHECK(to_string(d) == "t.json:1:17: error: " + d.message + " (registry::add_type)");
            CHECK(d.where == source_location{1, 17});
        }
        SUBCASE("a default of another type") {
            CHECK(testing::only(
                      load_with_ports(with_board(R"({"n": {"type": "integer", "default": "x"}})",
                                                 {record(1, 0, "AlwaysSuccess")})),
                      diagnostic_code::invalid_key)
                      .message ==
                  "blackboard key 'n' is an integer, so its default cannot be \"x\"");
        }
        SUBCASE("an empty type is an unknown type, not a silently dropped key") {
            CHECK(
                testing::only(load_with_ports(with_board(R"({"n": {"type": ""}})",
                                                         {record(1, 0, "AlwaysSuccess")})),
                              diagnostic_code::invalid_key)
                    .message ==
                "blackboard key 'n' has type ''; a key is an integer, number, boolean, string or a "
                "type the program registers");
        }
        SUBCASE("a program key of another type") {
            CHECK(testing::only(load_with_ports(with_board(R"({"health": "integer"})",
                                                           {record(1, 0, "AlwaysSuccess")})),
                                diagnostic_code::invalid_key)
                      .message ==
                  "blackboard key 'health' is an integer here, but the program declares it a "
                  "number");
        }
        SUBCASE("a program key of the same type takes the file's default") {
            load_result loaded =
                load_with_ports(with_board(R"({"health": {"type": "number", "default": 80}})",
                                           {record(1, 0, "AlwaysSuccess")}));
            REQUIRE(loaded);
            CHECK(agent(loaded.tree).blackboard().get<double>("health") == 80.0);
        }
        SUBCASE("a declaration without a type, and a misspelled field") {
            load_result loaded = load_with_ports(
                with_board(R"({"n": {"typ": "integer"}})", {record(1, 0, "AlwaysSuccess")}));
            CHECK(testing::only(loaded, diagnostic_code::unknown_field).message ==
                  "unknown key 'typ' in blackboard key 'n' (did you mean 'type'?)");
            CHECK(testing::only(loaded, diagnostic_code::missing_field).message ==
                  "blackboard key 'n' has no 'type' (integer, number, boolean or string)");
        }
        SUBCASE("an object or array where a declaration or its fields go") {
            CHECK(testing::only(
                      load_with_ports(with_board(R"({"n": {"type": "integer", "default": [1]}})",
                                                 {record(1, 0, "AlwaysSuccess")})),
                      diagnostic_code::wrong_field_type)
                      .message ==
                  "'default' must be a number, a string or a boolean, not an array");
            CHECK(testing::only(load_with_ports(with_board(R"({"n": ["integer"]})",
                                                           {record(1, 0, "AlwaysSuccess")})),
                                diagnostic_code::wrong_field_type)
                      .message ==
                  "blackboard key 'n' must be declared as {\"type\": ..., \"default\": ...} or by "
                  "its type's name, not an array");
            CHECK(testing::only(
                      load_with_ports(with_board(R"(["n"])", {record(1, 0, "AlwaysSuccess")})),
                      diagnostic_code::wrong_field_type)
                      .message ==
                  "'blackboard' must be an object of key declarations, not an array");
            CHECK(testing::only(
                      load_with_ports(with_board(R"({"n": {"type": "integer", "default": null}})",
                                                 {record(1, 0, "AlwaysSuccess")})),
                      diagnostic_code::wrong_field_type)
                      .message == "'default' must be a number, a string or a boolean, not null");
        }
    }

    TEST_CASE("a parameter given as {key} reads the key's current value at every tick") {
        load_result loaded =
            load_with_ports(with_board(R"({"patrol_wait": {"type": "number", "default": 0.3}})",
                                       {record(1, 0, "Wait", R"({"seconds": "{patrol_wait}"})")}));
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(run(a, 5, 0.1) == "rrrsr");  // 0.3 s: elapsed 0, 0.1, 0.2, 0.3
        a.reset();
        a.blackboard().set("patrol_wait", 0.1);
        CHECK(run(a, 2, 0.1) == "rs");
        a.reset();
        a.blackboard().set("patrol_wait", std::int64_t{0});  // an integer into a number key
        CHECK(run(a, 1, 0.1) == "s");
    }

    TEST_CASE("a bound parameter's key must exist and fit the parameter's type, at load") {
        SUBCASE("unknown key, with the nearest name") {
            diagnostic d = testing::only(load_with_ports(testing::json_tree(
                                             {record(1, 0, "Wait", R"({"seconds": "{helth}"})")})),
                                         diagnostic_code::unknown_key);
            CHECK(d.message == "unknown blackboard key 'helth' (did you mean 'health'?)");
            CHECK(d.where == source_location{2, 53});  // at the parameter
        }
        SUBCASE("an input of another type") {
            CHECK(testing::only(load_with_ports(testing::json_tree(
                                    {record(1, 0, "Wait", R"({"seconds": "{alarm}"})")})),
                                diagnostic_code::key_type_mismatch)
                      .message ==
                  "parameter 'seconds' of 'Wait' reads a number, but blackboard key 'alarm' holds "
                  "a boolean");
        }
        SUBCASE("an integer key fits a number parameter, not the other way round") {
            CHECK(load_with_ports(
                testing::json_tree({record(1, 0, "Wait", R"({"seconds": "{count}"})")})));
            CHECK(testing::only(load_with_ports(testing::json_tree(
                                    {record(1, 0, "Counter", R"({"step": "{health}"})")})),
                                diagnostic_code::key_type_mismatch)
                      .message ==
                  "parameter 'step' of 'Counter' reads an integer, but blackboard key 'health' "
                  "holds a number");
        }
        SUBCASE("a parameter its node fixes at load refuses a key") {
            CHECK(testing::only(load_with_ports(testing::json_tree(
                                    {record(1, 0, "WaitTicks", R"({"ticks": "{count}"})")})),
                                diagnostic_code::invalid_param)
                      .message ==
                  "parameter 'ticks' of 'WaitTicks' takes a literal value here, not a "
                  "blackboard key");
        }
        SUBCASE("the same in flat XML") {
            load_result xml = try_load_text(
                testing::xml_tree(
                    {R"(<node id="1" type="Wait"><params seconds="{alarm}"/></node>)"}),
                file_format::flat_xml, port_registry(), "t.xml");
            CHECK(testing::only(xml, diagnostic_code::key_type_mismatch).where ==
                  source_location{2, 0});
        }
    }

    TEST_CASE("an output port writes the key the file names; left out, it writes nowhere") {
        load_result loaded = load_with_ports(testing::json_tree(
            {record(1, 0, "Sequence"), record(2, 1, "Counter", R"({"total": "{count}"})"),
             record(3, 1, "Counter", R"({"step": "{count}", "total": "health"})"),
             record(4, 1, "Counter")}));
        REQUIRE(loaded);
        agent a(loaded.tree);
        a.tick(0.1);
        CHECK(a.blackboard().get<std::int64_t>("count") == 1);
        CHECK(a.blackboard().get<double>("health") == 1.0);  // read count (1), wrote it as a number
        a.tick(0.1);
        CHECK(a.blackboard().get<std::int64_t>("count") == 2);
        CHECK(a.blackboard().get<double>("health") == 3.0);  // 1 + 2
        CHECK(testing::only(load_with_ports(testing::json_tree(
                                {record(1, 0, "Counter", R"({"total": "{alarm}"})")})),
                            diagnostic_code::key_type_mismatch)
                  .message ==
              "parameter 'total' of 'Counter' writes an integer, but blackboard key 'alarm' holds "
              "a boolean");
        CHECK(testing::only(
                  load_with_ports(testing::json_tree({record(1, 0, "Counter", R"({"total": 3})")})),
                  diagnostic_code::wrong_param_type)
                  .message ==
              "parameter 'total' of 'Counter' is an output: give the blackboard key it writes, as "
              "\"{key}\"");
    }

    TEST_CASE("SetBlackboard copies between keys and CheckBlackboard compares strings and keys") {
        load_result loaded = load_with_ports(with_board(
            R"({"mode": "string", "last_mode": "string", "limit": {"type": "number", "default": 50}})",
            {record(1, 0, "Sequence"),
             record(2, 1, "SetBlackboard", R"({"key": "mode", "value": "patrol"})"),
             record(3, 1, "SetBlackboard", R"({"key": "last_mode", "value": "{mode}"})"),
             record(4, 1, "CheckBlackboard", R"({"key": "last_mode", "value": "patrol"})"),
             record(5, 1, "CheckBlackboard", R"({"key": "mode", "op": "<", "value": "rest"})"),
             record(6, 1, "CheckBlackboard", R"({"key": "health", "op": "<", "value": "{limit}"})"),
             record(7, 1, "SetBlackboard", R"({"key": "health", "value": "{count}"})")}));
        REQUIRE(loaded);
        agent a(loaded.tree);
        a.blackboard().set("health", 40.0);
        a.blackboard().set("count", 7);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().get<std::string_view>("last_mode") == "patrol");
        CHECK(a.blackboard().get<double>("health") == 7.0);  // an integer copied into a number
        a.blackboard().set("limit", 5.0);
        CHECK(a.tick(0.1) == status::failure);  // health 7 < limit 5 no longer holds
        CHECK(a.last_status(5) == status::failure);
        const std::string text(100, 'z');  // no longer refused for its length
        load_result long_text = load_with_ports(with_board(
            R"({"mode": "string"})",
            {record(1, 0, "SetBlackboard", R"({"key": "mode", "value": ")" + text + "\"}")}));
        REQUIRE(long_text);
        agent b(long_text.tree);
        CHECK(b.tick(0) == status::success);
        CHECK(b.blackboard().get<std::string_view>("mode") == text);
    }
}
