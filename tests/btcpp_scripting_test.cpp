// canopy::btcpp's scripting API (behaviortree_cpp/scripting/operators.hpp): BehaviorTree.CPP
// 4.10's ParseScript, ParseScriptAndExecute, ValidateScript and Scripting::parseStatements,
// run on Canopy's script engine over a BT::Blackboard's entries and an enums table.

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "behaviortree_cpp/blackboard.h"
#include "behaviortree_cpp/scripting/operators.hpp"
#include "test_support.hpp"

namespace {

using canopy::testing::contains;

BT::Ast::Environment environment() {
    return {BT::Blackboard::create(), nullptr};
}

// The value of a script that must run without error.
BT::Any run_script(BT::Ast::Environment& env, const std::string& script) {
    auto result = BT::ParseScriptAndExecute(env, script);
    const std::string error = result.has_value() ? std::string() : result.error();
    REQUIRE_MESSAGE(result.has_value(), script << ": " << error);
    return result.value();
}

// The message of a script that must fail, to parse or to run.
std::string failure_message(BT::Ast::Environment& env, const std::string& script) {
    auto result = BT::ParseScriptAndExecute(env, script);
    REQUIRE_MESSAGE(!result.has_value(), script << " did not fail");
    return result.error();
}

}  // namespace

TEST_SUITE("btcpp scripting") {
    TEST_CASE("a script's value is its last statement's, as BehaviorTree.CPP's Any holds it") {
        auto env = environment();
        SUBCASE("an integer literal is an integer") {
            const BT::Any value = run_script(env, "628");
            CHECK(value.isIntegral());
            CHECK(value.cast<int>() == 628);
            CHECK(run_script(env, "0x100").cast<int>() == 256);
        }
        SUBCASE("arithmetic, `-`, enums and bitwise operators give reals") {
            CHECK(run_script(env, "-628").kind() == BT::Any::Kind::Real);
            CHECK(run_script(env, "-628").cast<int>() == -628);
            CHECK(run_script(env, "3.14e-2").cast<double>() == 0.0314);
            CHECK(run_script(env, "2 + 3 * 4 - 1").cast<double>() == 13.0);
            CHECK(run_script(env, "12 / 3 / 2").cast<double>() == 2.0);
            CHECK(run_script(env, "6 | 3 & 5").cast<double>() == 7.0);
            CHECK(run_script(env, "~0").cast<std::int64_t>() == -1);
        }
        SUBCASE("booleans and comparisons are 1 or 0") {
            CHECK(run_script(env, "true").cast<int>() == 1);
            CHECK(run_script(env, "!true").cast<int>() == 0);
            CHECK(run_script(env, "1 < 2 < 3").cast<int>() == 1);
            CHECK(run_script(env, "1 < 2 > 3").cast<int>() == 0);
            CHECK(run_script(env, "false || true && true").cast<int>() == 1);
        }
        SUBCASE("text is text") {
            const BT::Any value = run_script(env, "'hello world '");
            CHECK(value.isString());
            CHECK(value.cast<std::string>() == "hello world ");
            CHECK(run_script(env, "3 > 2 ? 'yes' : 'no'").cast<std::string>() == "yes");
            CHECK(run_script(env, "'n=' .. 3").cast<std::string>() == "n=3");
        }
        SUBCASE("`..` of two numbers is empty, as there") {
            CHECK(run_script(env, "1 .. 2").empty());
        }
    }

    TEST_CASE("assignments write the blackboard: := makes an entry, = and += change it") {
        auto env = environment();
        CHECK(run_script(env, "x := 3; y := 5; x + y").cast<double>() == 8.0);
        CHECK(env.vars->getKeys().size() == 2);
        // An integer literal makes an integer entry, which += keeps an integer.
        CHECK(env.vars->getAnyCopy("x").isIntegral());
        CHECK(run_script(env, "x += 1").cast<double>() == 4.0);
        CHECK(env.vars->getAnyCopy("x").isIntegral());
        CHECK(env.vars->get<int>("x") == 4);
        CHECK(run_script(env, "x /= 2; x").cast<int>() == 2);
        CHECK(run_script(env, "s := 'a'; s += 'b'; s = s .. 'c'").cast<std::string>() == "abc");
        CHECK(env.vars->get<std::string>("s") == "abc");
        // `@` names the outermost blackboard's entry.
        auto child = BT::Blackboard::create(env.vars);
        BT::Ast::Environment inner{child, nullptr};
        run_script(inner, "@top := 7");
        CHECK(env.vars->get<int>("top") == 7);
    }

    TEST_CASE("an entry the program made keeps its type when a script assigns it") {
        auto env = environment();
        env.vars->set("ratio", 2.5);
        CHECK(run_script(env, "ratio * 2").cast<double>() == 5.0);
        env.vars->createEntry("small",
                              BT::PortInfo(BT::PortDirection::INOUT, typeid(std::uint8_t), {}));
        run_script(env, "small = 200");
        CHECK(env.vars->get<int>("small") == 200);
        CHECK(env.vars->getAnyCopy("small").isType<std::uint8_t>());
        CHECK(contains(failure_message(env, "small = 300"), "entry [small]"));
        CHECK(env.vars->get<int>("small") == 200);
        // Text into a number's entry is read as a number; other text is refused.
        run_script(env, "ratio = '1.5'");
        CHECK(env.vars->get<double>("ratio") == 1.5);
        CHECK_FALSE(BT::ParseScriptAndExecute(env, "ratio = 'abc'").has_value());
    }

    TEST_CASE("enums are reals and win over entries of the same name") {
        auto env = environment();
        env.enums = std::make_shared<BT::EnumsTable>();
        env.enums->insert({"RED", 1});
        env.enums->insert({"BLUE", 3});
        run_script(env, "a := RED; b := BLUE");
        CHECK(env.vars->get<int>("a") == 1);
        CHECK(run_script(env, "a != b").cast<int>() == 1);
        CHECK(run_script(env, "b == BLUE ? 'blue' : 'other'").cast<std::string>() == "blue");
        // The entry RED may be assigned; reading RED still gives the enum.
        run_script(env, "RED := 7");
        CHECK(env.vars->get<int>("RED") == 7);
        CHECK(run_script(env, "RED").cast<int>() == 1);
    }

    TEST_CASE("parseStatements gives one expression per statement, run in turn") {
        auto env = environment();
        const auto statements = BT::Scripting::parseStatements("a := 1;;; b := a + 1;; a + b");
        REQUIRE(statements.size() == 3);
        statements[0]->evaluate(env);
        CHECK(env.vars->get<int>("a") == 1);
        CHECK(env.vars->getEntry("b") == nullptr);
        statements[1]->evaluate(env);
        CHECK(statements[2]->evaluate(env).cast<double>() == 3.0);
        CHECK(BT::Scripting::parseStatements(" \n ").empty());
        CHECK_THROWS_AS(BT::Scripting::parseStatements("a = = 1"), BT::RuntimeError);

        auto function = BT::ParseScript("n := 2; n * 21");
        REQUIRE(function.has_value());
        CHECK(function.value()(env).cast<double>() == 42.0);
    }

    TEST_CASE("text that is not a script is an error that says where") {
        CHECK(BT::ValidateScript("a := 0; a != -1"));
        CHECK(BT::ValidateScript("a := 1;;; b := 2;;"));
        for (const char* bad : {"3foo", "65.", "0x", "3e+", "'hello", "(1 + 2", "; a := 1"})
            CHECK_FALSE_MESSAGE(BT::ValidateScript(bad), bad);
        auto empty = BT::ValidateScript(" \t\n");
        REQUIRE_FALSE(empty);
        CHECK(empty.error() == "Empty Script");
        auto located = BT::ValidateScript("a := 1;\nb := 'open");
        REQUIRE_FALSE(located);
        CHECK(contains(located.error(), "line 2, column 6"));
        CHECK_FALSE(BT::ParseScript("x +").has_value());
    }

    TEST_CASE("a run that fails says why, and what ran before the failure stays written") {
        auto env = environment();
        CHECK(contains(failure_message(env, "foo"), "Variable not found: foo"));
        CHECK(contains(failure_message(env, "missing = 1"), "[missing] doesn't exist"));
        CHECK(env.vars->getEntry("missing") == nullptr);
        CHECK(contains(failure_message(env, "s := 'a'; s - 1"), "Operation not permitted"));
        CHECK(contains(failure_message(env, "n := 5; n ^ 5.1"), "not an integer"));
        CHECK(contains(failure_message(env, "n = 'five'"), "string to number"));
        CHECK(env.vars->get<int>("n") == 5);

        env.vars->createEntry("empty", BT::PortInfo(BT::PortDirection::INOUT, typeid(int), {}));
        CHECK(contains(failure_message(env, "empty < 0"), "not initialized"));
        CHECK(contains(failure_message(env, "empty += 1"), "not initialized"));

        run_script(env, "kept := 0");
        CHECK_FALSE(BT::ParseScriptAndExecute(env, "kept := 1; nothing = 2").has_value());
        CHECK(env.vars->get<int>("kept") == 1);

        // A ScriptFunction and a statement throw, as BehaviorTree.CPP's do.
        auto function = BT::ParseScript("undefined_name + 1");
        REQUIRE(function.has_value());
        CHECK_THROWS_AS(function.value()(env), BT::RuntimeError);
        CHECK_THROWS_AS(BT::Scripting::parseStatements("x = 'msg'").front()->evaluate(env),
                        BT::RuntimeError);
    }

}  // TEST_SUITE
