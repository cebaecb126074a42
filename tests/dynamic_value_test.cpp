// canopy::dynamic_value: behavior3's values of any kind, their JSON text and JavaScript's
// readings of them.
#include <cmath>
#include <limits>
#include <string>

#include "test_support.hpp"

using namespace canopy;

TEST_SUITE("dynamic value") {
    TEST_CASE("JSON text reads back as the same value and writes compactly") {
        for (const char* text :
             {"null", "true", "false", "0", "-2.5", "1e+21", "\"a\\\"b\\n\\u0001\"", "[]", "{}",
              "[1,\"x\",[true,null],{\"k\":{\"j\":[]}}]", "{\"b\":1,\"a\":2}"}) {
            CAPTURE(text);
            const dynamic_value value = dynamic_value::from_json(text);
            CHECK(value.to_json() == text);
            CHECK(dynamic_value::from_json(value.to_json()) == value);
        }
        CHECK(dynamic_value::from_json(" [ 1 , 2.50 ,\n3 ] ").to_json() == "[1,2.5,3]");
        CHECK(dynamic_value::from_json("\"\\u00e9\\ud83d\\ude00\"").string() ==
              "\xC3\xA9\xF0\x9F\x98\x80");
        CHECK(dynamic_value::from_json("{\"a\":1,\"a\":2}").to_json() == "{\"a\":2}");
        // JSON.stringify writes what JSON cannot hold as null.
        const dynamic_value::array_type odd{std::numeric_limits<double>::quiet_NaN(),
                                            std::numeric_limits<double>::infinity(), -0.0};
        CHECK(dynamic_value(odd).to_json() == "[null,null,0]");
    }

    TEST_CASE("text that is not JSON is refused with its column") {
        for (const auto& [text, column] :
             {std::pair{"[1,", 4}, std::pair{"{\"a\" 1}", 6}, std::pair{"tru", 1},
              std::pair{"[1] x", 5}, std::pair{"\"abc", 5}, std::pair{"01", 2},
              std::pair{"{1:2}", 2}, std::pair{"\"\\q\"", 3}}) {
            const std::string shown = text;
            CAPTURE(shown);
            try {
                (void)dynamic_value::from_json(text);
                FAIL("accepted");
            } catch (const error& e) {
                CHECK(std::string(e.what()).find("column " + std::to_string(column)) !=
                      std::string::npos);
            }
        }
        std::string deep(dynamic_value::max_depth + 1, '[');
        deep += std::string(dynamic_value::max_depth + 1, ']');
        CHECK_THROWS_AS((void)dynamic_value::from_json(deep), error);
        std::string deepest(dynamic_value::max_depth - 1, '[');
        deepest += std::string(dynamic_value::max_depth - 1, ']');
        CHECK(dynamic_value::from_json(deepest).depth() == dynamic_value::max_depth - 1);
    }

    TEST_CASE("a copy is a value: changing it leaves the original as it was") {
        const dynamic_value original = dynamic_value::from_json("[1,{\"a\":[2]}]");
        dynamic_value copy = original;
        CHECK(copy.array() == original.array());  // shared until changed
        copy.mutable_array()->push_back(dynamic_value(3));
        CHECK(original.to_json() == "[1,{\"a\":[2]}]");
        CHECK(copy.to_json() == "[1,{\"a\":[2]},3]");
        dynamic_value only = dynamic_value::from_json("[]");
        const auto* before = only.array();
        only.mutable_array()->push_back(dynamic_value(true));
        CHECK(only.array() == before);  // not shared: changed in place
    }

    TEST_CASE("reading by key, as JavaScript's value[key]") {
        const dynamic_value list = dynamic_value::from_json("[10,null,\"c\"]");
        CHECK(list.at(dynamic_value(0)).number() == 10);
        CHECK(list.at(dynamic_value("2")).string() == "c");
        CHECK(list.at(dynamic_value(1)).is_null());
        CHECK(list.at(dynamic_value(3)).is_null());
        CHECK(list.at(dynamic_value(0.5)).is_null());
        CHECK(list.at(dynamic_value(-1)).is_null());
        CHECK(list.at(dynamic_value("01")).is_null());
        const dynamic_value object = dynamic_value::from_json("{\"hp\":3,\"1\":true}");
        CHECK(object.at(dynamic_value("hp")).number() == 3);
        CHECK(object.at(dynamic_value(1)).boolean());
        CHECK(object.field("mp").is_null());
        CHECK(dynamic_value(5).at(dynamic_value(0)).is_null());
    }

    TEST_CASE("numbers and truth as JavaScript's ToNumber and ToBoolean give them") {
        CHECK(dynamic_value().to_number() == 0);
        CHECK(dynamic_value(true).to_number() == 1);
        CHECK(dynamic_value(" 12.5 ").to_number() == 12.5);
        CHECK(dynamic_value("").to_number() == 0);
        CHECK(std::isnan(dynamic_value("12px").to_number()));
        // JavaScript's Number(text) beyond the decimal forms.
        const double inf = std::numeric_limits<double>::infinity();
        CHECK(dynamic_value("1e999").to_number() == inf);
        CHECK(dynamic_value("-1e999").to_number() == -inf);
        CHECK(dynamic_value("1e-999").to_number() == 0);
        CHECK(dynamic_value(" -Infinity").to_number() == -inf);
        CHECK(dynamic_value("0x1F").to_number() == 31);
        CHECK(dynamic_value("0b101").to_number() == 5);
        CHECK(dynamic_value("0o17").to_number() == 15);
        CHECK(dynamic_value("5.").to_number() == 5);
        CHECK(dynamic_value("-.5").to_number() == -0.5);
        for (const char* nan : {"inf", "nan", "infinity", "-0x10", "0x", "0x1g", ".", "+-1"})
            CHECK(std::isnan(dynamic_value(nan).to_number()));
        CHECK(dynamic_value::from_json("[]").to_number() == 0);
        CHECK(dynamic_value::from_json("[\"7\"]").to_number() == 7);
        CHECK(std::isnan(dynamic_value::from_json("[1,2]").to_number()));
        CHECK(std::isnan(dynamic_value::from_json("{}").to_number()));
        CHECK_FALSE(dynamic_value().truthy());
        CHECK_FALSE(dynamic_value(0).truthy());
        CHECK_FALSE(dynamic_value(std::numeric_limits<double>::quiet_NaN()).truthy());
        CHECK_FALSE(dynamic_value("").truthy());
        CHECK(dynamic_value("0").truthy());
        CHECK(dynamic_value::from_json("[]").truthy());
    }

    TEST_CASE("equality compares contents; objects in any field order") {
        CHECK(dynamic_value::from_json("{\"a\":1,\"b\":[2]}") ==
              dynamic_value::from_json("{\"b\":[2],\"a\":1}"));
        CHECK(dynamic_value::from_json("[1,2]") != dynamic_value::from_json("[2,1]"));
        CHECK(dynamic_value(1) != dynamic_value(true));
        CHECK(dynamic_value(1) != dynamic_value("1"));
        const dynamic_value nan(std::numeric_limits<double>::quiet_NaN());
        CHECK(nan != nan);
    }

    TEST_CASE("the json blackboard type starts as null and reads a file's text") {
        registry reg;
        reg.add_type(dynamic_value_type());
        reg.add_key("list", "json", std::string("[1,2]"));
        reg.add_key("none", "json", std::nullopt);
        CHECK_THROWS_AS(reg.add_key("bad", "json", std::string("[1,")), registry_error);
    }
}
