// behavior3's expressions, the script compiler's second dialect, against behavior3-ts's
// evaluator (src/behavior3/evaluator.ts there): its tokens, its operators and their
// precedence (its _makeToken), and what each operator computes (its evaluate(), which is
// JavaScript's operator on the operands). Cited per case.
#include <cmath>
#include <string>

#include "canopy/run/script_board.hpp"
#include "test_support.hpp"

using namespace canopy;

namespace {

blackboard_key json_key(std::string name, const std::string& text) {
    blackboard_key key{std::move(name), param_type::custom, text, false};
    key.custom = dynamic_value_type();
    key.initial_object = key.custom->from_text(text);
    return key;
}

struct fixture {
    script_board scope;

    fixture() {
        scope.add_key("x", param_type::number, 3.0)
            .add_key("y", param_type::number, 5.0)
            .add_key("zero", param_type::number, 0.0)
            .add_key("i", param_type::integer, std::int64_t{4})
            .add_key("flag", param_type::boolean, true)
            .add_key("s", param_type::string, std::string("abc"))
            .add_key("RED", param_type::number, 7.0)
            .add_key("hp_2", param_type::number, 40.0)
            .add_key(json_key("list", R"([4,{"hp":9,"tags":[1,2]},"12",null])"))
            .add_key(json_key("unit", R"({"hp":30,"pos":{"x":2.5},"name":"orc","0":8})"))
            .add_enum("RED", 1);
        (void)scope.board();
    }

    std::shared_ptr<const script> make(const std::string& text) {
        return testing::compiled_script(text, scope, script_dialect::behavior3);
    }
    script_problem problem(const std::string& text) {
        auto compiled = testing::compile_script(text, scope, script_dialect::behavior3);
        if (auto* p = std::get_if<script_problem>(&compiled)) return *p;
        FAIL("'" << text << "' has no problem");
        return {};
    }
    double number(const std::string& text) { return make(text)->number(scope.board()); }
    bool test(const std::string& text) { return make(text)->test(scope.board()); }
    param_type type(const std::string& text) { return make(text)->result_type(); }
};

}  // namespace

TEST_SUITE("behavior3 expressions") {
    TEST_CASE_FIXTURE(fixture, "arithmetic is JavaScript's, on doubles") {
        CHECK(number("1 + 2 * 3") == 7);
        CHECK(number("(1 + 2) * 3") == 9);
        CHECK(number("2 - 3 - 4") == -5);  // left to right
        CHECK(number("8 / 2 / 2") == 2);
        CHECK(number("7 / 2") == 3.5);
        CHECK(number("i / 8") == 0.5);  // an integer key is a JavaScript number too
        CHECK(number("i * 3") == 12);
        CHECK(type("i * 3") == param_type::number);
        CHECK(number("7 % 3") == 1);
        CHECK(number("-7 % 3") == -1);  // the dividend's sign, as JavaScript's %
        CHECK(number("7.5 % 2") == 1.5);
        CHECK(std::isnan(number("x % 0")));
        CHECK(number("x * y + 1.25") == 16.25);
        CHECK(std::isinf(number("1 / zero")));
    }

    TEST_CASE_FIXTURE(fixture, "unary minus, plus and not, repeated as the evaluator allows") {
        // _makeToken: a '-' or '+' first or after an operator is NEGATION / POSITIVE.
        CHECK(number("-x") == -3);
        CHECK(number("- -x") == 3);
        CHECK(number("+x") == 3);
        CHECK(number("-(x + 1)") == -4);
        CHECK(number("2 * -x") == -6);
        CHECK(number("-true") == -1);  // JavaScript: -true is -1
        CHECK(test("!zero"));
        CHECK_FALSE(test("!x"));
        CHECK(test("!!flag"));
        CHECK(type("!x") == param_type::boolean);
    }

    TEST_CASE_FIXTURE(fixture,
                      "comparisons give booleans; == and != are JavaScript's === and !==") {
        CHECK(test("x > 2"));
        CHECK_FALSE(test("x > 3"));
        CHECK(test("x >= 3"));
        CHECK(test("x < 4"));
        CHECK(test("x <= 3"));
        CHECK(test("x == 3"));
        CHECK_FALSE(test("x != 3"));
        CHECK(test("i == 4"));
        CHECK(test("i > 3.5"));  // an integer key against a real that is not whole
        CHECK_FALSE(test("i == 4.5"));
        CHECK(test("i != 4.5"));
        CHECK(test("-5 < i"));
        CHECK(test("flag == true"));
        // Exact: BehaviorTree.CPP's dialect allows float's epsilon, JavaScript does not.
        CHECK_FALSE(test("0.1 + 0.2 == 0.3"));
        CHECK(test("0.1 + 0.2 != 0.3"));
        // A number is never === a boolean.
        CHECK_FALSE(test("1 == true"));
        CHECK(test("1 != true"));
        CHECK_FALSE(test("x == flag"));
        CHECK(test("s == s"));
        // No chains: (3 > 2) > 1 is true > 1, which is 1 > 1.
        CHECK_FALSE(test("3 > 2 > 1"));
        CHECK(test("1 < 2 < 3"));
        CHECK(type("x > 2") == param_type::boolean);
    }

    TEST_CASE_FIXTURE(fixture, "&& and || give one of their operands, as in JavaScript") {
        CHECK(number("x && 5") == 5);
        CHECK(number("zero && 5") == 0);
        CHECK(number("zero || 7") == 7);
        CHECK(number("x || 7") == 3);
        CHECK(test("x > 1 && x < 5"));
        CHECK(type("x > 1 && x < 5") == param_type::boolean);
        CHECK_FALSE(test("x > 4 || x < 1"));
        // && binds tighter than || (precedence 5 and 4); BehaviorTree.CPP's dialect has one
        // level, where this is (true || false) && false.
        CHECK(test("true || false && false"));
        CHECK(number("zero || x && y") == 5);
    }

    TEST_CASE_FIXTURE(fixture, "bitwise operators and shifts work on 32-bit integers") {
        CHECK(number("5 & 3") == 1);
        CHECK(number("5 | 3") == 7);
        CHECK(number("1 << 4") == 16);
        CHECK(number("-16 >> 2") == -4);
        CHECK(number("-1 >>> 28") == 15);
        CHECK(number("2.7 | 0") == 2);
        CHECK(number("4294967297 | 0") == 1);  // ToInt32 wraps modulo 2^32
        CHECK(number("1 << 31") == -2147483648.0);
        CHECK(number("1 << 33") == 2);  // the count modulo 32
        // Precedence: shifts below + (11 < 12), & and | below == (8, 6 < 9).
        CHECK(number("1 + 2 << 1") == 6);
        CHECK(number("5 & 3 == 1") == 0);  // 5 & (3 == 1): 5 & false
        CHECK(number("1 | 2 & 3") == 3);
    }

    TEST_CASE_FIXTURE(fixture, "?: picks by its condition and nests to the right") {
        CHECK(number("x > 2 ? 10 : 20") == 10);
        CHECK(number("x > 5 ? 10 : 20") == 20);
        CHECK(number("zero ? 1 : x > 2 ? 2 : 3") == 2);
        CHECK(number("(x > 2 ? x : y) * 2") == 6);
    }

    TEST_CASE_FIXTURE(fixture, "names are variables: no enums, words of ASCII letters, digits, _") {
        CHECK(number("RED") == 7);  // the key, though an enum has the name
        CHECK(number("hp_2 / 4") == 10);
        CHECK(test("true"));
        CHECK_FALSE(test("false"));
        CHECK_FALSE(test("0 / 0"));  // NaN is falsy
    }

    TEST_CASE_FIXTURE(fixture, "'.' and '[]' read fields and elements of json variables") {
        // evaluator.ts's DOT: `obj[b]` of the variable's object; JavaScript's `value[key]`.
        CHECK(number("unit.hp") == 30);
        CHECK(number("unit.pos.x * 2") == 5);
        CHECK(number("list[0] + list[1].hp") == 13);
        CHECK(number("list[x - 2].tags[1]") == 2);
        CHECK(number("list.0") == 4);        // a whole number after '.' is an index
        CHECK(number("unit[0]") == 8);       // an object's field named by a number's text
        CHECK(number("list[2] + 1") == 13);  // "12" read as JavaScript's Number("12")
        CHECK(number("list.length") == 4);
        CHECK(number("list[1].tags.length") == 2);
        CHECK(number("list[3]") == 0);           // null is 0
        CHECK(std::isnan(number("unit.mp")));    // undefined is NaN
        CHECK(std::isnan(number("list[9]")));    // no such element
        CHECK(std::isnan(number("unit.name")));  // "orc" is not a number
        CHECK_FALSE(test("unit.missing > 0 || unit.missing <= 0"));
        CHECK(test("unit.hp > 20 && list[0] == 4"));
        CHECK(std::isnan(number("list")));  // Number([4, {...}, "12", null]) is NaN
        CHECK(type("unit.hp") == param_type::number);
        // Only a variable has fields: a number key does not.
        script_problem p = problem("x.y > 1");
        CHECK(p.offset == 0);
        CHECK(p.message.find("'x' is a number variable") != std::string::npos);
    }

    TEST_CASE_FIXTURE(fixture, "refuses at load what the evaluator cannot read, at its offset") {
        struct bad {
            const char* text;
            std::size_t offset;
            const char* message;
        };
        for (const bad& b : {
                 bad{"", 0, "empty"},
                 bad{"x +", 3, "expected an operand"},
                 bad{"x = 1", 2, "'='"},
                 bad{"x := 1", 3, "'='"},
                 bad{"x; y", 1, "unexpected character ';'"},
                 bad{"'a' == s", 0, "unexpected character '''"},
                 bad{"~x", 0, "unexpected character '~'"},
                 bad{"x ^ 1", 2, "'^'"},
                 bad{"3x", 1, "suffix"},
                 bad{"1.", 1, "suffix"},
                 bad{"(x + 1", 6, "expected ')'"},
                 bad{"x ? 1", 5, "expected ':'"},
                 bad{"x y", 2, "expected an operator"},
                 bad{"pos. > 1", 5, "expected a field name"},
                 bad{"list[0 > 1", 10, "expected ']'"},
                 bad{"(1).x", 3, "is not one"},
                 bad{"@x > 1", 0, "unexpected character '@'"},
             }) {
            CAPTURE(b.text);
            const script_problem p = problem(b.text);
            CHECK(p.offset == b.offset);
            CHECK(p.message.find(b.message) != std::string::npos);
        }
        // Binding: names and types.
        script_problem p = problem("x + missing");
        CHECK(p.offset == 4);
        CHECK(p.message.find("unknown name 'missing'") != std::string::npos);
        p = problem("x + s");
        CHECK(p.offset == 2);
        CHECK(p.message.find("needs numbers") != std::string::npos);
        p = problem("s < 1");
        CHECK(p.offset == 2);
        // Nesting is bounded, not a crash.
        p = problem(std::string(300, '(') + "1" + std::string(300, ')'));
        CHECK(p.message.find("nested") != std::string::npos);
    }

    TEST_CASE_FIXTURE(fixture, "a long sum is a loop, not recursion") {
        std::string text = "1";
        for (int k = 0; k < 100000; ++k) text += " + 1";
        CHECK(number(text) == 100001);
    }

    TEST_CASE_FIXTURE(fixture, "the BehaviorTree.CPP dialect is unchanged by the same text") {
        // The same text reads otherwise in each dialect: == is tolerant there, exact here.
        auto compiled = testing::compile_script("0.1 + 0.2 == 0.3", scope);
        REQUIRE(std::holds_alternative<std::shared_ptr<const script>>(compiled));
        CHECK(std::get<0>(compiled)->test(scope.board()));
        CHECK_FALSE(test("0.1 + 0.2 == 0.3"));
    }
}
