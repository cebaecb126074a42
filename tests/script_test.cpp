// The script language against BehaviorTree.CPP 4's expectations: its tests/script_parser_test.cpp
// and the rules of its include/behaviortree_cpp/scripting/operators.hpp, cited per case.
#include <cmath>
#include <string>
#include <vector>

#include "canopy/run/script_board.hpp"
#include "test_support.hpp"

using namespace canopy;

namespace {

struct fixture {
    script_board scope;

    fixture() {
        scope.add_key("x", param_type::integer, std::int64_t{3})
            .add_key("y", param_type::integer, std::int64_t{5})
            .add_key("n", param_type::number, 2.5)
            .add_key("b", param_type::boolean)
            .add_key("s", param_type::string, std::string("abc"))
            .add_key("A", param_type::string)
            .add_key("B", param_type::string)
            .add_key("C", param_type::string)
            .add_key("v1", param_type::boolean)
            .add_key("v2", param_type::boolean)
            .add_key("par1", param_type::string)
            .add_key("par2", param_type::integer)
            .add_key("ri", param_type::integer)
            .add_key("rn", param_type::number)
            .add_key("rb", param_type::boolean)
            .add_key("rs", param_type::string)
            .add_key("@g", param_type::integer)
            .add_key("GREEN", param_type::integer, std::int64_t{99})
            .add_enum("RED", 1)
            .add_enum("BLUE", 3)
            .add_enum("GREEN", 5);
        (void)scope.board();
    }

    blackboard board() { return scope.board(); }

    std::shared_ptr<const script> make(const std::string& text) {
        return testing::compiled_script(text, scope);
    }

    // The problem of a script, at parse or compile; fails the test if there is none.
    script_problem problem(const std::string& text) {
        auto compiled = testing::compile_script(text, scope);
        if (auto* p = std::get_if<script_problem>(&compiled)) return *p;
        FAIL("'" << text << "' has no problem");
        return {};
    }
    bool parses(const std::string& text) {
        return std::holds_alternative<parsed_script>(parsed_script::parse(text));
    }

    void run(const std::string& text) { make(text)->run(board()); }
    bool test(const std::string& text) { return make(text)->test(board()); }
    std::int64_t integer(const std::string& expression) {
        run("ri = " + expression);
        return board().get<std::int64_t>("ri");
    }
    double number(const std::string& expression) {
        run("rn = " + expression);
        return board().get<double>("rn");
    }
    std::string text(const std::string& expression) {
        run("rs = " + expression);
        return std::string(board().get<std::string_view>("rs"));
    }
    std::optional<param_type> type(const std::string& expression) {
        auto parsed = parsed_script::parse("r := " + expression);
        REQUIRE(std::holds_alternative<parsed_script>(parsed));
        return std::get<parsed_script>(parsed).value_type(0, scope);
    }
    // The message of the canopy::error (code script) running a script throws.
    std::string run_error(const std::string& text) {
        const auto compiled = make(text);
        try {
            compiled->run(board());
        } catch (const error& e) {
            CHECK(e.code() == error_code::script);
            return e.what();
        }
        FAIL("'" << text << "' ran without error");
        return {};
    }
};

}  // namespace

TEST_SUITE("script") {
    TEST_CASE("parsing lists the assignments, what each creates, and where") {
        fixture f;
        auto parsed = parsed_script::parse("a := 1; @b = 'x';\n c += a");
        REQUIRE(std::holds_alternative<parsed_script>(parsed));
        const parsed_script& p = std::get<parsed_script>(parsed);
        CHECK(p.text() == "a := 1; @b = 'x';\n c += a");
        REQUIRE(p.assignments().size() == 3);
        CHECK(p.assignments()[0].name == "a");
        CHECK(p.assignments()[0].creates);
        CHECK(p.assignments()[0].offset == 0);
        CHECK(p.assignments()[1].name == "@b");
        CHECK_FALSE(p.assignments()[1].creates);
        CHECK(p.assignments()[1].offset == 8);
        CHECK(p.assignments()[2].name == "c");
        CHECK(p.assignments()[2].offset == 19);
        CHECK(p.assignments()[2].index == 2);
        CHECK(p.value_type(0, f.scope) == param_type::integer);
        CHECK(p.value_type(1, f.scope) == param_type::string);
        CHECK(p.value_type(2, f.scope) == std::nullopt);  // neither c nor a is known yet
        CHECK(p.value_type(3, f.scope) == std::nullopt);
    }

    TEST_CASE("parsing lists the names a script uses, once each, in text order") {
        // Keys and enums alike, `@` kept, UTF-8 letters in names, nothing inside strings.
        auto parsed =
            parsed_script::parse("a := größe + RED; @x == 'q r' .. b ? a : (b = 0x1F + 1.5e3)");
        REQUIRE(std::holds_alternative<parsed_script>(parsed));
        CHECK(std::get<parsed_script>(parsed).names() ==
              std::vector<std::string_view>{"a", "größe", "RED", "@x", "b"});
    }

    TEST_CASE("the value type of an assignment follows its expression") {
        fixture f;
        CHECK(f.type("3") == param_type::integer);
        CHECK(f.type("3.0") == param_type::number);
        CHECK(f.type("true") == param_type::boolean);
        CHECK(f.type("'t'") == param_type::string);
        CHECK(f.type("x + y") == param_type::integer);
        CHECK(f.type("x / y") == param_type::number);
        CHECK(f.type("x < y") == param_type::boolean);
        CHECK(f.type("x .. 'a'") == param_type::string);
        CHECK(f.type("RED") == param_type::integer);
        CHECK(f.type("x > 1 ? n : x") == param_type::number);
        CHECK(f.type("unknown + 1") == std::nullopt);
        CHECK(f.type("'a' - 1") == std::nullopt);  // compile() says what is wrong
    }

    TEST_CASE("literals: integers, hexadecimal, reals, strings and booleans") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, AnyTypes.
        fixture f;
        CHECK(f.integer("628") == 628);
        CHECK(f.integer("-628") == -628);
        CHECK(f.integer("0x100") == 256);
        CHECK(f.integer("0X100") == 256);
        CHECK(f.number("3.14") == 3.14);
        CHECK(f.number("-3.14") == -3.14);
        CHECK(f.number("3.14e2") == 314);
        CHECK(f.number("3.14e-2") == 0.0314);
        CHECK(f.number("3e2") == 300);
        CHECK(f.number("3e-2") == 0.03);
        CHECK(f.integer("+7") == 7);
        CHECK(f.text("'hello world '") == "hello world ");
        CHECK(f.text("\"double quoted\"") == "double quoted");
        CHECK(f.integer("true") == 1);  // BehaviorTree.CPP: true is the integer 1
        CHECK(f.integer("false") == 0);
        CHECK(f.integer("-9223372036854775808") == INT64_MIN);
        CHECK(f.integer("9223372036854775807") == INT64_MAX);
        CHECK(f.text("'true'") == "true");
    }

    TEST_CASE("a literal with a suffix or out of range is a problem at its place") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, AnyTypes_Failing.
        fixture f;
        CHECK(f.problem("ri = 0X100g").offset == 10);
        CHECK(f.problem("ri = 0X100.").offset == 10);
        CHECK(f.problem("ri = 3foo").offset == 6);
        CHECK(f.problem("ri = 65.").offset == 7);
        CHECK(f.problem("ri = 65.43foo").offset == 10);
        CHECK(f.problem("ri = 0x").offset == 7);
        CHECK(f.problem("ri = 9223372036854775808").offset == 5);
        CHECK(f.problem("rn = 1e999").offset == 5);
        CHECK(f.problem("rs = 'open").offset == 5);
        CHECK(f.problem("ri = 1 $ 2").offset == 7);
        CHECK(f.problem("ri = 1 $ 2").message == "unexpected character '$'");
        CHECK(f.problem("ri = 1.").offset == 6);
    }

    TEST_CASE(
        "arithmetic on integers stays integer but for division, as BehaviorTree.CPP's values") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: with x 3 and y 5.
        fixture f;
        CHECK(f.integer("x + y") == 8);
        CHECK(f.number("y / 2") == 2.5);
        CHECK(f.integer("y * 2") == 10);
        CHECK(f.integer("y - x") == 2);
        CHECK(f.integer("-x") == -3);
        CHECK(f.number("x + 0.5") == 3.5);
        CHECK(f.number("n * 2") == 5.0);
        CHECK(f.number("1 / 0") == HUGE_VAL);  // a real division: no error, as in BehaviorTree.CPP
        CHECK(f.integer("2 + 3 * 4") == 14);
        CHECK(f.integer("(2 + 3) * 4") == 20);
        CHECK(f.integer("10 - 2 - 3") == 5);  // left to right
        CHECK(f.number("8 / 2 / 2") == 2.0);
        CHECK(f.integer("true + 1") == 2);
        CHECK(f.integer("9223372036854775807 + 1") == INT64_MIN);  // wraps, documented
    }

    TEST_CASE("bitwise operators need integers") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: y & x, y | x, y ^ x; and
        // y ^ 5.1 throws.
        fixture f;
        CHECK(f.integer("y & x") == (5 & 3));
        CHECK(f.integer("y | x") == (5 | 3));
        CHECK(f.integer("y ^ x") == (5 ^ 3));
        CHECK(f.integer("y ^ 4.0") == (5 ^ 4));
        CHECK(f.integer("~5") == -6);
        CHECK(f.integer("~2.5") == -3);  // operators.hpp: ~ truncates a real
        CHECK(f.integer("1 | 2 & 3") == (1 | (2 & 3)));
        const script_problem p = f.problem("ri = y ^ 5.1");
        CHECK(p.offset == 9);
        CHECK(p.message.find("integers") != std::string::npos);
        CHECK(f.problem("ri = s & 1").offset == 7);
        CHECK(f.run_error("ri = n | 1").find("2.5") != std::string::npos);
    }

    TEST_CASE("bitwise operators bind looser than arithmetic and tighter than comparisons") {
        // BehaviorTree.CPP 4.10's script_parser.cpp: & binds at 14, | and ^ at 12, + - .. at
        // 16, comparisons at 10.
        fixture f;  // x is 3, y 5
        CHECK(f.integer("x & y + 1") == (3 & 6));
        CHECK(f.integer("x + y & 1") == (8 & 1));
        CHECK(f.integer("-x & 1") == (-3 & 1));
        CHECK(f.integer("!x + 1") == 1);  // (!x) + 1
        CHECK(f.integer("x | y ^ 1") == ((3 | 5) ^ 1));
        CHECK(f.integer("6 | 3 & 5") == 7);
        CHECK(f.test("x & 1 == 1"));  // (x & 1) == 1, unlike C
        CHECK(f.integer("-1 & 3") == 3);
    }

    TEST_CASE("strings concatenate with + between strings and with .. with anything") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: A+B+C; operators.hpp: concat.
        fixture f;
        f.run("A = 'hello'; B = ' '; C = 'world'");
        CHECK(f.text("A + B + C") == "hello world");
        CHECK(f.text("A .. B .. C") == "hello world");
        CHECK(f.text("'n=' .. 1") == "n=1");
        CHECK(f.text("1 .. '!'") == "1!");
        CHECK(f.text("'r=' .. 1.5") == "r=1.500000");  // std::to_string, as Any::cast<string>
        CHECK(f.text("'b=' .. true") == "b=1");
        CHECK(f.text("'sum=' .. (x + y)") == "sum=8");
        // `..` is a peer of `+`, grouping left: ('sum=' .. x) + y adds a number to a string.
        CHECK(f.problem("rs = 'sum=' .. x + y").message.find("'+'") != std::string::npos);
        // Whitespace in strings is kept.
        f.run("A = '   right'; B = ' center '; C = 'left    '");
        CHECK(f.text("A") == "   right");
        CHECK(f.text("B") == " center ");
        CHECK(f.text("C") == "left    ");
    }

    TEST_CASE("an operator a type cannot take is a problem at the operator") {
        fixture f;
        script_problem p = f.problem("ri = 'a' - 1");
        CHECK(p.offset == 9);
        CHECK(p.message.find("'-'") != std::string::npos);
        CHECK(f.problem("rs = 'a' + 1").offset == 9);
        CHECK(f.problem("rn = s * 2").offset == 7);
        CHECK(f.problem("rn = 1 / s").offset == 7);
        CHECK(f.problem("rs = 1 .. 2").offset == 7);
        CHECK(f.problem("rn = -'a'").offset == 5);
        CHECK(f.problem("rb = !s").offset == 5);
        CHECK(f.problem("rn = ~s").offset == 5);
        CHECK(f.problem("rb = s && true").offset == 7);
        CHECK(f.problem("rb = true || s").offset == 10);
    }

    TEST_CASE("comparisons of numbers, of strings, and of a string with a number") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: with x 3 and y 5.
        fixture f;
        CHECK(f.test("x < y"));
        CHECK(f.test("y > x"));
        CHECK(f.test("y != x"));
        CHECK_FALSE(f.test("y == x"));
        CHECK_FALSE(f.test("x > y"));
        CHECK(f.test("y >= 5"));
        CHECK(f.test("5 <= y"));
        CHECK(f.test("y == 5"));
        CHECK(f.test("x == 3"));
        CHECK(f.test("3 == x"));
        CHECK(f.test("4 > x"));
        CHECK(f.test("n > 2"));
        CHECK(f.test("n == 2.5"));
        CHECK(f.test("x == 3.0"));
        CHECK(f.test(" 'hello' == 'hello'"));
        CHECK(f.test(" 'hello' != 'world'"));
        CHECK(f.test(" 'hello' < 'world'"));
        CHECK_FALSE(f.test(" 'hello' > 'world'"));
        // "we expect string to be casted to number"
        f.run("par1 = '3'; par2 = 3");
        CHECK(f.test("par1 == par2"));
        CHECK(f.test("par1 == 3"));
        CHECK(f.test("'3' == par2"));
        CHECK(f.test("'true' == 1"));  // operators.hpp StringToDouble: "true" is 1
        CHECK(f.test("'BLUE' == 3"));  // ... and an enum name its value
        f.run("par1 = 'abc'");
        CHECK(f.run_error("rb = par1 == 3").find("'abc' is not a number") != std::string::npos);
        CHECK(f.problem("rb = 'abc' == 3").offset == 5);
    }

    TEST_CASE("a key compared with a constant, either way round, as any comparison") {
        fixture f;  // x is 3, n is 2.5
        const char* ops[] = {"==", "!=", "<", ">", "<=", ">="};
        auto expected = [](double l, const std::string& op, double r) {
            if (op == "==") return l == r;
            if (op == "!=") return l != r;
            if (op == "<") return l < r;
            if (op == ">") return l > r;
            if (op == "<=") return l <= r;
            return l >= r;
        };
        for (const std::string op : ops) {
            for (const char* constant : {"2", "3", "4", "2.5", "3.0", "RED"}) {
                const double c = std::string(constant) == "RED" ? 1.0 : std::stod(constant);
                for (const char* key : {"x", "n"}) {
                    const double k = std::string(key) == "x" ? 3.0 : 2.5;
                    CAPTURE(key);
                    CAPTURE(op);
                    CAPTURE(constant);
                    CHECK(f.test(std::string(key) + " " + op + " " + constant) ==
                          expected(k, op, c));
                    CHECK(f.test(std::string(constant) + " " + op + " " + key) ==
                          expected(c, op, k));
                    // The same through the general comparison.
                    CHECK(f.test(std::string(key) + " + 0 " + op + " " + constant) ==
                          expected(k, op, c));
                }
            }
        }
    }

    TEST_CASE("numbers compare equal within float's epsilon, as in BehaviorTree.CPP") {
        // operators.hpp IsSame: |a - b| <= numeric_limits<float>::epsilon().
        fixture f;
        CHECK(f.test("0.1 + 0.2 == 0.3"));
        CHECK(f.test("1.0 == 1.0000001"));
        CHECK_FALSE(f.test("1.0 == 1.000001"));
        CHECK_FALSE(f.test("1.0 != 1.0000001"));
        CHECK(f.test("n == 2.5000001"));
        CHECK(f.test("1.0 < 1.0000001"));  // < and > are exact
    }

    TEST_CASE("comparisons chain, each operand evaluated once, stopping at the first false") {
        // operators.hpp ExprComparison: a loop over the operands that returns false early.
        fixture f;
        CHECK(f.test("1 < 2 < 3"));
        CHECK(f.test("3 > 2 > 1"));
        CHECK_FALSE(f.test("1 < 3 < 2"));
        CHECK(f.test("x == 3 == 3.0"));
        CHECK(f.test("1 < x <= 3 != 4"));
        f.run("ri = 0");
        CHECK_FALSE(f.test("1 > 2 < (ri := 9)"));
        CHECK(f.integer("ri") == 0);  // the third operand was not evaluated
        CHECK(f.test("1 < 2 < (ri := 9)"));
        CHECK(f.integer("ri") == 9);
    }

    TEST_CASE("a condition of two comparisons tests as its value, through either path") {
        // test() answers `key OP c && key OP c` without the interpreter's loop; run() takes
        // the loop. Both must agree for every operator and value.
        fixture f;
        int checked = 0;
        for (const char* join : {"&&", "||"}) {
            for (const char* left : {"x > 3", "x == 3", "n < 2", "b", "true"}) {
                for (const char* right : {"y != 2", "y <= 5", "n >= 2.5", "v1", "false"}) {
                    const std::string condition = std::string(left) + " " + join + " " + right;
                    CAPTURE(condition);
                    for (const std::int64_t x : {2, 3, 4}) {
                        f.board().set("x", x);
                        f.board().set("y", x * 2 - 3);
                        f.board().set("n", static_cast<double>(x) - 0.5);
                        f.board().set("b", x != 3);
                        f.board().set("v1", x == 2);
                        f.run("rb = " + condition);
                        CHECK(f.test(condition) == f.board().get<bool>("rb"));
                        ++checked;
                    }
                }
            }
        }
        CHECK(checked == 2 * 5 * 5 * 3);
    }

    TEST_CASE("&& binds tighter than ||, and both evaluate both sides") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations (v1 true, v2 false), and
        // operators.hpp: `logical` is one infix_op_left of || and &&, and ExprBinaryArithmetic
        // evaluates both operands before it looks at the operator.
        fixture f;
        f.run("v1 := true; v2 := false");
        CHECK(f.board().get<bool>("v1"));
        CHECK_FALSE(f.board().get<bool>("v2"));
        CHECK_FALSE(f.test("v1 && v2"));
        CHECK(f.test("v1 || v2"));
        CHECK_FALSE(f.test("(y == x) && (x == 3)"));
        CHECK(f.test("(y == x) || (x == 3)"));
        CHECK_FALSE(f.test(" y == x  &&  x == 3 "));
        CHECK(f.test(" y == x  ||  x == 3 "));
        CHECK(f.test("true || true && false"));  // true || (true && false): && binds tighter
        CHECK_FALSE(f.test("(true || true) && false"));
        CHECK(f.test("2 && 0.5"));
        f.run("ri = 0");
        CHECK_FALSE(f.test("false && (ri := 7)"));
        CHECK(f.integer("ri") == 7);  // no short-circuit
        f.run("ri = 0");
        CHECK(f.test("true || (ri := 8)"));
        CHECK(f.integer("ri") == 8);
    }

    TEST_CASE("unary operators") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: v2 = !false, v2 = !v2.
        fixture f;
        f.run("v2 = !false");
        CHECK(f.board().get<bool>("v2"));
        f.run("v2 = !v2");
        CHECK_FALSE(f.board().get<bool>("v2"));
        CHECK(f.test("!0"));
        CHECK_FALSE(f.test("!2.5"));
        CHECK(f.test("!!1"));
        CHECK(f.integer("- -x") == 3);
        CHECK(f.number("-n") == -2.5);
        CHECK(f.integer("~~x") == 3);
    }

    TEST_CASE("the ternary operator") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: y == x ? 'T' : 'F'.
        fixture f;
        CHECK(f.text("y == x ? 'T' : 'F'") == "F");
        CHECK(f.text("y != x ? 'T' : 'F'") == "T");
        CHECK(f.number("x > 1 ? n : x") == 2.5);
        CHECK(f.number("x < 1 ? n : x") == 3.0);
        CHECK(f.text("s ? 'full' : 'empty'") == "full");  // a string holds when not empty
        CHECK(f.text("'' ? 'full' : 'empty'") == "empty");
        CHECK(f.integer("x ? (ri := 4) : 5") == 4);
        const script_problem p = f.problem("rs = x ? 'a' : 1");
        CHECK(p.offset == 9);
        CHECK(f.integer("x ? 1 : 2 ? 3 : 4") == 1);  // nests to the right
        CHECK(f.integer("0 ? 1 : 0 ? 3 : 4") == 4);
        CHECK(f.integer("x ? 1 : (0 ? 3 : 4)") == 1);
    }

    TEST_CASE("assignments create, replace and update keys, converting to the key's type") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: x:= 3; y:=5; x+y is 8, then
        // x += 1 ... x /= 2 (with x an integer key there too).
        fixture f;
        f.run("x := 3; y := 5");
        CHECK(f.test("x + y == 8"));
        f.run("x += 1");
        CHECK(f.integer("x") == 4);
        f.run("x -= 1");
        CHECK(f.integer("x") == 3);
        f.run("x *= 2");
        CHECK(f.integer("x") == 6);
        f.run("x /= 2");
        CHECK(f.integer("x") == 3);
        f.run("n = 1; n += 0.5; n /= 2");
        CHECK(f.number("n") == 0.75);
        f.run("s = 'ab'; s += 'cd'");
        CHECK(f.text("s") == "abcd");
        f.run("ri = '42'; rn = '2.5'; rb = 'true'");  // a string into another type: converted
        CHECK(f.integer("ri") == 42);
        CHECK(f.number("rn") == 2.5);
        CHECK(f.board().get<bool>("rb"));
        f.run("rn = x; ri = 4.0; rb = 1");
        CHECK(f.number("rn") == 3.0);
        CHECK(f.integer("ri") == 4);
        CHECK(f.board().get<bool>("rb"));
        f.run("rn = RED");  // an enum is an integer constant
        CHECK(f.number("rn") == 1.0);
        CHECK(f.integer("(ri = 7)") == 7);  // an assignment's value is the key's new value
        f.run("s = 'x'; s = s");
        CHECK(f.text("s") == "x");
    }

    TEST_CASE("an assignment that cannot convert is a problem at load, or fails at run") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, Equations: x='msg', A=1.0, x=A throw
        // ("can't change the type, once created"), and new_var=69 throws.
        fixture f;
        CHECK(f.problem("x = 'msg'").offset == 4);
        CHECK(f.problem("A = 1.0").offset == 4);
        CHECK(f.problem("ri = 2.5").offset == 5);
        CHECK(f.problem("rb = 2").offset == 5);
        CHECK(f.problem("s -= 'a'").offset == 0);
        CHECK(f.problem("x += 'a'").offset == 5);
        CHECK(f.problem("s += 1").offset == 5);
        CHECK(f.problem("b += 1").offset == 0);
        script_problem p = f.problem("x = 1; new_var = 69");
        CHECK(p.offset == 7);
        CHECK(p.message.find("':='") != std::string::npos);
        p = f.problem("made := 1");
        CHECK(p.offset == 0);
        CHECK(p.message.find("declares") != std::string::npos);
        // Invalid assignments: BehaviorTree.CPP throws on 'hello' = 'world' and 3.0 = 2.0.
        CHECK(f.problem(" 'hello' = 'world' ").offset == 1);
        CHECK(f.problem(" 3.0 = 2.0 ").offset == 1);
        // What only the value tells fails at run, naming the script.
        f.run("A = 'msg'");
        CHECK(f.run_error("x = A").find("'msg' is not an integer") != std::string::npos);
        const std::string message = f.run_error("x = n");
        CHECK(message.find("script 'x = n'") == 0);
        CHECK(message.find("2.5") != std::string::npos);
        CHECK(f.run_error("x /= 2").find("is not an integer") != std::string::npos);
        CHECK(f.run_error("rb = x").find("not a boolean") != std::string::npos);
        CHECK(f.run_error("x = 1 / 0").find("inf") != std::string::npos);
        // Strings have no cap: a key keeps what a script builds, however long.
        f.run("s = '" + std::string(200, 'a') + "'");
        f.run("s = s .. s .. 'x'");
        CHECK(f.text("s") == std::string(400, 'a') + "x");
    }

    TEST_CASE("enum names are integer constants, looked up before keys") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, EnumsBasic; operators.hpp ExprName
        // searches the enums first.
        fixture f;
        f.run("x := RED; y := RED; ri := BLUE");
        CHECK(f.test("x == y"));
        CHECK(f.test("x != ri"));
        CHECK(f.integer("x") == 1);
        CHECK(f.integer("GREEN") == 5);  // not the key GREEN, which holds 99
        CHECK(f.test("GREEN == 5"));
    }

    TEST_CASE("names with @ are the main tree's keys, given to the scope as written") {
        fixture f;
        f.run("@g := 4; @g += x");
        CHECK(f.integer("@g") == 7);
        CHECK(f.problem("ri = @").offset == 5);
    }

    TEST_CASE("statements run in order; test() takes the last one's value") {
        // BehaviorTree.CPP tests/script_parser_test.cpp, NewLine: statements across lines.
        fixture f;
        f.run("x := 5;\ny := 6");
        CHECK(f.integer("x") == 5);
        CHECK(f.integer("y") == 6);
        CHECK(f.test("x := 0; x + 1"));
        CHECK_FALSE(f.test("x := 1; x - 1"));
        CHECK(f.test("1;"));  // one trailing ';' is allowed
        CHECK(f.test("0.5"));
        CHECK_FALSE(f.test("0.0"));
        CHECK(f.test("'true'"));
        CHECK_FALSE(f.test("'0'"));
        const auto compiled = f.make("'maybe'");
        CHECK_THROWS_AS(compiled->test(f.board()), error);
        CHECK(f.problem("").message == "the script is empty");
        CHECK(f.problem("  \n ").offset == 0);
        // As BehaviorTree.CPP 4.10's parser: any number of ';', or none, between statements.
        CHECK(f.parses("x := 1;; y := 2;;"));
        CHECK(f.parses("x := 1 y := 2"));
        CHECK(f.problem("; x := 1").offset == 0);
    }

    TEST_CASE("syntax errors are located at the offending character") {
        fixture f;
        CHECK(f.problem("x +").offset == 3);
        CHECK(f.problem("(x + 1").offset == 6);
        CHECK(f.problem("x + 1)").offset == 5);
        CHECK(f.problem("x := y := 1").offset == 7);
        CHECK(f.problem("x ? 1").offset == 5);
        CHECK(f.problem("x = .5").offset == 4);
        CHECK(f.problem("ri = nothing + 1").offset == 5);
        CHECK(f.problem("ri = nothing + 1").message.find("'nothing'") != std::string::npos);
        CHECK(f.problem("x + 1 = 2").offset == 0);
    }

    TEST_CASE("nesting deeper than max_depth is a problem, not a crash") {
        fixture f;
        const std::size_t deep = parsed_script::max_depth + 10;
        const script_problem p = f.problem(std::string(deep, '(') + "1" + std::string(deep, ')'));
        CHECK(p.offset == parsed_script::max_depth);  // the first '(' too many
        CHECK(p.message.find("nested") != std::string::npos);
        CHECK(f.problem(std::string(deep, '!') + "1").message.find("nested") != std::string::npos);
        CHECK(f.problem(std::string(100000, '(')).message.find("nested") != std::string::npos);
        const std::size_t fits = parsed_script::max_depth / 2;
        CHECK(f.integer(std::string(fits, '(') + "7" + std::string(fits, ')')) == 7);
        std::string right_nested = "1";
        for (std::size_t k = 0; k < fits; ++k) right_nested = "1 + (" + right_nested + ")";
        CHECK(f.integer(right_nested) == static_cast<std::int64_t>(fits + 1));
    }

    TEST_CASE("a long flat expression compiles and runs") {
        // BehaviorTree.CPP's own parser overflows its stack on such (its issue 1209).
        fixture f;
        std::string sum = "1";
        for (int k = 1; k < 100000; ++k) sum += "+1";
        CHECK(f.integer(sum) == 100000);
        std::string both = "x > 0";
        for (int k = 1; k < 20000; ++k) both += " && x > 0";
        CHECK(f.test(both));
    }

    TEST_CASE("value() gives the last statement's string or number, or nothing when empty") {
        fixture f;
        auto value = [&](const std::string& text) { return f.make(text)->value(f.board()); };
        CHECK(value("s") == dynamic_value("abc"));
        CHECK(value("s .. 'd'") == dynamic_value("abcd"));
        CHECK(value("x := 4; x + 1") == dynamic_value(5));
        CHECK(value("x < y") == dynamic_value(1));  // a boolean as 1 or 0, as number() gives it
        // Under BehaviorTree.CPP's rules a statement with a problem is walked, as there: its
        // value may be text, or empty (`..` of two numbers).
        struct btcpp_board : script_board {
            bool btcpp_values() const override { return true; }
        } keys;
        auto walked = [&](const std::string& text) {
            std::vector<script_problem> deferred;
            auto parsed = parsed_script::parse(text);
            auto compiled = script::compile(std::get<parsed_script>(parsed), keys, &deferred);
            return std::get<0>(compiled)->value(keys.board());
        };
        CHECK(walked("'n=' .. 3") == dynamic_value("n=3"));
        CHECK(walked("true ? 'a' : 'b' - 1") == dynamic_value("a"));
        CHECK(walked("1 .. 2") == std::nullopt);
    }
}

TEST_SUITE("registry") {
    TEST_CASE("registers enum names for scripts and refuses empty or repeated ones") {
        registry reg;
        reg.add_enum("RED", 1);
        reg.add_enum("THE_ANSWER", 42);
        CHECK(reg.find_enum("RED") == 1);
        CHECK(reg.find_enum("THE_ANSWER") == 42);
        CHECK(reg.find_enum("BLUE") == std::nullopt);
        CHECK_THROWS_AS(reg.add_enum("", 3), registry_error);
        CHECK_THROWS_AS(reg.add_enum("RED", 2), registry_error);
        CHECK(reg.find_enum("RED") == 1);
    }
}
