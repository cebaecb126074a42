// Keys outside any tree, for scripts run by hand (include/canopy/run/script_board.hpp).
#include "canopy/run/script_board.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "canopy/core/error.hpp"
#include "canopy/core/value_type.hpp"
#include "test_support.hpp"

using namespace canopy;

namespace {

std::shared_ptr<const script> compiled(const std::string& text, const script_scope& scope) {
    auto made = testing::compile_script(text, scope);
    REQUIRE(std::holds_alternative<std::shared_ptr<const script>>(made));
    return std::get<std::shared_ptr<const script>>(made);
}

}  // namespace

TEST_SUITE("script board") {
    TEST_CASE("scripts compile against its keys and enums and run on its values") {
        script_board keys;
        keys.add_key("battery", param_type::number, 0.8)
            .add_key("mode", param_type::integer)
            .add_key("name", param_type::string, std::string("a string longer than fifteen"))
            .add_enum("LOW", 3);
        const auto low = compiled("battery < 0.2", keys);
        const auto set_mode = compiled("mode = battery < 0.2 ? LOW : 1; name .. '!'", keys);
        const blackboard board = keys.board();
        CHECK_FALSE(low->test(board));
        set_mode->run(board);
        CHECK(board.get<std::int64_t>("mode") == 1);
        keys.board().set("battery", 0.1);
        CHECK(low->test(board));
        set_mode->run(board);
        CHECK(board.get<std::int64_t>("mode") == 3);
        CHECK(board.get<std::string_view>("name") == "a string longer than fifteen");
    }

    TEST_CASE("a key of a program's type is made, copied by scripts, and destroyed") {
        static int alive = 0;
        struct counted {
            std::string text;
            counted() { ++alive; }
            counted(const counted& other) : text(other.text) { ++alive; }
            counted& operator=(const counted&) = default;
            ~counted() { --alive; }
        };
        {
            script_board keys;
            for (const char* name : {"a", "b"}) {
                blackboard_key key{name, param_type::custom, std::nullopt, false};
                key.custom = make_value_type<counted>(
                    "Counted",
                    [](std::string_view text) {
                        counted c;
                        c.text = std::string(text);
                        return c;
                    },
                    [](const counted& c) { return c.text; });
                keys.add_key(std::move(key));
            }
            compiled("a = 'made from text'; b = a", keys)->run(keys.board());
            CHECK(keys.board().text(keys.board().slot("b")) == "made from text");
            CHECK(alive >= 2);
        }
        CHECK(alive == 0);
    }

    TEST_CASE("keys are given before the board is made, each name once") {
        script_board keys;
        keys.add_key("x", param_type::integer);
        CHECK_THROWS_AS(keys.add_key("x", param_type::number), error);
        CHECK(keys.has_key("x"));
        CHECK_FALSE(keys.has_key("y"));
        (void)keys.board();
        CHECK_THROWS_AS(keys.add_key("y", param_type::integer), error);
        script_board none;
        CHECK(none.board().keys().empty());
    }
}
