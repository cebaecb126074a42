// Scripts in trees: Script, ScriptCondition and Precondition, the keys scripts create, errors
// located in the script, subtrees' scripts renamed with their keys, and BehaviorTree.CPP's
// condition attributes compiled into the tree's layout.
#include <string>
#include <vector>

#include "runtime_support.hpp"

using namespace canopy;
using testing::only;

namespace {

registry script_registry() {
    registry reg;
    register_builtin_nodes(reg);
    reg.add_key("count", param_type::integer);
    reg.add_key("health", param_type::number);
    return reg;
}

load_result load(const std::string& text, file_format format) {
    return try_load_text(text, format, script_registry(), "t");
}

std::shared_ptr<const tree> loaded(const std::string& text, file_format format) {
    load_result r = load(text, format);
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

std::string btcpp(const std::string& trees, const std::string& main = "Main") {
    return R"(<root BTCPP_format="4" main_tree_to_execute=")" + main + "\">\n" + trees +
           "\n</root>";
}

const blackboard_key* key_named(const tree& t, std::string_view name) {
    for (const blackboard_key& k : t.keys()) {
        if (k.name == name) return &k;
    }
    return nullptr;
}

}  // namespace

TEST_SUITE("script nodes") {
    TEST_CASE("Script and ScriptCondition read their code in every format") {
        SUBCASE("flat JSON") {
            auto t = loaded(R"({"nodes": [
{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "Script", "params": {"code": "a := 3"}},
{"id": 3, "parentId": 1, "type": "ScriptCondition", "params": {"code": "a > 2"}}]})",
                            file_format::flat_json);
            agent a(t);
            CHECK(a.tick(0.1) == status::success);
            CHECK(a.blackboard().get<std::int64_t>(a.blackboard().slot("a")) == 3);
        }
        SUBCASE("flat XML") {
            auto t = loaded(R"(<tree>
<node id="1" type="Sequence"/>
<node id="2" parentId="1" type="Script"><params code="a := 3"/></node>
<node id="3" parentId="1" type="ScriptCondition"><params code="a &gt; 5"/></node>
</tree>)",
                            file_format::flat_xml);
            agent a(t);
            CHECK(a.tick(0.1) == status::failure);
        }
        SUBCASE("BehaviorTree.CPP XML") {
            auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="a := 3"/><ScriptCondition code="a &gt; 2 &amp;&amp; count == 0"/>
</Sequence></BehaviorTree>)"),
                            file_format::btcpp_xml);
            agent a(t);
            CHECK(a.tick(0.1) == status::success);
        }
    }

    TEST_CASE("keys created with := are declared at load with their value's type") {
        auto t = loaded(R"({"nodes": [
{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "Script", "params": {"code": "later := first + 1"}},
{"id": 3, "parentId": 1, "type": "Script",
 "params": {"code": "first := 2; ratio := 0.5; name := 'rex'; happy := true"}},
{"id": 4, "parentId": 1, "type": "CheckBlackboard", "params": {"key": "first", "value": 2}}]})",
                        file_format::flat_json);
        struct expected {
            const char* name;
            param_type type;
        };
        for (const expected& e :
             {expected{"first", param_type::integer}, expected{"ratio", param_type::number},
              expected{"name", param_type::string}, expected{"happy", param_type::boolean},
              expected{"later", param_type::integer}}) {
            CAPTURE(e.name);
            const blackboard_key* k = key_named(*t, e.name);
            REQUIRE(k != nullptr);
            CHECK(k->type == e.type);
        }
        // A port reads a key a script creates: declared before parameters are checked.
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().get<std::int64_t>(a.blackboard().slot("later")) == 1);  // first was 0
    }

    TEST_CASE("a script's problems are invalid-script diagnostics at its parameter") {
        struct row {
            const char* code;
            const char* words;
        };
        const row rows[] = {
            {"a := (1", ""},                          // a syntax error
            {"helth > 1", "helth"},                   // an unknown name
            {"nobody = 1", "nobody"},                 // = to a key nothing creates
            {"count := 1; x := 'a' - count", "'-'"},  // a type that cannot work
        };
        for (const row& r : rows) {
            CAPTURE(r.code);
            SUBCASE("flat JSON") {
                const load_result result = load(std::string(R"({"nodes": [
{"id": 1, "type": "Script",
 "params": {"code": ")") + r.code + R"("}}]})",
                                                file_format::flat_json);
                const diagnostic& d = only(result, diagnostic_code::invalid_script);
                CHECK(d.where.line == 3);
                CHECK(d.record_id == std::optional<std::int64_t>(1));
                CHECK(d.message.find("script of 'code'") != std::string::npos);
                CHECK(d.message.find(r.words) != std::string::npos);
                CHECK(d.message.find("column") != std::string::npos);
            }
            SUBCASE("BehaviorTree.CPP XML: a syntax error at load, the others when it runs") {
                const load_result result = load(btcpp(std::string(R"(<BehaviorTree ID="Main">
<Sequence>
  <Script code=")") + r.code + R"("/>
</Sequence></BehaviorTree>)"),
                                                file_format::btcpp_xml);
                const diagnostic& d = only(result, diagnostic_code::invalid_script);
                CHECK(d.where.line == 4);
                if (std::string_view(r.words).empty()) {
                    CHECK(d.severity == diagnostic_severity::error);
                    CHECK_FALSE(result);
                    continue;
                }
                CHECK(d.severity == diagnostic_severity::warning);
                CHECK(d.message.find("fails there") != std::string::npos);
                REQUIRE(result);
                agent a(result.tree);
                const std::string message = testing::tick_error(a);
                CHECK(message.find(r.code) != std::string::npos);  // names the script
            }
        }
    }

    TEST_CASE("an assignment with = to a key nothing creates is located at its name") {
        const load_result result = load(R"({"nodes": [
{"id": 1, "type": "Script", "params": {"code": "count = 1; other = 2"}}]})",
                                        file_format::flat_json);
        const diagnostic& d = only(result, diagnostic_code::invalid_script);
        CHECK(d.message ==
              "script of 'code': 'other' is assigned with '=' but nothing creates it (create it "
              "with ':=', or declare the key) (at column 12 of the script)");
        // Created anywhere in the tree, in any order, is enough.
        CHECK(load(R"({"nodes": [{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "Script", "params": {"code": "other = 2"}},
{"id": 3, "parentId": 1, "type": "Script", "params": {"code": "other := 1"}}]})",
                   file_format::flat_json));
    }

    TEST_CASE("a key whose value's type cannot be told is refused at its name") {
        const load_result r = load(R"({"nodes": [
{"id": 1, "type": "Script", "params": {"code": "a := b; b := a"}}]})",
                                   file_format::flat_json);
        REQUIRE(r.diagnostics.size() == 2);
        CHECK(r.diagnostics[0].code == diagnostic_code::invalid_script);
        CHECK(r.diagnostics[0].message ==
              "script of 'code': the type of 'a' cannot be told from its value; declare the key "
              "with its type (at column 1 of the script)");
        CHECK(r.diagnostics[1].message.find("'b'") != std::string::npos);
    }

    TEST_CASE("a script is text, not a blackboard key or a number") {
        CHECK(only(load(R"({"nodes": [{"id": 1, "type": "Script", "params": {"code": "{x}"}}]})",
                        file_format::flat_json),
                   diagnostic_code::wrong_param_type)
                  .message.find("is a script") != std::string::npos);
        CHECK(only(load(R"({"nodes": [{"id": 1, "type": "Script", "params": {"code": 3}}]})",
                        file_format::flat_json),
                   diagnostic_code::invalid_script)
                  .message.find("must be a script") != std::string::npos);
    }

    // BehaviorTree.CPP include/behaviortree_cpp/actions/script_node.h and script_condition.h.
    TEST_CASE("Script succeeds after running its code; ScriptCondition tests its value") {
        auto t = loaded(R"({"nodes": [
{"id": 1, "type": "ReactiveSequence"},
{"id": 2, "parentId": 1, "type": "Script", "params": {"code": "count += 1"}},
{"id": 3, "parentId": 1, "type": "ScriptCondition", "params": {"code": "count < 3"}}]})",
                        file_format::flat_json);
        agent a(t);
        CHECK(testing::run(a, 3) == "ssf");
        CHECK(a.blackboard().get<std::int64_t>(a.blackboard().slot("count")) == 3);
    }

    TEST_CASE("Precondition tests if only when its child is not running") {
        // BehaviorTree.CPP script_precondition.h: "Only check the 'if' script if we haven't
        // started ticking the children yet."
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Precondition if="count &lt; 1" else="FAILURE"><Sequence>
  <Script code="count += 1"/><Delay delay_msec="150"><AlwaysSuccess/></Delay>
</Sequence></Precondition>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        CHECK(testing::run(a, 3) == "rrs");  // count is 1 from the first tick on
        CHECK(testing::run(a, 1) == "f");    // count is 1 now: else
    }

    TEST_CASE("a subtree's scripts name its keys as they are mapped into the whole tree") {
        const std::string sub = R"(<BehaviorTree ID="Sub"><Sequence>
<Script code="inner := 1; @total := 10"/><ScriptCondition code="inner == 1"/>
</Sequence></BehaviorTree>)";
        SUBCASE("remapped to the user's key") {
            auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="outer := 0"/><SubTree ID="Sub" inner="{outer}"/>
<ScriptCondition code="outer == 1"/>
</Sequence></BehaviorTree>)" + sub),
                            file_format::btcpp_xml);
            agent a(t);
            CHECK(a.tick(0.1) == status::success);
            // `@total`, the main tree's key, made by the subtree's script.
            const blackboard_key* total = key_named(*t, "total");
            REQUIRE(total != nullptr);
            CHECK(total->type == param_type::integer);
            CHECK(a.blackboard().get<std::int64_t>(a.blackboard().slot("total")) == 10);
        }
        SUBCASE("private to each use") {
            auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="inner := 5"/><SubTree ID="Sub"/><SubTree ID="Sub"/>
<ScriptCondition code="inner == 5"/>
</Sequence></BehaviorTree>)" + sub),
                            file_format::btcpp_xml);
            agent a(t);
            CHECK(a.tick(0.1) == status::success);  // each use set its own inner
        }
        SUBCASE("_autoremap") {
            auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="inner := 0"/><SubTree ID="Sub" _autoremap="true"/>
<ScriptCondition code="inner == 1"/>
</Sequence></BehaviorTree>)" + sub),
                            file_format::btcpp_xml);
            agent a(t);
            CHECK(a.tick(0.1) == status::success);
        }
    }

    TEST_CASE("condition attributes compile into the tree's layout, on any node type") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="n := 1"/>
<AlwaysSuccess _skipIf="n &gt; 3" _failureIf="false" _onSuccess="n += 1" _post="n := 0"/>
<AlwaysFailure/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        const detail::tree_layout& layout = t->layout();
        REQUIRE(t->size() == 4);
        CHECK((layout.hooks[2] & detail::conditions_hook) != 0);
        CHECK((layout.hooks[1] & detail::conditions_hook) == 0);
        CHECK((layout.hooks[3] & detail::conditions_hook) == 0);
        REQUIRE(layout.condition_index.size() == 4);
        const detail::node_conditions& c = layout.conditions.at(layout.condition_index[2]);
        using d = detail::node_conditions;
        CHECK(c.pre[d::skip_if] != nullptr);
        CHECK(c.pre[d::skip_if]->text() == "n > 3");
        CHECK(c.pre[d::failure_if]->text() == "false");
        CHECK(c.pre[d::success_if] == nullptr);
        CHECK(c.pre[d::while_true] == nullptr);
        CHECK(c.post[d::on_success]->text() == "n += 1");
        CHECK(c.post[d::post_any]->text() == "n := 0");
        CHECK(c.post[d::on_failure] == nullptr);
        CHECK(c.post[d::on_halted] == nullptr);
    }

    TEST_CASE("condition attributes are record parameters of their names in flat formats") {
        const load_result r = load(R"({"nodes": [
{"id": 1, "type": "AlwaysSuccess", "params": {"_while": "count < 3", "_onHalted": "count = 0"}}]})",
                                   file_format::flat_json);
        REQUIRE(r);
        const detail::node_conditions& c = r.tree->layout().conditions.at(0);
        CHECK(c.pre[detail::node_conditions::while_true]->text() == "count < 3");
        CHECK(c.post[detail::node_conditions::on_halted]->text() == "count = 0");
        const diagnostic bad = only(load(R"({"nodes": [
{"id": 1, "type": "AlwaysSuccess", "params": {"_skipIf": "nobody = 1"}}]})",
                                         file_format::flat_json),
                                    diagnostic_code::invalid_script);
        CHECK(bad.message.find("script of '_skipIf'") != std::string::npos);
    }

    TEST_CASE("a SubTree's condition attributes name the user's keys") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="gate := 1"/><SubTree ID="Sub" _skipIf="gate == 1"/>
</Sequence></BehaviorTree>
<BehaviorTree ID="Sub"><Script code="gate := 2"/></BehaviorTree>)"),
                        file_format::btcpp_xml);
        REQUIRE(t->size() == 4);
        CHECK(t->type_name(2) == "SubTree");
        CHECK((t->layout().hooks[2] & detail::conditions_hook) != 0);
        // The subtree's own `gate` is private to it: two keys.
        int gates = 0;
        for (const blackboard_key& k : t->keys()) gates += k.name.find("gate") != std::string::npos;
        CHECK(gates == 2);
    }
}

TEST_SUITE("script nodes") {
    TEST_CASE("scripts and condition attributes read back from every format they are written in") {
        const read_result first = read_records(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="n := 1"/>
<AlwaysSuccess _skipIf="n &gt; 3" _onSuccess="n += 1"/>
</Sequence></BehaviorTree>)"),
                                               file_format::btcpp_xml, "t.xml");
        REQUIRE(first.diagnostics.empty());
        for (file_format format :
             {file_format::btcpp_xml, file_format::flat_json, file_format::flat_xml}) {
            CAPTURE(info(format).name);
            const write_result written = info(format).write(first.document);
            for (const diagnostic& d : written.problems) FAIL_CHECK(to_string(d));
            const load_result again = try_load_text(written.text, format, script_registry(), "w");
            for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(again);
            const detail::node_conditions& c = again.tree->layout().conditions.at(0);
            CHECK(c.pre[detail::node_conditions::skip_if]->text() == "n > 3");
            CHECK(c.post[detail::node_conditions::on_success]->text() == "n += 1");
        }
        // A built tree written from memory keeps its nodes' conditions.
        const load_result built =
            try_load_text(info(file_format::btcpp_xml).write(first.document).text,
                          file_format::btcpp_xml, script_registry(), "w");
        REQUIRE(built);
        const std::string text = write_text(*built.tree, file_format::flat_json);
        CHECK(text.find(R"("_skipIf": "n > 3")") != std::string::npos);
        CHECK(text.find(R"("_onSuccess": "n += 1")") != std::string::npos);
    }
}

TEST_SUITE("BehaviorTree.CPP's rules") {
    TEST_CASE("a BehaviorTree.CPP file's scripts compute BehaviorTree.CPP's values") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="i := 3; sum := 3 + 4; ok := 1 &lt; 2; no := !1; neg := -3; bits := 6 | 1"/>
<Script code="text := 'n=' .. (1 + 2) .. ' ' .. i .. ' ' .. true; i += 1"/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        CHECK(key_named(*t, "i")->type == param_type::integer);  // an integer literal stays one
        for (const char* real : {"sum", "ok", "no", "neg", "bits"}) {
            CAPTURE(real);
            CHECK(key_named(*t, real)->type == param_type::number);
        }
        agent a(t);
        REQUIRE(a.tick(0.1) == status::success);
        const blackboard board = a.blackboard();
        CHECK(board.get<std::int64_t>("i") == 4);
        CHECK(board.get<double>("sum") == 7.0);
        CHECK(board.get<double>("ok") == 1.0);
        CHECK(board.get<double>("no") == 0.0);
        CHECK(board.get<double>("neg") == -3.0);
        CHECK(board.get<double>("bits") == 7.0);
        CHECK(board.get<std::string_view>("text") == "n=3.000000 3 1.000000");
    }

    TEST_CASE("Canopy's formats keep Canopy's values") {
        auto t = loaded(R"({"nodes": [
{"id": 1, "type": "Script", "params": {"code": "sum := 3 + 4; ok := 1 < 2"}}]})",
                        file_format::flat_json);
        CHECK(key_named(*t, "sum")->type == param_type::integer);
        CHECK(key_named(*t, "ok")->type == param_type::boolean);
    }

    TEST_CASE("a key a BehaviorTree.CPP tree makes holds no value until it is written") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="first := 1"/>
<AlwaysSuccess _skipIf="later == 1"/>
<Script code="later := 1"/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        const blackboard board = a.blackboard();
        CHECK_FALSE(board.is_set(board.slot("first")));
        CHECK_FALSE(board.is_set(board.slot("later")));
        // `later` is read before its `:=` ran: the condition fails the tick, as there.
        const std::string message = testing::tick_error(a);
        CHECK(message.find("'later' holds no value") != std::string::npos);
        CHECK(board.is_set(board.slot("first")));  // the statements before it ran
        CHECK_FALSE(board.is_set(board.slot("later")));
    }

    TEST_CASE("the program's keys a BehaviorTree.CPP tree never names are not its") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main">
<Script code="count += 1"/></BehaviorTree>)"),
                        file_format::btcpp_xml);
        CHECK(key_named(*t, "count") != nullptr);  // named: the program's, holding its value
        CHECK(key_named(*t, "health") == nullptr);
        agent a(t);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().get<std::int64_t>("count") == 1);
        // The same tree in Canopy's format keeps every key of the program.
        auto flat = loaded(R"({"nodes": [
{"id": 1, "type": "Script", "params": {"code": "count += 1"}}]})",
                           file_format::flat_json);
        CHECK(key_named(*flat, "health") != nullptr);
    }

    TEST_CASE("a statement with a problem fails when it runs, and only then") {
        const load_result r = load(btcpp(R"(<BehaviorTree ID="Main"><Fallback>
<AlwaysSuccess/>
<Script code="x := 'a' - 1"/>
</Fallback></BehaviorTree>)"),
                                   file_format::btcpp_xml);
        const diagnostic& d = only(r, diagnostic_code::invalid_script);
        CHECK(d.severity == diagnostic_severity::warning);
        CHECK(d.where.line == 4);
        REQUIRE(r);
        agent a(r.tree);
        CHECK(testing::run(a, 3) == "sss");  // the branch never runs: nothing fails
    }

    TEST_CASE("a problem in a part of a script that does not run fails nothing") {
        // Such a script is walked as BehaviorTree.CPP runs it: `!s` fails only when reached.
        const load_result r = load(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="s := 'x'; c := 1"/>
<Script code="r := c ? 2 : !s; c = 'true'"/>
</Sequence></BehaviorTree>)"),
                                   file_format::btcpp_xml);
        REQUIRE(r);
        REQUIRE(r.diagnostics.size() == 1);  // the script's first problem, `!s`: a warning
        CHECK(r.diagnostics[0].severity == diagnostic_severity::warning);
        agent a(r.tree);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().text(a.blackboard().slot("r")) == "2");
        CHECK(a.blackboard().get<std::int64_t>("c") == 1);  // 'true' is 1 there
        agent b(r.tree);
        b.blackboard().set("c", std::int64_t{0});
        (void)b.tick(0.1);  // the first Script sets c to 1 again: the second succeeds
        CHECK(b.blackboard().get<std::int64_t>("c") == 1);
        const load_result reached = load(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="s := 'x'; c := 0"/>
<Script code="r := c ? 2 : !s"/>
</Sequence></BehaviorTree>)"),
                                         file_format::btcpp_xml);
        REQUIRE(reached);
        agent c(reached.tree);
        CHECK(testing::tick_error(c).find("Invalid operator for std::string") != std::string::npos);
    }

    TEST_CASE("a port that reads a key nothing wrote fails the tick, naming its node") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="a := 1"/>
<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        CHECK(testing::tick_error(a, error_code::blackboard) ==
              "node 3 ('Repeat') reads key 'n', which holds no value: nothing wrote it yet");
        // Once written, it reads as any key.
        agent b(t);
        b.blackboard().set("n", std::int64_t{1});
        CHECK(b.tick(0.1) == status::success);
    }

    TEST_CASE("conditions over keys a BehaviorTree.CPP tree made answer as the loop does") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="a := 4; b := 1"/>
<ScriptCondition code="a &gt; 3 &amp;&amp; b != 2"/>
<Inverter><ScriptCondition code="a &gt; 3 &amp;&amp; b == 2"/></Inverter>
<ScriptCondition code="b"/>
<ScriptCondition code="a &gt; 3 || z == 2"/>
<Script code="z := 2"/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        // `z` holds no value when the last condition reads it: the tick fails there.
        CHECK(testing::tick_error(a).find("'z' holds no value") != std::string::npos);
        // Written by the host first, every condition holds.
        agent b(t);
        b.blackboard().set("z", std::int64_t{0});
        CHECK(b.tick(0.1) == status::success);

        // An UnsetBlackboard between the write and the read: its key is a dynamic entry. (The
        // proof's guard for typed keys is tested in conditions_test.cpp, with a node of the
        // program's that unsets.)
        auto u = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="a := 4"/>
<UnsetBlackboard key="a"/>
<ScriptCondition code="a &gt; 3 &amp;&amp; a != 2"/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent c(u);
        CHECK(testing::tick_error(c).find("Variable not found: a") != std::string::npos);
    }

    TEST_CASE("a BehaviorTree.CPP file's conditions cast to bool as BehaviorTree.CPP does") {
        // Its Any::cast<bool>: an integer must be 0 or 1, a number not negative, and a string
        // is no condition; Canopy's formats take any non-zero number and `true`/`1` text.
        struct row {
            const char* setup;
            const char* condition;
            const char* fails;  // "" when the condition holds
        };
        const row rows[] = {
            {"b := 1", "b", ""},
            {"b := 4", "b", "4 is neither true nor false"},
            {"b := -1", "b", "-1.000000 is neither true nor false"},
            {"b := 0.5", "b", ""},
            {"b := 'true'", "b", "a string is no condition"},
            {"b := 4", "b &amp;&amp; true", "4 is neither true nor false"},
            {"b := 2.0", "b &amp;&amp; true", ""},
            {"b := 4", "b != 0", ""},
        };
        for (const row& r : rows) {
            CAPTURE(r.condition);
            CAPTURE(r.setup);
            auto t = loaded(btcpp(std::string(R"(<BehaviorTree ID="Main"><Sequence>
<Script code=")") + r.setup + R"("/><ScriptCondition code=")" +
                                  r.condition + R"("/>
</Sequence></BehaviorTree>)"),
                            file_format::btcpp_xml);
            agent a(t);
            if (std::string_view(r.fails).empty()) {
                CHECK(a.tick(0.1) == status::success);
            } else {
                CHECK(testing::tick_error(a).find(r.fails) != std::string::npos);
            }
        }
    }

    TEST_CASE("a name a BehaviorTree.CPP script reads that nothing declares is the program's") {
        // BehaviorTree.CPP looks names up when the script runs: the program may write them.
        const load_result r = load(btcpp(R"(<BehaviorTree ID="Main">
<ScriptCondition code="temp &gt; LIMIT"/></BehaviorTree>)"),
                                   file_format::btcpp_xml);
        REQUIRE(r);
        REQUIRE(r.diagnostics.size() == 2);
        for (const diagnostic& d : r.diagnostics) {
            CHECK(d.severity == diagnostic_severity::warning);
            CHECK(d.message.find("a key the program provides") != std::string::npos);
        }
        CHECK(key_named(*r.tree, "temp")->starts_unset);
        agent unwritten(r.tree);
        CHECK(testing::tick_error(unwritten).find("Variable not found: temp") != std::string::npos);
        agent written(r.tree);
        written.blackboard().set("temp", 80.0);
        written.blackboard().set("LIMIT", std::int64_t{70});
        CHECK(written.tick(0.1) == status::success);
        // An enum the program registers is no key; `=` to a name nothing wrote fails, as
        // BehaviorTree.CPP's assignment to a missing entry.
        registry reg = script_registry();
        reg.add_enum("LIMIT", 70);
        const load_result with_enum = try_load_text(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<ScriptCondition code="temp &gt; LIMIT"/><Script code="nobody = 1"/></Sequence></BehaviorTree>)"),
                                                    file_format::btcpp_xml, reg, "t");
        REQUIRE(with_enum);
        CHECK(key_named(*with_enum.tree, "LIMIT") == nullptr);
        CHECK(key_named(*with_enum.tree, "nobody")->provided);
        agent a(with_enum.tree);
        a.blackboard().set("temp", 80.0);
        // The script with that problem is walked as BehaviorTree.CPP runs it: its message.
        CHECK(testing::tick_error(a).find("The blackboard entry [nobody] doesn't exist, yet") !=
              std::string::npos);
    }

    TEST_CASE("a key only untyped ports name takes the type a script writes into it") {
        // BehaviorTree.CPP makes such a port's entry without a type; `:=` gives it one.
        load_options lenient;
        lenient.lenient = true;
        const load_result r =
            try_load_text(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="@x := 0.0; angle := 3.14159 / 12; n := 1"/>
<Move x="{@x}" angle="{angle}" label="{label}"/>
<Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat>
</Sequence></BehaviorTree>
<TreeNodesModel><Action ID="Move"><input_port name="x"/><input_port name="angle"/>
<input_port name="label"/></Action></TreeNodesModel>)"),
                          file_format::btcpp_xml, script_registry(), "t", lenient);
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        CHECK(key_named(*r.tree, "x")->type == param_type::number);
        CHECK(key_named(*r.tree, "angle")->type == param_type::number);
        CHECK(key_named(*r.tree, "n")->type == param_type::integer);
        CHECK(key_named(*r.tree, "label")->type == param_type::string);  // nothing typed it
    }

    TEST_CASE("= to a key a script creates fails before the := ran, and not a port's key") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="port_key = 2; made = 1"/>
<Script code="made := 0"/>
<Repeat num_cycles="{port_key}"><AlwaysSuccess/></Repeat>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        CHECK_FALSE(key_named(*t, "port_key")->made_by_script);  // a port's: it exists, empty
        CHECK(key_named(*t, "made")->made_by_script);
        agent a(t);
        const std::string message = testing::tick_error(a);
        CHECK(message.find("'made' holds no value") != std::string::npos);
        CHECK(a.blackboard().get<std::int64_t>("port_key") == 2);  // the statement before ran
    }

    // ---- dynamic entries (docs/btcpp-xml.md, "Dynamic entries") -----------------------------

    TEST_CASE("a key SetBlackboard writes is a dynamic entry, typed by what is written first") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="a := 2; t := '3'"/>
<SetBlackboard output_key="a" value="{t}"/>
<SetBlackboard output_key="u" value="abc"/>
<Script code="c := u .. 1; n := t + 'x'"/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        // `t` too: the script that makes it names `a`, so its values are known when it runs.
        for (const char* name : {"a", "t", "u", "c", "n"}) {
            CAPTURE(std::string(name));
            CHECK(key_named(*t, name)->type_name() == "BT::Any");
        }
        agent a(t);
        REQUIRE(a.tick(0.1) == status::success);
        const blackboard board = a.blackboard();
        // Text into an entry a script made without a type: BehaviorTree.CPP's SetBlackboard
        // finds no converter and leaves it empty.
        CHECK_FALSE(board.is_set(board.slot("a")));
        CHECK(board.text(board.slot("u")) == "'abc'");
        CHECK(board.text(board.slot("c")) == "'abc1'");
        CHECK(board.text(board.slot("n")) == "'3x'");
        // Now `a` is BT::Any: text cannot convert into it.
        agent again(t);
        (void)again.tick(0.1);
        CHECK(testing::tick_error(again, error_code::blackboard)
                  .find("node 3 ('SetBlackboard'): Can't convert string [3] to type [BT::Any]") ==
              0);
    }

    TEST_CASE("scripts over dynamic entries use BehaviorTree.CPP's operators and conversions") {
        struct row {
            const char* code;
            const char* expect;  // the key r's text, or the failure's message
        };
        const row rows[] = {
            {"r := n > 2", "1"},                        // text read as a number to compare
            {"r := n == '3'", "1"},                     // text with text
            {"r := n .. '!'", "'3!'"},                  // concatenation of text
            {"r := n + 1", "Operation not permitted"},  // text + number
            {"r := -n", "Invalid operator for std::string"},
            {"n = 5", "can't be converted to [std::string]"},  // the entry holds text
            {"r := n; r += 'x'", "'3x'"},
            {"r := 2; r = n", "3"},  // text into a number: StringToDouble, a real now
            {"n; r := 2; r /= 4", "Invalid floating point to integer conversion"},
            {"n; r := 2.5; r = 1", "1"},
            {"n; r := 3; r = 1.5", "can't be converted to [long]"},
            {"n; r := 1 .. 2", "The right operand of the operator [:=] is not initialized"},
            {"r := (n == 3) ? 'yes' : 'no'", "'yes'"},
        };
        for (const row& test : rows) {
            const std::string code = test.code;
            CAPTURE(code);
            auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<SetBlackboard output_key="n" value="3"/>
<Script code=")" + code + R"("/>
</Sequence></BehaviorTree>)"),
                            file_format::btcpp_xml);
            agent a(t);
            const std::string failure = testing::tick_error(a);
            const std::string expect = test.expect;
            if (expect[0] == '\'' || (expect[0] >= '0' && expect[0] <= '9')) {
                CHECK(failure == "");
                CHECK(a.blackboard().text(a.blackboard().slot("r")) == expect);
            } else {
                CHECK(failure.find(expect) != std::string::npos);
            }
        }
    }

    TEST_CASE("a typed port reads a dynamic entry as getInput converts it") {
        const std::string tree = btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="runs := 0"/>
<SetBlackboard output_key="k" value="VALUE"/>
<Repeat num_cycles="{k}"><Script code="runs += 1"/></Repeat>
</Sequence></BehaviorTree>)");
        auto with = [&](const std::string& value) {
            std::string text = tree;
            text.replace(text.find("VALUE"), 5, value);
            return loaded(text, file_format::btcpp_xml);
        };
        agent a(with("2"));
        CHECK(testing::run(a, 2) == "rs");                     // Repeat yields after each cycle
        CHECK(a.blackboard().get<std::int64_t>("runs") == 2);  // "2" read as the port's int
        // The entry exists from the build, empty: Repeat's {k} made it, typed int, so text
        // written into it converts at once.
        CHECK(a.blackboard().text(a.blackboard().slot("k")) == "2");
        agent b(with("abc"));
        CHECK(testing::tick_error(b, error_code::blackboard) ==
              "node 3 ('SetBlackboard'): Can't convert string [abc] to type [int]: Can't convert "
              "string [abc] to integer");
    }

    TEST_CASE("SetBlackboard from a missing entry throws, from an empty one fails") {
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Fallback>
<SetBlackboard output_key="x" value="{empty}"/>
<SetBlackboard output_key="y" value="{later}"/>
<Script code="later := 1"/>
</Fallback></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        // `empty` is the value port's own entry, made empty by the build: the node fails.
        // `later` has no entry until its `:=` runs: BehaviorTree.CPP throws.
        CHECK(testing::tick_error(a, error_code::blackboard)
                  .find("Can't find the port referred by [value]") != std::string::npos);
    }

    TEST_CASE("a NaN makes every order hold in a BehaviorTree.CPP file, none in Canopy's") {
        // BehaviorTree.CPP tests `a > b` as !(a <= b): with 0 / 0 both orders hold there.
        const char* scripts[] = {"n > 1", "n < 1", "n >= 1", "n <= 1", "1 < n", "z / z > 1"};
        for (const char* condition : scripts) {
            CAPTURE(condition);
            auto bt = loaded(btcpp(std::string(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="z := 0.0; n := z / z"/>
<ScriptCondition code=")") + condition +
                                   R"("/>
</Sequence></BehaviorTree>)"),
                             file_format::btcpp_xml);
            agent a(bt);
            CHECK(a.tick(0.1) == status::success);
            auto own = loaded(std::string(R"({"nodes": [
{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "Script", "params": {"code": "z := 0.0; n := z / z"}},
{"id": 3, "parentId": 1, "type": "ScriptCondition", "params": {"code": ")") +
                                  condition + R"("}}]})",
                              file_format::flat_json);
            agent b(own);
            CHECK(b.tick(0.1) == status::failure);
        }
    }

    TEST_CASE("a key a script makes from itself takes the program's value of any type") {
        // `t := t` reads `t`, which only the program can have written first: its entry is
        // dynamic, as BehaviorTree.CPP's, and holds what the program wrote.
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="t := t"/>
<ScriptCondition code="t == '2.5'"/>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        a.blackboard().set("t", std::string_view("2.5"));
        CHECK(a.tick(0.1) == status::success);
        agent unwritten(t);
        CHECK(testing::tick_error(unwritten).find("t") != std::string::npos);
    }

    TEST_CASE("IfThenElse and WhileDoElse fail at tick where BehaviorTree.CPP's throw") {
        // 4.10 builds them with any child count and throws from the tick; a skipped condition
        // leaves IfThenElse's tick at its logic_error and WhileDoElse's returning IDLE.
        const load_result one = load(btcpp(R"(<BehaviorTree ID="Main">
<IfThenElse><AlwaysSuccess/></IfThenElse>
</BehaviorTree>)"),
                                     file_format::btcpp_xml);
        REQUIRE(one);
        CHECK(only(one, diagnostic_code::invalid_param).severity == diagnostic_severity::warning);
        agent a(one.tree);
        CHECK(testing::tick_error(a, error_code::param) ==
              "IfThenElseNode must have either 2 or 3 children");

        auto skipped = loaded(btcpp(R"(<BehaviorTree ID="Main">
<IfThenElse><AlwaysSuccess _skipIf="true"/><AlwaysSuccess/></IfThenElse>
</BehaviorTree>)"),
                              file_format::btcpp_xml);
        agent b(skipped);
        CHECK(testing::tick_error(b, error_code::unsupported)
                  .find("Something unexpected happened in IfThenElseNode") != std::string::npos);

        auto while_skipped = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="skip := 1"/>
<WhileDoElse>
  <AlwaysSuccess _skipIf="skip == 1"/>
  <KeepRunningUntilFailure><AlwaysSuccess/></KeepRunningUntilFailure>
</WhileDoElse>
</Sequence></BehaviorTree>)"),
                                    file_format::btcpp_xml);
        agent c(while_skipped);
        CHECK(testing::tick_error(c, error_code::unsupported).find("IDLE") != std::string::npos);
    }

    TEST_CASE("a condition its parent left unreset is ticked without its pre-conditions") {
        // 4.10 checks _failureIf, _successIf, _skipIf and _while only on an idle node. Its
        // two-child IfThenElse does not reset a condition that failed, and WhileDoElse resets
        // its condition only when it finishes: ticked again, the condition still holds its
        // last result, so its pre-conditions are passed over and its script runs. Checked
        // against 4.10 (the same trees, and a _skipIf that a program sets mid-run).
        auto if_then = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<RunOnce><Script code="n := 0"/></RunOnce>
<Script code="n += 1; r := 0; f := 0"/>
<ForceSuccess><IfThenElse>
  <ScriptCondition code="false" _successIf="n &gt;= 2" _onFailure="f += 1"/>
  <Script code="r := n"/>
</IfThenElse></ForceSuccess>
</Sequence></BehaviorTree>)"),
                              file_format::btcpp_xml);
        agent a(if_then);
        for (int k = 0; k < 3; ++k) {
            CHECK(a.tick(0.1) == status::success);
            CHECK(a.blackboard().get<std::int64_t>("r") == 0);  // _successIf never checked
            CHECK(a.blackboard().get<std::int64_t>("f") == 1);  // post-conditions run
        }

        auto while_do = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="skip := 0; h := 0"/>
<WhileDoElse>
  <AlwaysSuccess _skipIf="skip == 1"/>
  <KeepRunningUntilFailure _onHalted="h = 1"><AlwaysSuccess/></KeepRunningUntilFailure>
</WhileDoElse>
</Sequence></BehaviorTree>)"),
                               file_format::btcpp_xml);
        agent b(while_do);
        CHECK(b.tick(0.1) == status::running);
        b.blackboard().set("skip", std::int64_t{1});
        CHECK(b.tick(0.1) == status::running);
        CHECK(b.blackboard().get<std::int64_t>("h") == 0);

        // Canopy's own trees enter a condition afresh, pre-conditions and all.
        auto own = loaded(R"({"blackboard": {"skip": "integer", "h": "integer"}, "nodes": [
{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "Script", "params": {"code": "h = 0"}},
{"id": 3, "parentId": 1, "type": "WhileDoElse"},
{"id": 4, "parentId": 3, "type": "AlwaysSuccess", "params": {"_skipIf": "skip == 1"}},
{"id": 5, "parentId": 3, "type": "RepeatUntilFailure", "params": {"_onHalted": "h = 1"}},
{"id": 6, "parentId": 5, "type": "AlwaysSuccess"}]})",
                          file_format::flat_json);
        agent c(own);
        c.blackboard().set("skip", std::int64_t{0});
        CHECK(c.tick(0.1) == status::running);
        c.blackboard().set("skip", std::int64_t{1});
        CHECK(c.tick(0.1) == status::success);  // WhileDoElse skipped, the Sequence done
        CHECK(c.blackboard().get<std::int64_t>("h") == 1);  // the running branch was halted
    }

    TEST_CASE("a control a skip leaves running is halted where its parent resets it") {
        // 4.10's controls and decorators set themselves running as their tick starts, and a
        // skipped child's SKIPPED keeps that status: their parent's reset halts them, and
        // their _onHalted runs then. Each expectation was checked against 4.10.
        auto at_end = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<RunOnce><Script code="h := 0; seen := 0"/></RunOnce>
<Inverter _onHalted="h += 1"><AlwaysSuccess _skipIf="true"/></Inverter>
<Script code="seen := h"/>
</Sequence></BehaviorTree>)"),
                             file_format::btcpp_xml);
        agent a(at_end);
        for (int k = 1; k <= 3; ++k) {
            CHECK(a.tick(0.1) == status::success);
            // The Sequence resets its children once the last has run.
            CHECK(testing::number_at(a.blackboard(), "seen") == k - 1);
            CHECK(testing::number_at(a.blackboard(), "h") == k);
        }
        CHECK(a.last_status(3) == status::skipped);  // the Inverter: halted, then skipped still

        // A ReactiveSequence resets a skipped child at once; the halt goes down through
        // the decorators it left running, the inner first.
        auto at_once = loaded(btcpp(R"(<BehaviorTree ID="Main"><ReactiveSequence>
<RunOnce><Script code="h := 0; seen := 0"/></RunOnce>
<Inverter _onHalted="h = h * 2 + 1"><ForceSuccess _onHalted="h += 10"><AlwaysSuccess _skipIf="true"/></ForceSuccess></Inverter>
<Script code="seen := h"/>
</ReactiveSequence></BehaviorTree>)"),
                              file_format::btcpp_xml);
        agent b(at_once);
        CHECK(b.tick(0.1) == status::success);
        CHECK(testing::number_at(b.blackboard(), "seen") == 21);

        // 4.10's Switch does not set itself running, so its parent's reset passes it by, and
        // with it the Inverter its skipped case left running: that one is halted when the
        // Switch next resets its cases, after another case finished.
        auto past_switch = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<RunOnce><Script code="h := 0; n := 0"/></RunOnce>
<Script code="n += 1"/>
<Fallback>
  <Sequence _onHalted="h += 1"><AlwaysFailure _skipIf="true"/><AlwaysFailure _skipIf="true"/></Sequence>
  <Switch2 variable="{n}" case_1="1" case_2="2" _onHalted="h += 100">
    <Inverter _onHalted="h += 10"><AlwaysFailure _skipIf="true"/></Inverter>
    <AlwaysSuccess/>
    <AlwaysFailure/>
  </Switch2>
</Fallback>
</Sequence></BehaviorTree>)"),
                                  file_format::btcpp_xml);
        agent c(past_switch);
        const std::uint32_t h = c.blackboard().slot("h");  // an entry: BT::Any to the port
        CHECK(c.tick(0.1) == status::success);
        CHECK(c.blackboard().text(h) == "1");
        CHECK(c.tick(0.1) == status::success);
        CHECK(c.blackboard().text(h) == "12");

        // Canopy's own trees halt only what runs.
        auto own = loaded(R"({"blackboard": {"h": "integer"}, "nodes": [
{"id": 1, "type": "Sequence"},
{"id": 2, "parentId": 1, "type": "Not", "params": {"_onHalted": "h += 1"}},
{"id": 3, "parentId": 2, "type": "AlwaysSuccess", "params": {"_skipIf": "true"}},
{"id": 4, "parentId": 1, "type": "AlwaysSuccess"}]})",
                          file_format::flat_json);
        agent d(own);
        CHECK(d.tick(0.1) == status::success);
        CHECK(d.blackboard().get<std::int64_t>("h") == 0);
        CHECK(d.last_status(1) == status::skipped);
    }

    TEST_CASE("a Repeat a skip leaves running starts its count afresh when reset") {
        // 4.10's Repeat keeps its count over a skipped child ("Don't reset the counter"), but
        // the ReactiveSequence halts it at once, and its halt zeroes the count: the run after
        // the skip needs both cycles again. Checked against 4.10.
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><ReactiveSequence>
<RunOnce><Script code="n := 0; c := 0"/></RunOnce>
<Script code="n += 1"/>
<Repeat num_cycles="2"><Sequence><Script code="c += 1" _skipIf="n == 2"/></Sequence></Repeat>
</ReactiveSequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        CHECK(testing::run(a, 5) == "rsrsr");
        CHECK(testing::number_at(a.blackboard(), "c") == 4);
    }

    TEST_CASE("a node a skip left running is ticked again as a running node") {
        // A Parallel ticks a skipped child again at its next tick, before any reset: 4.10's
        // Inverter is still running then, so its _successIf is not checked, and it fails.
        auto t = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<RunOnce><Script code="n := 1"/></RunOnce>
<Parallel>
  <Inverter _successIf="n &gt;= 2"><AlwaysSuccess _skipIf="n == 1"/></Inverter>
  <KeepRunningUntilFailure><ScriptCondition code="n += 1; n &lt; 4"/></KeepRunningUntilFailure>
</Parallel>
</Sequence></BehaviorTree>)"),
                        file_format::btcpp_xml);
        agent a(t);
        CHECK(testing::run(a, 4) == "rfrf");

        // Nor is it entered afresh: the Timeout skipped at its first tick keeps the deadline
        // that tick set (checked against 4.10 on its wall clock, ticks 100 ms apart).
        auto timed = loaded(btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<RunOnce><Script code="n := 0"/></RunOnce>
<Parallel>
  <Timeout msec="250"><KeepRunningUntilFailure _skipIf="n == 0"><AlwaysSuccess/></KeepRunningUntilFailure></Timeout>
  <KeepRunningUntilFailure><ScriptCondition code="n += 1; n &lt; 10"/></KeepRunningUntilFailure>
</Parallel>
</Sequence></BehaviorTree>)"),
                            file_format::btcpp_xml);
        agent b(timed);
        CHECK(testing::run(b, 4, 0.1) == "rrrf");
    }

    TEST_CASE("a key the program writes first keeps the program's type, as its entry does") {
        // The program writes `b` as a double before the first tick; the script's `b := 2`
        // then assigns into that entry. Told so (load_options::program_keys), the key is a
        // dynamic entry; otherwise the script types it an integer, which refuses a double.
        const std::string text = btcpp(R"(<BehaviorTree ID="Main"><Sequence>
<Script code="b := 2"/>
<ScriptCondition code="b == 2"/>
</Sequence></BehaviorTree>)");
        load_options options;
        options.program_keys = {"b"};
        const load_result told =
            try_load_text(text, file_format::btcpp_xml, script_registry(), "t.xml", options);
        REQUIRE(told);
        agent a(told.tree);
        a.blackboard().set("b", 2.5);
        CHECK(a.blackboard().text(a.blackboard().slot("b")) == "2.5");
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().text(a.blackboard().slot("b")) == "2");

        const load_result untold = load(text, file_format::btcpp_xml);
        REQUIRE(untold);
        agent b(untold.tree);
        CHECK_THROWS_AS(b.blackboard().set("b", 2.5), error);
    }
}
