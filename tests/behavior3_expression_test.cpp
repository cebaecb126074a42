// behavior3's expressions against behavior3-ts's own evaluator (src/behavior3/evaluator.ts
// there): each expression's result as that evaluator gives it, with the variables below, was
// traced by running the evaluator itself (its ExpressionEvaluator, dryRun then evaluate) on
// the same values: "refused" when it cannot be built or fails the dry run (a load error
// here), "throws" when evaluate() throws (an interrupted tick), else the value as
// JSON.stringify writes it and its JavaScript type.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "canopy/run/script_board.hpp"
#include "test_support.hpp"

using namespace canopy;

namespace {

blackboard_key variable(std::string name, const std::string& json) {
    blackboard_key key{std::move(name), param_type::custom, json, false};
    key.custom = dynamic_value_type();
    key.initial_object = key.custom->from_text(json);
    return key;
}

struct expression_variables {
    script_board scope;

    expression_variables() {
        scope.add_key(variable("x", "3"))
            .add_key(variable("y", "5"))
            .add_key(variable("zero", "0"))
            .add_key(variable("i", "4"))
            .add_key(variable("flag", "true"))
            .add_key(variable("s", "\"abc\""))
            .add_key(variable("RED", "7"))
            .add_key(variable("hp_2", "40"))
            .add_key(variable("x_name", "\"x\""))
            .add_key(variable("list", R"([4,{"hp":9,"tags":[1,2]},"12",null])"))
            .add_key(variable("unit", R"({"hp":30,"pos":{"x":2.5},"name":"orc","0":8})"));
        blackboard_key none{"none", param_type::custom, std::nullopt, false};
        none.custom = dynamic_value_type();
        none.starts_unset = true;  // undefined: never written
        scope.add_key(std::move(none));
        (void)scope.board();
    }

    // What the expression gives, written as the trace writes behavior3-ts's results.
    std::string result(const std::string& text) {
        auto compiled = testing::compile_script(text, scope, script_dialect::behavior3);
        if (std::holds_alternative<script_problem>(compiled)) return "refused";
        const auto& code = std::get<std::shared_ptr<const script>>(compiled);
        std::optional<dynamic_value> value;
        try {
            value = code->value(scope.board());
        } catch (const error& e) {
            CHECK(e.code() == error_code::script);
            return "throws";
        }
        if (!value) return "undefined";
        std::string kind = "object";
        if (value->is_number()) kind = "number";
        if (value->is_string()) kind = "string";
        if (value->type() == dynamic_value::kind::boolean) kind = "boolean";
        return value->to_json() + " (" + kind + ")";
    }
};

}  // namespace

TEST_SUITE("behavior3 expressions") {
    TEST_CASE_FIXTURE(expression_variables,
                      "every expression gives what behavior3-ts's evaluator gives") {
        const std::pair<const char*, const char*> traced[] = {
            {"1 + 2 * 3", "7 (number)"},
            {"(1 + 2) * 3", "9 (number)"},
            {"2 - 3 - 4", "-5 (number)"},
            {"7 / 2", "3.5 (number)"},
            {"-7 % 3", "-1 (number)"},
            {"1 / 0", "null (number)"},
            {"x * y - i", "11 (number)"},
            {"2.7 | 0", "2 (number)"},
            {"-1 >>> 28", "15 (number)"},
            {"1 << 3", "8 (number)"},
            {"x >> 1", "1 (number)"},
            {"-x", "-3 (number)"},
            {"- -x", "refused"},
            {"!!flag", "refused"},
            {"!x", "false (boolean)"},
            {"-s", "null (number)"},
            {"+s", "\"abc\" (string)"},
            {"x > 2", "true (boolean)"},
            {"3 > 2 > 1", "false (boolean)"},
            {"x >= 3 && y <= 5", "true (boolean)"},
            {"x == 3", "true (boolean)"},
            {"1 == true", "false (boolean)"},
            {"s == 'abc'", "true (boolean)"},
            {"s == \"abc\"", "true (boolean)"},
            {"'abc' == s", "true (boolean)"},
            {"s != 'x'", "true (boolean)"},
            {"unit == unit", "true (boolean)"},
            {"list == unit", "false (boolean)"},
            {"s < 3", "throws"},
            {"s + 'd'", "throws"},
            {"flag && x", "throws"},
            {"zero || 7", "7 (number)"},
            {"0 && s", "0 (number)"},
            {"x && s", "throws"},
            {"x > 5 ? 10 : 20", "10 (number)"},
            {"x > 1 ? 10 : 20", "10 (number)"},
            {"zero ? 1 : y", "1 (number)"},
            {"x", "\"x\" (string)"},
            {"'lit'", "\"'lit'\" (string)"},
            {"RED", "\"RED\" (string)"},
            {"hp_2 + 1", "41 (number)"},
            {"unit.hp * 2", "60 (number)"},
            {"unit.pos.x", "throws"},
            {"unit.name", "throws"},
            {"list[0] + 1", "5 (number)"},
            {"list[1].hp", "9 (number)"},
            {"list[1].tags[1]", "throws"},
            {"list[x - 2]", "refused"},
            {"list[2]", "throws"},
            {"list[3]", "null (object)"},
            {"unit.missing", "throws"},
            {"none > 1", "throws"},
            {"nothing > 1", "throws"},
            {" x", "refused"},
            {"x =", "refused"},
            {"x ^ 1", "refused"},
            {"~x", "refused"},
            {"a b", "refused"},
            {"(x", "refused"},
            {"x)", "refused"},
            {"x +", "refused"},
            {"unit.0", "refused"},
            {"true + 1", "2 (number)"},
            {"null", "\"null\" (string)"},
            {"s.length", "throws"},
            {"list.length", "4 (number)"},
            {"x_name", "\"x_name\" (string)"},
            {"unit['hp']", "throws"},
            {"'a' 'b'", "refused"},
            {"'unclosed", "refused"},
            {"x <= 3 || s", "true (boolean)"},
            {"!s", "false (boolean)"},
            {"!unit", "false (boolean)"},
            {"flag == true", "true (boolean)"},
            {"-flag", "-1 (number)"},
            {"x % 0", "null (number)"},
            {"zero / zero == zero / zero", "false (boolean)"},
        };
        for (const auto& [text, expected] : traced) {
            const std::string expression(
                text);  // a copy: doctest's lambda cannot capture a binding
            CAPTURE(expression);
            CHECK(result(text) == std::string(expected));
        }
    }

    TEST_CASE_FIXTURE(expression_variables,
                      "a problem at load names the offset behavior3-ts's reading stops at") {
        auto offset = [&](const char* text) {
            auto compiled = testing::compile_script(text, scope, script_dialect::behavior3);
            REQUIRE(std::holds_alternative<script_problem>(compiled));
            return std::get<script_problem>(compiled).offset;
        };
        CHECK(offset(" x") == 0);
        CHECK(offset("x =") == 2);
        CHECK(offset("x ^ 1") == 2);
        CHECK(offset("'open") == 0);
        CHECK(offset("x)") == 1);
    }

    TEST_CASE_FIXTURE(expression_variables, "Check tests JavaScript's truthiness of the value") {
        auto test = [&](const char* text) {
            return testing::compiled_script(text, scope, script_dialect::behavior3)
                ->test(scope.board());
        };
        CHECK(test("x"));  // the name itself, a non-empty string
        CHECK(test("list[3] == list[3]"));
        CHECK_FALSE(test("zero || zero"));
        CHECK_FALSE(test("x > 5 && y"));
        CHECK(test("s == 'abc' && x"));
    }
    TEST_CASE("an expression over number keys gives what it gives over json variables") {
        // Over number keys, an expression of comparisons and arithmetic runs as typed
        // instructions (behavior3_expression::typed_form); over json variables, as
        // behavior3-ts's evaluator, traced above. Both must agree on every value, NaN and the
        // infinities included.
        const char* const expressions[] = {"a > 3 && b != 2",
                                           "a + b * 2 > k",
                                           "-a < b",
                                           "!(a > b) || a == b",
                                           "a * b - 1",
                                           "(a > 1) == (b > 1)",
                                           "k >= 3 && k < 10",
                                           "a - b",
                                           "a + 0.5 > 1.25",
                                           "a == 3 || b == 2",
                                           "a + k",
                                           "a",  // a name alone: its text, not its number
                                           "k",
                                           "true && a < 1000",
                                           "a / b",
                                           "a / 0 > b",
                                           "-a / (b - b) < 1"};
        const double numbers[] = {
            3, 0, -0.0, 2.5, std::nan(""), 1e300, -7, std::numeric_limits<double>::infinity()};
        script_board typed;
        typed.add_key("a", param_type::number).add_key("b", param_type::number);
        typed.add_key("k", param_type::integer);
        script_board json;
        json.add_key(variable("a", "0")).add_key(variable("b", "0")).add_key(variable("k", "0"));
        auto shown = [](const std::optional<dynamic_value>& v) -> std::string {
            if (!v) return "undefined";
            if (v->is_number() && std::isnan(v->number())) return "NaN";
            return std::string(v->type() == dynamic_value::kind::boolean ? "boolean " : "number ") +
                   v->to_json();
        };
        for (const std::string text : expressions) {
            CAPTURE(text);
            auto over_numbers = testing::compile_script(text, typed, script_dialect::behavior3);
            std::string problem;
            if (const auto* p = std::get_if<script_problem>(&over_numbers)) problem = p->message;
            CAPTURE(problem);
            auto over_json = testing::compile_script(text, json, script_dialect::behavior3);
            REQUIRE(std::holds_alternative<std::shared_ptr<const script>>(over_numbers));
            REQUIRE(std::holds_alternative<std::shared_ptr<const script>>(over_json));
            const auto& fast = *std::get<std::shared_ptr<const script>>(over_numbers);
            const auto& walked = *std::get<std::shared_ptr<const script>>(over_json);
            for (const double a : numbers) {
                for (const double b : numbers) {
                    for (const std::int64_t k : {std::int64_t{4}, std::int64_t{-1}}) {
                        CAPTURE(a);
                        CAPTURE(b);
                        CAPTURE(k);
                        blackboard t = typed.board();
                        t.set(t.slot("a"), a);
                        t.set(t.slot("b"), b);
                        t.set(t.slot("k"), k);
                        blackboard j = json.board();
                        j.set(j.slot("a"), dynamic_value(a));
                        j.set(j.slot("b"), dynamic_value(b));
                        j.set(j.slot("k"), dynamic_value(static_cast<double>(k)));
                        CHECK(shown(fast.value(t)) == shown(walked.value(j)));
                        CHECK(fast.test(t) == walked.test(j));
                    }
                }
            }
        }
    }
}
