// Ports declared once: members of a node class, and a lambda's arguments.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime_support.hpp"
#include "test_support.hpp"

namespace canopy {
namespace {

// Where a Drive node goes: x;y, registered as Pose2D (BehaviorTree.CPP's tutorial type, less
// its heading).
struct position {
    double x = 0;
    double y = 0;
};

position read_position(std::string_view text) {
    const std::vector<std::string_view> parts = text::split(text);
    if (parts.size() != 2) throw std::invalid_argument("a position is x;y");
    return {text::to_number(parts[0]), text::to_number(parts[1])};
}

std::string show_position(const position& p) {
    return text::of_number(p.x) + ";" + text::of_number(p.y);
}

// What a Drive node read at its last tick, for the test to look at.
struct readings {
    int count = 0;
    float speed = 0;
    std::uint8_t gear = 0;
    std::string label;
    position goal;
    int laps = 0;
};

// Every kind of port, each declared once, as a member.
class drive final : public node {
public:
    status tick(context& ctx) const override {
        readings& seen = ctx.host<readings>();
        seen.count = count_.get(ctx);
        seen.speed = speed_.get(ctx);
        seen.gear = gear_.get(ctx);
        seen.label = label_.get(ctx);
        seen.goal = goal_.get(ctx);
        seen.laps = *laps_;
        done_.set(ctx, seen.count + 1);
        return status::success;
    }

private:
    input<int> count_{"count"};
    input<float> speed_{"speed", 1.5F};
    input<std::uint8_t> gear_{"gear", 1};
    input<std::string> label_{"label", "none"};
    input<position> goal_{"goal", "0;0"};
    setting<int> laps_{"laps", 3};
    output<int> done_{"done"};
};

// Checks a setting when the tree is built, as a class checks what shapes it.
class repeat_at_least_once final : public node {
public:
    repeat_at_least_once() {
        if (*times_ < 1) throw std::invalid_argument("'times' must be at least 1");
    }
    status tick(context& /*ctx*/) const override { return status::success; }

private:
    setting<int> times_{"times"};
};

registry ports_registry() {
    registry reg = testing::runtime_registry();
    reg.add_type<position>("Pose2D", read_position, show_position);
    reg.add<drive>("Drive");
    reg.add<repeat_at_least_once>("RepeatAtLeastOnce");
    return reg;
}

load_result load_main_tree(const std::string& body, const registry& reg) {
    return try_load_text(
        R"(<root BTCPP_format="4"><BehaviorTree ID="Main">)" + body + "</BehaviorTree></root>",
        file_format::btcpp_xml, reg, "main.xml");
}

const param_spec& spec_of(const node_type& type, std::string_view name) {
    for (const param_spec& spec : type.params) {
        if (spec.name == name) return spec;
    }
    throw std::runtime_error("no parameter " + std::string(name));
}

TEST_SUITE("ports") {
    TEST_CASE("a class's port members are its type's parameters: name, type, default") {
        const registry reg = ports_registry();
        const node_type& type = *reg.find("Drive");
        REQUIRE(type.params.size() == 7);
        CHECK(spec_of(type, "count").type == param_type::integer);
        CHECK_FALSE(spec_of(type, "count").default_value.has_value());
        CHECK(spec_of(type, "speed").type == param_type::number);
        CHECK(std::get<double>(*spec_of(type, "speed").default_value) == 1.5);
        CHECK(std::get<std::int64_t>(*spec_of(type, "gear").default_value) == 1);
        CHECK(std::get<std::string>(*spec_of(type, "label").default_value) == "none");
        CHECK(spec_of(type, "goal").custom == reg.find_type<position>());
        CHECK(spec_of(type, "laps").literal_only);
        CHECK(spec_of(type, "done").output);
        CHECK(type.params[0].name == "count");  // in member order
    }

    TEST_CASE("ports read literals and keys, as the types the node asked for") {
        const registry reg = ports_registry();
        load_result loaded = load_main_tree(
            R"(<Sequence><Script code="n := 41; s := 'fast'"/>
                 <Drive count="{n}" speed="2.25" gear="4" label="{s}" goal="3;4" laps="5"
                        done="{out}"/></Sequence>)",
            reg);
        REQUIRE_MESSAGE(loaded, loaded.diagnostics.front());
        readings seen;
        agent a(loaded.tree, &seen);
        CHECK(a.tick(0) == status::success);
        CHECK(seen.count == 41);
        CHECK(seen.speed == 2.25F);
        CHECK(seen.gear == 4);
        CHECK(seen.label == "fast");
        CHECK(seen.goal.x == 3);
        CHECK(seen.goal.y == 4);
        CHECK(seen.laps == 5);
        CHECK(a.blackboard().get<std::int64_t>("out") == 42);
    }

    TEST_CASE("defaults fill the ports a file leaves out") {
        const registry reg = ports_registry();
        load_result loaded = load_main_tree(R"(<Drive count="7"/>)", reg);
        REQUIRE_MESSAGE(loaded, loaded.diagnostics.front());
        readings seen;
        agent a(loaded.tree, &seen);
        a.tick(0);
        CHECK(seen.speed == 1.5F);
        CHECK(seen.gear == 1);
        CHECK(seen.label == "none");
        CHECK(seen.goal.x == 0);
        CHECK(seen.laps == 3);
    }

    TEST_CASE("a literal the port's type cannot hold is a located error at load") {
        const registry reg = ports_registry();
        SUBCASE("out of range") {
            load_result loaded = load_main_tree(R"(<Drive count="1" gear="300"/>)", reg);
            REQUIRE_FALSE(loaded);
            const diagnostic& d = loaded.diagnostics.front();
            CHECK(d.code == diagnostic_code::invalid_param);
            CHECK(d.where.line == 1);
            CHECK(d.message.find("300") != std::string::npos);
            CHECK(d.message.find("std::uint8_t") != std::string::npos);
        }
        SUBCASE("a key where the node reads a setting") {
            load_result loaded = load_main_tree(R"(<Drive count="1" laps="{n}"/>)", reg);
            REQUIRE_FALSE(loaded);
            CHECK(loaded.diagnostics.front().code == diagnostic_code::invalid_param);
            CHECK(loaded.diagnostics.front().message.find(
                      "takes a literal value here, not a blackboard key") != std::string::npos);
        }
        SUBCASE("a value the constructor refuses") {
            load_result loaded = load_main_tree(R"(<RepeatAtLeastOnce times="0"/>)", reg);
            REQUIRE_FALSE(loaded);
            CHECK(loaded.diagnostics.front().code == diagnostic_code::invalid_param);
            CHECK(loaded.diagnostics.front().message.find("at least 1") != std::string::npos);
            CHECK(load_main_tree(R"(<RepeatAtLeastOnce times="2"/>)", reg));
        }
    }

    TEST_CASE("a key's value the port's type cannot hold names the node and its line") {
        const registry reg = ports_registry();
        load_result loaded = load_main_tree(
            "<Sequence>\n<Script code=\"n := 5000000000\"/>\n<Drive count=\"{n}\"/>"
            "</Sequence>",
            reg);
        REQUIRE_MESSAGE(loaded, loaded.diagnostics.front());
        readings seen;
        agent a(loaded.tree, &seen);
        try {
            a.tick(0);
            FAIL("the read did not throw");
        } catch (const error& e) {
            const std::string message = e.what();
            CHECK(e.code() == error_code::blackboard);
            CHECK(message.find("'Drive', line 3") != std::string::npos);
            CHECK(message.find("key 'n' as int") != std::string::npos);
            CHECK(message.find("5000000000") != std::string::npos);
        }
    }

    TEST_CASE("a lambda takes its ports as arguments, without placeholders") {
        registry reg = testing::runtime_registry();
        std::vector<std::string> said;
        reg.add_action(
            "Say",
            [&said](context& ctx, std::string_view text, int times, const output<int>& length) {
                for (int k = 0; k < times; ++k) said.emplace_back(text);
                length.set(ctx, static_cast<int>(text.size()));
                return status::success;
            },
            input<std::string_view>("text"), input<int>("times", 1), output<int>("length"));
        // An integer, as `length` writes {n}: BehaviorTree.CPP's rules refuse a key that ports
        // of two types name.
        reg.add_condition(
            "Above",
            [](readings& host, context&, int limit) {
                return host.speed > static_cast<float>(limit);
            },
            120, input<int>("limit"));
        const node_type& say = *reg.find("Say");
        REQUIRE(say.params.size() == 3);
        CHECK(say.params[1].name == "times");
        CHECK(reg.find(120)->condition);

        load_result loaded = load_main_tree(
            R"(<Sequence><Say text="hi" times="2" length="{n}"/><Say text="{greeting}"/>
                 <Above limit="{n}"/></Sequence>)",
            reg);
        REQUIRE_MESSAGE(loaded, loaded.diagnostics.front());
        readings host;
        host.speed = 2.5F;
        agent a(loaded.tree, &host);
        a.blackboard().set("greeting", std::string_view("hello"));
        CHECK(a.tick(0) == status::success);
        CHECK(said == std::vector<std::string>{"hi", "hi", "hello"});
        CHECK(a.blackboard().get<std::int64_t>("n") == 2);
        host.speed = 1.5F;
        CHECK(a.tick(0) == status::failure);
    }

    TEST_CASE("a parameter misread in a tick names the node and its place") {
        registry reg = testing::runtime_registry();
        reg.add_action("Chase",
                       [](context& ctx) {
                           return ctx.params().get<std::string>("target").empty() ? status::failure
                                                                                  : status::success;
                       },
                       std::nullopt, {param_spec::required("target", param_type::string)});
        load_result loaded =
            load_main_tree("<Sequence>\n<Chase target=\"{target}\"/></Sequence>", reg);
        REQUIRE_MESSAGE(loaded, loaded.diagnostics.front());
        agent a(loaded.tree);
        CHECK_THROWS_WITH_AS(a.tick(0),
                             "node 2 ('Chase', line 2): parameter 'target' takes a literal value "
                             "here, not a blackboard key",
                             param_error);
    }

    TEST_CASE("a port of a type no add_type registered is refused at registration") {
        registry reg;
        CHECK_THROWS_WITH_AS(reg.add<drive>("Drive"), doctest::Contains("no add_type registered"),
                             registry_error);
        CHECK_THROWS_AS(reg.add_action(
                            "Go", [](context&, const position&) { return status::success; },
                            input<position>("goal")),
                        registry_error);
    }

    TEST_CASE("a lambda is not given a port bound to a node already") {
        registry reg = testing::runtime_registry();
        const param bound_to{"n", std::int64_t{3}};
        const input<int> bound(param_list(&bound_to, 1), "n");
        CHECK(bound.declaration() == nullptr);
        CHECK_THROWS_WITH_AS(reg.add_action(
                                 "Count", [](context&, int) { return status::success; }, bound),
                             doctest::Contains("bound to a node already"), registry_error);
        CHECK(reg.find("Count") == nullptr);
    }

    TEST_CASE("a node made by a hand-written creator has unbound ports, and says so") {
        registry reg = ports_registry();
        node_type type;
        type.name = "HandMade";
        type.params = reg.find("Drive")->params;
        type.create = [](const param_list&) { return std::make_unique<drive>(); };
        reg.add(std::move(type));
        load_result loaded = load_main_tree(R"(<HandMade count="1"/>)", reg);
        REQUIRE_MESSAGE(loaded, loaded.diagnostics.front());
        readings seen;
        agent a(loaded.tree, &seen);
        CHECK_THROWS_WITH_AS(a.tick(0), doctest::Contains("'HandMade', line 1"), error);
    }
}

}  // namespace
}  // namespace canopy
