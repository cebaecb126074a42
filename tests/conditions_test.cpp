// BehaviorTree.CPP's pre- and post-conditions on any node (`_skipIf`, `_onSuccess`, ...): how
// the engine runs them, after BehaviorTree.CPP 4.10's TreeNode::executeTick,
// checkPreConditions and checkPostConditions (src/tree_node.cpp), and how every format and view
// carries them.
#include <doctest/doctest.h>

#include <limits>

#include "runtime_support.hpp"

namespace canopy::testing {
namespace {

// Unsets the key it names, as a program's node may (node_type::watches_updates says it
// might): by its name, so that no port makes the key a dynamic entry.
class forget final : public node {
public:
    static constexpr bool watches_updates = true;
    static std::vector<param_spec> parameters() {
        return {param_spec::required("target", param_type::string)};
    }
    explicit forget(const param_list& params) : name_(params.get<std::string>("target")) {}
    status tick(context& ctx) const override {
        ctx.blackboard().unset(ctx.blackboard().slot(name_));
        return status::success;
    }

private:
    std::string name_;
};

// Built-ins, a leaf whose results follow its `results` (one letter a tick: s, f, r), and keys.
registry conditions_registry() {
    registry reg;
    register_builtin_nodes(reg);
    reg.add<script_node>("Act", 300);
    reg.add<forget>("Forget", 301);
    reg.add_key("n", param_type::integer);
    reg.add_key("go", param_type::boolean, true);
    return reg;
}

std::shared_ptr<const tree> load_btcpp(const std::string& body) {
    const load_result r = try_load_text(
        R"(<root BTCPP_format="4"><BehaviorTree ID="Main">)" + body + "</BehaviorTree></root>",
        file_format::btcpp_xml, conditions_registry(), "t.xml");
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

// Every result and hook call, as call_recorder spells them, for one tick.
struct ticked {
    std::string root;
    std::vector<std::string> events;
};

struct runner {
    explicit runner(std::shared_ptr<const tree> t) : a(std::move(t), &log) {
        a.set_observer(&calls);
    }
    ticked tick() {
        calls.events.clear();
        const status s = a.tick(0.1);
        return {std::string(to_string(s)), calls.events};
    }
    std::int64_t n() { return a.blackboard().get<std::int64_t>("n"); }

    script_log log;
    call_recorder calls;
    agent a;
};

using events = std::vector<std::string>;

TEST_SUITE("conditions") {
    TEST_CASE(
        "_skipIf skips an idle node: neither entered nor exited, skipped after, passed over") {
        // BehaviorTree.CPP: SKIP_IF holds on an IDLE node -> SKIPPED without tick(). It keeps
        // the node IDLE ("preserve the IDLE state if skipped"); Canopy's status byte says
        // skipped (docs/nodes.md, "Skipped").
        runner r(load_btcpp(R"(<Sequence>
  <Act results="s" _skipIf="n == 0"/>
  <Act results="s"/>
</Sequence>)"));
        const ticked first = r.tick();
        CHECK(first.root == "success");
        CHECK(first.events == events{"enter #2", "exit skipped #2", "enter #3", "exit success #3",
                                     "enter #1", "exit success #1"});
        CHECK(r.log.enters == 1);  // only the second leaf's enter hook ran
        CHECK(r.a.last_status(1) == status::skipped);
        CHECK_FALSE(r.a.is_running(1));
        r.a.blackboard().set("n", 1);
        CHECK(r.tick().root == "success");
        CHECK(r.log.enters == 3);  // both leaves ran: skipped, the node was entered afresh
        CHECK(r.a.last_status(1) == status::success);
    }

    TEST_CASE("a skipped node's status byte says skipped until a halt makes it idle") {
        // The inline test of a lone comparison and the out-of-line step of any other condition
        // both leave the byte; a halt of the parent, by its own parent or by a reset, clears it.
        for (const char* skip : {R"(_skipIf="n == 0")", R"(_while="n != 0")"}) {
            CAPTURE(skip);
            runner r(load_btcpp(std::string(R"(<ReactiveSequence>
  <ScriptCondition code="go"/>
  <Sequence>
    <Act results="s" )") + skip +
                                R"(/>
    <Act results="r"/>
  </Sequence>
</ReactiveSequence>)"));
            CHECK(r.tick().root == "running");
            CHECK(r.a.last_status(3) == status::skipped);
            r.a.blackboard().set("go", false);
            CHECK(r.tick().root == "failure");  // halts the running Sequence
            CHECK(r.a.last_status(2) == status::idle);
            CHECK(r.a.last_status(3) == status::idle);
            r.a.blackboard().set("go", true);
            CHECK(r.tick().root == "running");
            CHECK(r.a.last_status(3) == status::skipped);
            r.a.reset();
            CHECK(r.a.last_status(3) == status::idle);
            CHECK(r.log.violations == 0);
        }
    }

    TEST_CASE("_failureIf, _successIf, _skipIf are checked in that order; the first that holds") {
        runner r(load_btcpp(
            R"(<Act results="r" _skipIf="n >= 0" _successIf="n >= 1" _failureIf="n >= 2"/>)"));
        CHECK(r.tick().root == "skipped");
        r.a.blackboard().set("n", 1);
        CHECK(r.tick().root == "success");
        r.a.blackboard().set("n", 2);
        CHECK(r.tick().root == "failure");
        CHECK(r.log.enters == 0);
    }

    TEST_CASE("pre-conditions other than _while are not checked while the node runs") {
        runner r(load_btcpp(R"(<Act results="rrs" _failureIf="n == 1"/>)"));
        CHECK(r.tick().root == "running");
        r.a.blackboard().set("n", 1);
        CHECK(r.tick().root == "running");
        CHECK(r.tick().root == "success");
        CHECK(r.tick().root == "failure");  // idle again: checked, and it holds
    }

    TEST_CASE("a key compared with a constant, tested inline, answers as the script does") {
        // The engine tests a lone `_failureIf`/`_successIf`/`_skipIf` of the form `key OP
        // constant` without running the script: it must agree with the script everywhere,
        // the ends of the integer range included.
        constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
        constexpr std::int64_t least = std::numeric_limits<std::int64_t>::min();
        const std::int64_t values[] = {least, least + 1, -2, -1, 0, 1, 2, most - 1, most};
        const std::string constants[] = {
            "-9223372036854775807", "-1", "0", "1", "9223372036854775806", "9223372036854775807"};
        int checked = 0;
        for (const char* op : {"==", "!=", "<", ">", "<=", ">="}) {
            for (const std::string& constant : constants) {
                const std::string condition = std::string("n ") + op + " " + constant;
                CAPTURE(condition);
                runner r(load_btcpp(R"(<Act results="s" _skipIf=")" + condition + R"("/>)"));
                CHECK((r.a.tree().layout().hooks[0] & detail::inline_condition_hook) != 0);
                const script* compiled = r.a.tree().condition(0, 2);
                REQUIRE(compiled != nullptr);
                for (const std::int64_t value : values) {
                    CAPTURE(value);
                    r.a.blackboard().set("n", value);
                    const bool holds = compiled->test(r.a.blackboard());
                    CHECK(r.tick().root == (holds ? "skipped" : "success"));
                    ++checked;
                }
            }
        }
        CHECK(checked == 6 * 6 * 9);
        runner flag(load_btcpp(R"(<Act results="s" _failureIf="go"/>)"));
        CHECK((flag.a.tree().layout().hooks[0] & detail::inline_condition_hook) != 0);
        CHECK(flag.tick().root == "failure");
        flag.a.blackboard().set("go", false);
        CHECK(flag.tick().root == "success");
        runner success(load_btcpp(R"(<Act results="f" _successIf="n != 3"/>)"));
        CHECK(success.tick().root == "success");
        success.a.blackboard().set("n", 3);
        CHECK(success.tick().root == "failure");
        // Not checked on a running node, as any pre-condition but _while.
        runner running(load_btcpp(R"(<Act results="rs" _skipIf="n == 1"/>)"));
        CHECK(running.tick().root == "running");
        running.a.blackboard().set("n", 1);
        CHECK(running.tick().root == "success");
        CHECK(running.tick().root == "skipped");
    }

    TEST_CASE("a key a script makes is tested inline where a Script before surely wrote it") {
        // `m` exists from the Script's `:=` on (BehaviorTree.CPP's entry): a condition that
        // may read it before then is left to its script, which fails the tick; one after a
        // Script sibling that surely wrote it is tested inline (docs/btcpp-xml.md, "Keys that
        // start unset").
        const auto load = [](const std::string& body) {
            const load_result r =
                try_load_text(R"(<root BTCPP_format="4"><BehaviorTree ID="Main"><Sequence>)" +
                                  body + "</Sequence></BehaviorTree></root>",
                              file_format::btcpp_xml, conditions_registry(), "t.xml");
            REQUIRE(r);
            return r.tree;
        };
        const auto inline_at = [](const runner& r, tree::index node) {
            return (r.a.tree().layout().hooks[node] & detail::inline_condition_hook) != 0;
        };
        const auto fails_unwritten = [](runner& r) {
            CHECK_THROWS_WITH_AS(r.a.tick(0.1),
                                 doctest::Contains("key 'm' holds no value: nothing wrote it yet"),
                                 error);
        };
        runner early(load(R"(<Act results="s" _skipIf="m > 1"/><Script code="m := 5"/>)"));
        CHECK_FALSE(inline_at(early, 1));
        fails_unwritten(early);

        runner late(load(R"(<Script code="m := 5"/><Act results="s" _skipIf="m > 1"/>)"));
        CHECK(inline_at(late, 2));
        CHECK(late.tick().root == "success");
        CHECK(late.a.last_status(2) == status::skipped);
        runner then(load(R"(<Script code="m := 1"/><Act results="s" _skipIf="m > 1"/>)"));
        // Not skipped: the Act is entered and ticked.
        CHECK(then.tick().events == events{"enter #2", "exit success #2", "enter #3",
                                           "exit success #3", "enter #1", "exit success #1"});
        // Deeper below a later sibling, too.
        runner nested(load(
            R"(<Script code="m := 5"/><Inverter><Act results="s" _skipIf="m > 1"/></Inverter>)"));
        CHECK(inline_at(nested, 3));

        // Not surely written: a Script that may be skipped, an assignment inside an
        // expression, a parent that does not tick in order, a tree that may unset keys.
        runner skippable(load(R"(<Script code="m := 5" _skipIf="true"/>
            <Act results="s" _skipIf="m > 1"/>)"));
        CHECK_FALSE(inline_at(skippable, 2));
        fails_unwritten(skippable);
        runner inner(load(R"x(<Script code="c := 0; c == 1 ? (m := 5) : (c := 2)"/>
            <Act results="s" _skipIf="m > 1"/>)x"));
        CHECK_FALSE(inline_at(inner, 2));
        fails_unwritten(inner);
        runner fallback(load(R"(<Fallback><AlwaysFailure/><Script code="m := 5"/>
            <Act results="s" _skipIf="m > 1"/></Fallback>)"));
        CHECK_FALSE(inline_at(fallback, 4));
        runner forgotten(load(R"(<Script code="m := 5"/><Forget target="m"/>
            <Act results="s" _skipIf="m > 1"/>)"));
        CHECK_FALSE(inline_at(forgotten, 3));
        fails_unwritten(forgotten);
        runner unset(load(R"(<Script code="m := 5"/><UnsetBlackboard key="m"/>
            <Act results="s" _skipIf="m > 1"/>)"));
        CHECK_FALSE(inline_at(unset, 3));
        // UnsetBlackboard's key is a dynamic entry, whose read fails as 4.10's does.
        CHECK_THROWS_WITH_AS(unset.a.tick(0.1), doctest::Contains("Variable not found: m"), error);
    }

    TEST_CASE("only a node's lone pre-condition of one comparison is tested inline") {
        const auto inline_tested = [](const std::string& attributes) {
            runner r(load_btcpp("<Act results=\"s\" " + attributes + "/>"));
            return (r.a.tree().layout().hooks[0] & detail::inline_condition_hook) != 0;
        };
        CHECK(inline_tested(R"(_skipIf="n > 1")"));
        CHECK_FALSE(inline_tested(R"(_skipIf="n > 1" _failureIf="n < 0")"));
        CHECK_FALSE(inline_tested(R"(_skipIf="n > 1" _onSuccess="n := 2")"));
        CHECK_FALSE(inline_tested(R"(_while="n > 1")"));
        CHECK_FALSE(inline_tested(R"(_skipIf="n > 1 && go")"));
        CHECK_FALSE(inline_tested(R"(_skipIf="n > 1.5")"));
    }

    TEST_CASE("_while false skips an idle node, and halts a running one then skips it") {
        runner r(load_btcpp(R"(<Sequence>
  <Act results="r" _while="go" _onHalted="n := n + 10"/>
  <Act results="s"/>
</Sequence>)"));
        CHECK(r.tick().root == "running");
        r.a.blackboard().set("go", false);
        const ticked halted = r.tick();
        // BehaviorTree.CPP: WHILE_TRUE false on a RUNNING node -> haltNode() (halt, then the
        // _onHalted script), SKIPPED; the sequence moves on.
        CHECK(halted.root == "success");
        CHECK(halted.events == events{"halt #2", "exit skipped #2", "enter #3", "exit success #3",
                                      "exit success #1"});
        CHECK(r.a.last_status(1) == status::skipped);  // halted, then skipped
        CHECK(r.n() == 10);
        CHECK(r.log.violations == 0);
        CHECK(r.tick().root == "success");  // idle and _while false: skipped without a halt
        CHECK(r.n() == 10);
    }

    TEST_CASE("post-conditions: _onSuccess or _onFailure, then _post; none while running") {
        runner r(load_btcpp(
            R"(<Act results="rsf" _onSuccess="n := n + 1" _onFailure="n := n + 100" _post="n := n * 2"/>)"));
        CHECK(r.tick().root == "running");
        CHECK(r.n() == 0);
        CHECK(r.tick().root == "success");
        CHECK(r.n() == 2);  // (0 + 1) * 2
        CHECK(r.tick().root == "failure");
        CHECK(r.n() == 204);  // (2 + 100) * 2
    }

    TEST_CASE("a result a pre-condition gives runs the post-conditions too; skipped runs none") {
        // BehaviorTree.CPP runs checkPostConditions for any completed status, whether it came
        // from tick() or from a pre-condition.
        runner r(load_btcpp(
            R"(<Act results="s" _failureIf="n == 0" _skipIf="n == 5" _onFailure="n := 5" _post="n := n + 1"/>)"));
        CHECK(r.tick().root == "failure");
        CHECK(r.n() == 6);
        r.a.blackboard().set("n", 5);
        CHECK(r.tick().root == "skipped");
        CHECK(r.n() == 5);
    }

    TEST_CASE("_onHalted runs when a parent halts the node, and when the agent is reset") {
        runner r(load_btcpp(R"(<ReactiveSequence>
  <ScriptCondition code="go"/>
  <Act results="r" _onHalted="n := n + 1"/>
</ReactiveSequence>)"));
        CHECK(r.tick().root == "running");
        r.a.blackboard().set("go", false);
        CHECK(r.tick().root == "failure");
        CHECK(r.n() == 1);
        r.a.blackboard().set("go", true);
        CHECK(r.tick().root == "running");
        r.a.reset();
        CHECK(r.n() == 2);  // the reset halted it; the blackboard keeps its values
    }

    TEST_CASE("an _onHalted that fails does not stop the halt: every running node is halted") {
        runner r(load_btcpp(R"(<Sequence _onHalted="n := n + 1">
  <Act results="r" _onHalted="n = n / 0"/>
</Sequence>)"));
        CHECK(r.tick().root == "running");
        CHECK_THROWS_WITH_AS(r.a.reset(), doctest::Contains("node 2 ('Act'), _onHalted"), error);
        CHECK(r.n() == 1);  // the parent's _onHalted ran after its child's failed
        CHECK(r.a.last_status(0) == status::idle);
        CHECK(r.a.last_status(1) == status::idle);
        CHECK(r.a.time() == 0);  // the reset completed
        CHECK(r.tick().root == "running");
        CHECK(r.log.enters == 2);  // entered afresh
    }

    TEST_CASE("a condition that fails at run time names its node and condition") {
        runner r(load_btcpp(R"(<Sequence><Act results="s" _post="n = n / 0"/></Sequence>)"));
        try {
            r.tick();
            FAIL("expected a script error");
        } catch (const error& e) {
            CHECK(e.code() == error_code::script);
            CHECK(std::string(e.what()).find("node 2 ('Act'), _post: ") == 0);
        }
        // The node finished before its post-condition failed: a reset halts nothing.
        r.a.reset();
        CHECK(r.log.violations == 0);
    }

    TEST_CASE("nodes without conditions are marked as such; print shows the conditions") {
        const auto t = load_btcpp(
            R"(<Sequence><Act results="s" _skipIf="n &gt; 2"/><Act results="s"/></Sequence>)");
        CHECK(t->condition(0, 2) == nullptr);
        REQUIRE(t->condition(1, 2) != nullptr);
        CHECK(t->condition(1, 2)->text() == "n > 2");
        CHECK(t->condition(2, 2) == nullptr);
        CHECK(to_text(*t) ==
              "Sequence #1\n  Act #2 results=\"s\" _skipIf=\"n > 2\"\n  Act #3 results=\"s\"\n");
        CHECK(to_canopy_text(*t) == "Sequence #1\n  Act #2 _skipIf=\"n > 2\"\n  Act #3\n");
    }

    TEST_CASE("conditions survive writing in every format that has them; behavior3 refuses") {
        const auto t = load_btcpp(R"(<Sequence _while="go">
  <Act results="s" _skipIf="n &gt; 2" _onSuccess="n += 1"/>
</Sequence>)");
        const std::string printed = to_canopy_text(*t);
        for (file_format f :
             {file_format::flat_json, file_format::flat_xml, file_format::btcpp_xml}) {
            CAPTURE(f);
            const std::string text = write_text(*t, f);
            const load_result back = try_load_text(text, f, conditions_registry(), "back");
            for (const diagnostic& d : back.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(back);
            CHECK(to_canopy_text(*back.tree) == printed);
        }
        const write_result b3 = info(file_format::behavior3).write([&] {
            tree_document doc;
            doc.trees.push_back(to_records(*t));
            return doc;
        }());
        int refused = 0;
        for (const diagnostic& d : b3.problems) {
            if (d.message.find("script condition") != std::string::npos) ++refused;
        }
        CHECK(refused == 3);
    }

    TEST_CASE("flat JSON gives conditions as parameters of the record") {
        const load_result r =
            try_load_text(json_tree({
                              record(1, 0, "Sequence"),
                              record(2, 1, "Act", R"({"results": "s", "_skipIf": "true"})"),
                              record(3, 1, "Act", R"({"results": "f", "_onFailure": "n := 7"})"),
                          }),
                          file_format::flat_json, conditions_registry(), "t.json");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        script_log log;
        agent a(r.tree, &log);
        CHECK(a.tick(0.1) == status::failure);
        CHECK(a.blackboard().get<std::int64_t>("n") == 7);
        CHECK(log.enters == 1);
    }
}

}  // namespace
}  // namespace canopy::testing

namespace canopy::testing {
namespace {

TEST_SUITE("conditions") {
    TEST_CASE("lenient loading leaves conditions to the node, not to its type's parameters") {
        // Found by the load harnesses: a registered type used with a condition was learned as
        // a foreign type taking it, and the loaded tree wrote the condition twice.
        load_options lenient;
        lenient.lenient = true;
        const load_result r =
            try_load_text(R"(<?xml version="1.0" encoding="UTF-8"?>
<tree name="T0">
    <node id="1" parentId="0" type="AlwaysSuccess">
        <params _onSuccess="fuzz_c := 3"/>
    </node>
</tree>)",
                          file_format::flat_xml, conditions_registry(), "t.xml", lenient);
        REQUIRE(r.tree != nullptr);
        CHECK(r.tree->object(0) != nullptr);  // the built-in, not a learned type
        const record_set written = to_records(*r.tree);
        std::string names;
        for (const auto* p = written.params_begin(0); p != written.params_end(0); ++p)
            names += p->name + ";";
        CHECK(names == "_onSuccess;");
    }
}

}  // namespace
}  // namespace canopy::testing
