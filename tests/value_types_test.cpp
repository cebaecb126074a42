// Values of types a program registers on the blackboard (registry::add_type), strings without
// a cap, the text of every value, and update stamps.
#include <canopy/run/port.hpp>

#include "runtime_support.hpp"

using namespace canopy;
using testing::load_json;
using testing::record;
using testing::with_board;

namespace {

// BehaviorTree.CPP's tutorial type: a pose read from "x;y;theta".
struct pose {
    double x = 0;
    double y = 0;
    double theta = 0;
    bool operator==(const pose& other) const {
        return x == other.x && y == other.y && theta == other.theta;
    }
};

pose read_pose(std::string_view text) {
    const std::vector<std::string_view> parts = canopy::text::split(text);
    if (parts.size() != 3) throw std::invalid_argument("a pose is x;y;theta");
    return {canopy::text::to_number(parts[0]), canopy::text::to_number(parts[1]),
            canopy::text::to_number(parts[2])};
}

std::string show_pose(const pose& p) {
    return canopy::text::of_number(p.x) + ";" + canopy::text::of_number(p.y) + ";" +
           canopy::text::of_number(p.theta);
}

// A type that owns something, counting the values alive: every one made must be destroyed.
struct handle {
    static inline int alive = 0;
    static inline int made = 0;
    std::shared_ptr<std::string> target = std::make_shared<std::string>("none");
    handle() { ++alive, ++made; }
    handle(const handle& other) : target(other.target) { ++alive, ++made; }
    handle& operator=(const handle&) = default;
    ~handle() { --alive; }
};

// Reads a pose input (literal or key) and writes it, moved by `dx`, to an output.
class move_pose final : public node {
public:
    static std::vector<param_spec> parameters(const registry& reg) {
        return {param_spec::required("from", reg.find_type<pose>()),
                param_spec::output_port("to", reg.find_type<pose>())};
    }
    explicit move_pose(const param_list& params) : from_(params, "from"), to_(params, "to") {}
    status tick(context& ctx) const override {
        pose p = from_.get(ctx);
        p.x += 1;
        to_.set(ctx, p);
        return status::success;
    }

private:
    input<pose> from_;
    output<pose> to_;
};

registry types_registry() {
    registry reg = testing::runtime_registry();
    reg.add_type<pose>("Pose2D", read_pose, show_pose);
    reg.add_type<handle>(
        "Handle",
        [](std::string_view text) {
            handle h;
            *h.target = std::string(text);
            return h;
        },
        [](const handle& h) { return "handle to " + *h.target; });
    reg.add_builtin_types();
    node_type mover;
    mover.name = "MovePose";
    mover.params = move_pose::parameters(reg);
    mover.create = [](const param_list& params) { return std::make_unique<move_pose>(params); };
    reg.add(std::move(mover));
    return reg;
}

}  // namespace

TEST_SUITE("value types") {
    TEST_CASE("a vector of a type without == is a blackboard type that scripts do not compare") {
        struct no_equal {
            int n = 0;
        };
        using list = std::vector<no_equal>;
        const auto type = make_value_type<list>(
            "List", [](std::string_view) { return list(2); },
            [](const list& l) { return std::to_string(l.size()); });
        CHECK_FALSE(static_cast<bool>(type->equal));
        const auto numbers = make_value_type<std::vector<int>>(
            "Numbers", [](std::string_view) { return std::vector<int>{1}; },
            [](const std::vector<int>& v) { return std::to_string(v.size()); });
        REQUIRE(static_cast<bool>(numbers->equal));
        const std::vector<int> a{1, 2};
        const std::vector<int> b{1, 2};
        CHECK(numbers->equal(&a, &b));
    }

    TEST_CASE("scripts assign a program's type from a key of that type or from text") {
        // BehaviorTree.CPP's ExprAssignment: `=` and `:=` copy a value of the entry's type
        // (Any::copyInto), or read a string with the entry's convertFromString.
        const registry reg = types_registry();
        load_result loaded = load_json(
            with_board(
                R"({"goal": {"type": "Pose2D", "default": "1;2;0.5"}, "spot": "Pose2D",
                    "text": {"type": "string", "default": "7;8;9"}, "h": "Handle", "g": "Handle"})",
                {record(1, 0, "Sequence"), record(2, 1, "Script", R"({"code": "spot = goal"})"),
                 record(3, 1, "Script", R"({"code": "goal := '3;4;0'; h = 'door'; g = h"})"),
                 record(4, 1, "Script", R"({"code": "text == '' ? 0 : 1; spot = text"})")}),
            reg);
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        blackboard b = a.blackboard();
        CHECK(a.tick(0.1) == status::success);
        CHECK(b.get<pose>("goal") == pose{3, 4, 0});
        CHECK(b.get<pose>("spot") == pose{7, 8, 9});  // read from the string key at run time
        CHECK(*b.get<handle>("g").target == "door");
        // Text the type cannot read, found at run: the tick fails as BehaviorTree.CPP's does.
        b.set("text", std::string("not a pose"));
        try {
            (void)a.tick(0.1);
            FAIL("a pose read from 'not a pose'");
        } catch (const error& e) {
            CHECK(e.code() == error_code::script);
            CHECK(std::string(e.what()).find("'not a pose' is not a Pose2D for key 'spot'") !=
                  std::string::npos);
        }
    }

    TEST_CASE("what BehaviorTree.CPP refuses with a program's type is refused at load, located") {
        const registry reg = types_registry();
        const auto refused = [&](const std::string& code) {
            const load_result loaded = load_json(
                with_board(R"({"goal": "Pose2D", "spot": "Pose2D", "h": "Handle", "n": "integer"})",
                           {record(1, 0, "Sequence"),
                            record(2, 1, "ScriptCondition", R"({"code": ")" + code + R"("})")}),
                reg);
            const diagnostic& d = testing::only(loaded, diagnostic_code::invalid_script);
            CHECK(d.record_id == std::optional<std::int64_t>(2));
            return d.message;
        };
        // Compared: "Can't mix different types in Comparison".
        CHECK(refused("goal == spot").find("key 'spot' holds a Pose2D: a script may only assign") !=
              std::string::npos);
        CHECK(refused("n = goal").find("key 'goal' holds a Pose2D: a script may only assign") !=
              std::string::npos);
        CHECK(refused("goal = h").find("key 'goal' holds a Pose2D, and 'h' holds a Handle") !=
              std::string::npos);
        CHECK(refused("goal = 3").find("holds a Pose2D, and this is an integer") !=
              std::string::npos);
        CHECK(refused("goal += spot").find("'+=' does not apply") != std::string::npos);
        CHECK(refused("(goal = spot) ? 1 : 2").find("must be a statement of its own") !=
              std::string::npos);
        CHECK(refused("goal = '1;2'").find("'1;2' is not a Pose2D for key 'goal'") !=
              std::string::npos);
        // Tested as a condition, such a value is neither true nor false: at run, as there.
        const load_result tested =
            load_json(with_board(R"({"goal": "Pose2D", "spot": "Pose2D"})",
                                 {record(1, 0, "ScriptCondition", R"({"code": "goal = spot"})")}),
                      reg);
        REQUIRE(tested);
        agent a(tested.tree);
        CHECK_THROWS_WITH_AS(a.tick(0.1), doctest::Contains("neither true nor false"), error);
    }

    TEST_CASE("a registered type's key is read from the file's text and lives in the block") {
        const registry reg = types_registry();
        load_result loaded = load_json(
            with_board(R"({"goal": {"type": "Pose2D", "default": "1;2;0.5"}, "spot": "Pose2D"})",
                       {record(1, 0, "AlwaysSuccess")}),
            reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        blackboard b = a.blackboard();
        CHECK(b.get<pose>("goal") == pose{1, 2, 0.5});
        CHECK(b.get<pose>("spot") == pose{});  // no default: a value-initialized pose
        CHECK(b.text(b.slot("goal")) == "1;2;0.5");
        b.set("spot", pose{3, 4, -1});
        CHECK(b.get_ref<pose>(b.slot("spot")) == pose{3, 4, -1});
        CHECK_THROWS_AS(b.get<double>("goal"), error);
        CHECK_THROWS_AS(b.set("goal", 1.0), error);
        CHECK_THROWS_AS(b.get<handle>("goal"), error);
        CHECK(reg.find_type("Pose2D")->trivial);  // copied with memcpy, never destroyed
        CHECK_FALSE(reg.find_type("Handle")->trivial);
    }

    TEST_CASE("a key's default that its type cannot read is a located invalid-key") {
        const registry reg = types_registry();
        const std::string text = with_board(R"({"goal": {"type": "Pose2D", "default": "1;2"}})",
                                            {record(1, 0, "AlwaysSuccess")});
        const diagnostic d = testing::only(load_json(text, reg), diagnostic_code::invalid_key);
        CHECK(d.message ==
              "blackboard key 'goal' is a Pose2D, so its default cannot be '1;2': a pose is "
              "x;y;theta");
        CHECK(d.where.line == 1);
        CHECK(d.where.column > 1);
        // Without the type registered, the name is unknown.
        CHECK(testing::only(load_json(text, testing::runtime_registry()),
                            diagnostic_code::invalid_key)
                  .message.find("has type 'Pose2D'") != std::string::npos);
    }

    TEST_CASE("a port of a registered type takes a literal or a key of that type only") {
        const registry reg = types_registry();
        const std::string board =
            R"({"goal": {"type": "Pose2D", "default": "1;2;0.5"}, "out": "Pose2D",
                "name": "string", "list": "std::vector<int>"})";
        SUBCASE("a literal is read at load, a key at each tick") {
            load_result loaded = load_json(
                with_board(board,
                           {record(1, 0, "Sequence"),
                            record(2, 1, "MovePose", R"({"from": "5;6;7", "to": "{out}"})"),
                            record(3, 1, "MovePose", R"({"from": "{goal}", "to": "goal"})")}),
                reg);
            for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(loaded);
            agent a(loaded.tree);
            CHECK(a.tick(0) == status::success);
            CHECK(a.blackboard().get<pose>("out") == pose{6, 6, 7});
            CHECK(a.blackboard().get<pose>("goal") == pose{2, 2, 0.5});
            CHECK(a.tick(0) == status::success);
            CHECK(a.blackboard().get<pose>("goal") == pose{3, 2, 0.5});
        }
        SUBCASE("a literal the type cannot read is a located invalid-param") {
            const diagnostic d = testing::only(
                load_json(with_board(board, {record(1, 0, "MovePose", R"({"from": "x;y;z"})")}),
                          reg),
                diagnostic_code::invalid_param);
            CHECK(d.message ==
                  "parameter 'from' of 'MovePose' is a Pose2D, which 'x;y;z' is not: "
                  "cannot read 'x' as a number");
            CHECK(d.record_id == 1);
            CHECK(d.where.line == 4);  // the parameter's line in the JSON text
        }
        SUBCASE("a key of another type is a key-type-mismatch, both ways") {
            CHECK(testing::only(load_json(with_board(board, {record(1, 0, "MovePose",
                                                                    R"({"from": "{name}"})")}),
                                          reg),
                                diagnostic_code::key_type_mismatch)
                      .message ==
                  "parameter 'from' of 'MovePose' reads a Pose2D, but "
                  "blackboard key 'name' holds a string");
            CHECK(testing::only(
                      load_json(with_board(board, {record(1, 0, "MovePose",
                                                          R"({"from": "1;1;1", "to": "{list}"})")}),
                                reg),
                      diagnostic_code::key_type_mismatch)
                      .message ==
                  "parameter 'to' of 'MovePose' writes a Pose2D, but "
                  "blackboard key 'list' holds a std::vector<int>");
            CHECK(
                testing::only(
                    load_json(with_board(board, {record(1, 0, "Wait", R"({"seconds": "{goal}"})")}),
                              reg),
                    diagnostic_code::key_type_mismatch)
                    .message ==
                "parameter 'seconds' of 'Wait' reads a number, but "
                "blackboard key 'goal' holds a Pose2D");
        }
    }

    TEST_CASE("BehaviorTree.CPP's vector types read \"1;2;3\" and show it back") {
        // BehaviorTree.CPP src/basic_types.cpp, convertFromString<std::vector<int>> and the
        // others: the text split at ';'.
        const registry reg = types_registry();
        load_result loaded =
            load_json(with_board(R"({"ints": {"type": "std::vector<int>", "default": "1;2;3"},
                "reals": {"type": "std::vector<double>", "default": "0.5;-2"},
                "words": {"type": "std::vector<std::string>", "default": "a;b c;"}})",
                                 {record(1, 0, "AlwaysSuccess")}),
                      reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        blackboard b = a.blackboard();
        CHECK(b.get<std::vector<int>>("ints") == std::vector<int>{1, 2, 3});
        CHECK(b.get<std::vector<double>>("reals") == std::vector<double>{0.5, -2});
        CHECK(b.get<std::vector<std::string>>("words") == std::vector<std::string>{"a", "b c", ""});
        CHECK(b.text(b.slot("ints")) == "1;2;3");
        CHECK(b.text(b.slot("reals")) == "0.5;-2");
        CHECK(b.text(b.slot("words")) == "a;b c;");
        b.set("ints", std::vector<int>(100, 7));
        CHECK(b.get_ref<std::vector<int>>(b.slot("ints")).size() == 100);
        CHECK(testing::only(load_json(with_board(R"({"ints": {"type": "std::vector<int>",
                                                     "default": "1;x"}})",
                                                 {record(1, 0, "AlwaysSuccess")}),
                                      reg),
                            diagnostic_code::invalid_key)
                  .message ==
              "blackboard key 'ints' is a std::vector<int>, so its default "
              "cannot be '1;x': cannot read 'x' as an integer");
    }

    TEST_CASE("BehaviorTree.CPP's spellings of booleans and numbers") {
        // BehaviorTree.CPP src/basic_types.cpp, convertFromString<bool>: true/True/TRUE/1 and
        // false/False/FALSE/0, nothing else.
        for (const char* yes : {"true", "True", "TRUE", "1"}) CHECK(canopy::text::to_bool(yes));
        for (const char* no : {"false", "False", "FALSE", "0"})
            CHECK_FALSE(canopy::text::to_bool(no));
        for (const char* neither : {"yes", "tRue", "", "2"})
            CHECK_THROWS_AS(canopy::text::to_bool(neither), error);
        CHECK(canopy::text::to_integer("-42") == -42);
        CHECK(canopy::text::to_integer("+7") == 7);
        CHECK_THROWS_AS(canopy::text::to_integer("4.5"), error);
        CHECK_THROWS_AS(canopy::text::to_integer(""), error);
        CHECK(canopy::text::to_number("2.5e3") == 2500.0);
        CHECK_THROWS_AS(canopy::text::to_number("2.5m"), error);
        CHECK(canopy::text::split("a;;b") == std::vector<std::string_view>{"a", "", "b"});
        CHECK(canopy::text::split("").empty());
    }

    TEST_CASE("every value has a text: integers, shortest reals, booleans, strings, types") {
        const registry reg = types_registry();
        load_result loaded = load_json(with_board(R"({"i": {"type": "integer", "default": -3},
                "r": {"type": "number", "default": 0.1}, "b": {"type": "boolean", "default": true},
                "s": {"type": "string", "default": "it's"}, "h": {"type": "Handle", "default": "door"}})",
                                                  {record(1, 0, "AlwaysSuccess")}),
                                       reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        blackboard b = a.blackboard();
        CHECK(b.text(b.slot("i")) == "-3");
        CHECK(b.text(b.slot("r")) == "0.1");
        b.set("r", 1e300);
        CHECK(b.text(b.slot("r")) == "1e+300");
        b.set("r", 2.0);
        CHECK(b.text(b.slot("r")) == "2");
        CHECK(b.text(b.slot("b")) == "true");
        CHECK(b.text(b.slot("s")) == "it's");
        CHECK(b.text(b.slot("h")) == "handle to door");
        CHECK(b.text(b.slot("health")) == "0");
    }

    TEST_CASE("strings have no cap, from the program, the file and SetBlackboard") {
        const std::string long_text(5000, 'q');
        registry reg = testing::runtime_registry();
        reg.add_key("note", param_type::string, long_text);
        load_result loaded = load_json(
            with_board(R"({"copy": "string"})",
                       {record(1, 0, "SetBlackboard", R"({"key": "copy", "value": "{note}"})")}),
            reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0) == status::success);
        CHECK(a.blackboard().get<std::string_view>("copy") == long_text);
        CHECK(a.blackboard().get<std::string_view>("note") == long_text);
    }

    TEST_CASE("values are made and destroyed with their agent, and move with it") {
        handle::alive = 0;
        handle::made = 0;
        {
            const registry reg = types_registry();
            load_result first = load_json(
                with_board(R"({"h": {"type": "Handle", "default": "gate"}, "s": "string"})",
                           {record(1, 0, "AlwaysSuccess")}),
                reg);
            load_result second = load_json(with_board(R"({"h": "Handle", "other": "Handle"})",
                                                      {record(1, 0, "AlwaysFailure")}),
                                           reg);
            REQUIRE(first);
            REQUIRE(second);
            const int initial_values = handle::alive;  // the key's initial value, in the tree
            CHECK(initial_values == 1);
            {
                std::vector<agent> agents;
                for (int k = 0; k < 10; ++k) agents.emplace_back(first.tree);
                CHECK(handle::alive == initial_values + 10);
                agents[0].blackboard().set("s", std::string(100, 's'));  // a heap string
                handle h;
                *h.target = "moved";
                agents[0].blackboard().set("h", h);
                agents[0].move_to(second.tree);  // "h" is kept; "other" is made
                CHECK(handle::alive == initial_values + 1 + 11);
                CHECK(*agents[0].blackboard().get<handle>("h").target == "moved");
                agents[1].replace_tree(second.tree);  // nothing kept
                CHECK(*agents[1].blackboard().get<handle>("h").target == "none");
                agents.erase(agents.begin() + 2);
                CHECK(handle::alive == initial_values + 1 + 11);
                agents.pop_back();
                CHECK(handle::alive == initial_values + 1 + 10);
            }
            CHECK(handle::alive == initial_values);
        }
        CHECK(handle::alive == 0);
        CHECK(handle::made > 0);
    }

    TEST_CASE("the registry refuses a type's name taken, built in, or a type registered twice") {
        registry reg;
        reg.add_type<pose>("Pose2D", read_pose, show_pose);
        CHECK_THROWS_AS(reg.add_type<int>(
                            "Pose2D", [](std::string_view) { return 1; },
                            [](const int&) { return std::string(); }),
                        registry_error);
        CHECK_THROWS_AS(reg.add_type<pose>("Pose", read_pose, show_pose), registry_error);
        CHECK_THROWS_AS(reg.add_type<int>(
                            "integer", [](std::string_view) { return 1; },
                            [](const int&) { return std::string(); }),
                        registry_error);
        CHECK_THROWS_AS(reg.add_key("p", "Pose2D", std::string("1")), registry_error);
        reg.add_key("p", "Pose2D", std::string("1;1;1"));
        reg.add_key("n", "number", std::string("2.5"));
        CHECK(reg.keys()[1].type == param_type::number);
        CHECK(std::get<double>(*reg.keys()[1].initial) == 2.5);
        node_type bad;
        bad.name = "Bad";
        bad.params = {param_spec::optional("p", reg.find_type<pose>(), "nope")};
        CHECK_THROWS_AS(reg.add(bad), registry_error);
        bad.params = {param_spec::required("p", param_type::custom)};
        CHECK_THROWS_AS(reg.add(bad), registry_error);
    }

    TEST_CASE("every write changes a key's stamp; unset brings back its initial value") {
        const registry reg = types_registry();
        load_result loaded =
            load_json(with_board(R"({"s": {"type": "string", "default": "start"},
                "p": {"type": "Pose2D", "default": "1;1;1"}, "q": "Pose2D"})",
                                 // A node reading stamps: the tree keeps them.
                                 {record(1, 0, "WasEntryUpdated", R"({"entry": "s"})")}),
                      reg);
        REQUIRE(loaded);
        agent a(loaded.tree);
        blackboard b = a.blackboard();
        const std::uint32_t s = b.slot("s");
        CHECK(b.stamp(s) == 0);  // the initial value is not a write
        CHECK(b.is_set(s));
        b.set(s, "one");
        b.set(s, "one");  // the same value is still a write
        CHECK(b.stamp(s) == 2);
        b.unset(s);
        CHECK_FALSE(b.is_set(s));
        CHECK(b.get<std::string_view>(s) == "start");
        CHECK(b.stamp(s) == 3);
        b.set(s, "two");
        CHECK(b.is_set(s));
        CHECK(b.stamp(s) == 4);
        b.set("p", pose{5, 5, 5});
        b.unset(b.slot("p"));
        CHECK(b.get<pose>("p") == pose{1, 1, 1});
        b.set("q", pose{5, 5, 5});
        b.unset(b.slot("q"));
        CHECK(b.get<pose>("q") == pose{});
        CHECK(b.stamp(b.slot("health")) == 0);
        b.set("health", 3);
        CHECK(b.stamp(b.slot("health")) == 1);
    }

    TEST_CASE("a tree whose nodes read no stamps keeps none: its agents are no bigger") {
        const registry reg = types_registry();
        const std::string board = R"({"a": "integer", "b": "number", "c": "boolean"})";
        load_result plain = load_json(with_board(board, {record(1, 0, "AlwaysSuccess")}), reg);
        load_result watching = load_json(
            with_board(board, {record(1, 0, "WasEntryUpdated", R"({"entry": "a"})")}), reg);
        REQUIRE(plain);
        REQUIRE(watching);
        // One status byte, then 6 keys (3 of the program's) of 8 bytes, from offset 8.
        CHECK(plain.tree->state_bytes() == 8 + 6 * 8);
        // The node's 4-byte state after the status byte, and a 4-byte stamp per key.
        CHECK(watching.tree->state_bytes() == 8 + 6 * 8 + 6 * 4);
        agent a(plain.tree);
        blackboard b = a.blackboard();
        CHECK_FALSE(b.has_stamps());
        b.set("a", 3);
        CHECK(b.stamp(b.slot("a")) == 0);
        b.unset(b.slot("a"));
        CHECK(b.get<std::int64_t>("a") == 0);
        CHECK(b.is_set(b.slot("a")));
        agent w(watching.tree);
        CHECK(w.blackboard().has_stamps());
    }

    TEST_CASE("strings take a std::string of the block, where they took 64 bytes") {
        const registry reg = types_registry();
        load_result loaded =
            load_json(with_board(R"({"s": "string"})", {record(1, 0, "AlwaysSuccess")}), reg);
        REQUIRE(loaded);
        CHECK(loaded.tree->state_bytes() == 8 + 3 * 8 + sizeof(std::string));
    }

    TEST_CASE("SetBlackboard and CheckBlackboard take a registered type's text, == and != only") {
        const registry reg = types_registry();
        const std::string board = R"({"goal": {"type": "Pose2D", "default": "1;2;3"},
            "home": "Pose2D"})";
        load_result loaded = load_json(
            with_board(board,
                       {record(1, 0, "Sequence"),
                        record(2, 1, "CheckBlackboard",
                               R"({"key": "goal", "op": "==", "value": "1;2;3"})"),
                        record(3, 1, "CheckBlackboard",
                               R"({"key": "goal", "op": "!=", "value": "{home}"})"),
                        record(4, 1, "SetBlackboard", R"({"key": "home", "value": "1;2;3"})"),
                        record(5, 1, "CheckBlackboard",
                               R"({"key": "goal", "op": "==", "value": "{home}"})")}),
            reg);
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0) == status::success);
        CHECK(a.blackboard().get<pose>("home") == pose{1, 2, 3});
        a.blackboard().set("goal", pose{});
        CHECK(a.tick(0) == status::failure);
        CHECK(a.last_status(1) == status::failure);
        CHECK(testing::only(load_json(with_board(board, {record(1, 0, "CheckBlackboard",
                                                                R"({"key": "goal", "op": "<",
                                                                    "value": "1;2;3"})")}),
                                      reg),
                            diagnostic_code::invalid_param)
                  .message ==
              "node 1 ('CheckBlackboard'): a key of a registered type compares "
              "with == or != only, not '<'");
    }
}
