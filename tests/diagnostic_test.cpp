#include "test_support.hpp"

using namespace canopy;

TEST_SUITE("diagnostic") {
    TEST_CASE("renders path:line:col: error: message, leaving out what is unknown") {
        diagnostic d{
            "trees/pet.json", {12, 5}, 7, diagnostic_code::unknown_type, "unknown node type 'X'"};
        CHECK(to_string(d) == "trees/pet.json:12:5: error: unknown node type 'X'");
        d.where.column = 0;
        CHECK(to_string(d) == "trees/pet.json:12: error: unknown node type 'X'");
        d.where.line = 0;
        CHECK(to_string(d) == "trees/pet.json: error: unknown node type 'X'");
    }

    TEST_CASE("a warning renders as path:line:col: warning: message and fails nothing") {
        diagnostic d{"t.xml",
                     {3, 0},
                     2,
                     diagnostic_code::unknown_field,
                     "a near miss",
                     diagnostic_severity::warning};
        CHECK(to_string(d) == "t.xml:3: warning: a near miss");
        CHECK(to_string(diagnostic_severity::warning) == "warning");
        CHECK_FALSE(has_errors({d}));
        diagnostic e{"t.xml", {4, 0}, 3, diagnostic_code::unknown_type, "unknown"};
        CHECK(e.severity == diagnostic_severity::error);
        CHECK(has_errors({d, e}));
        CHECK_FALSE(has_errors({}));
    }

    TEST_CASE("every code has its own stable spelling") {
        std::vector<std::string_view> spellings;
        for (int c = 0; c <= static_cast<int>(diagnostic_code::key_type_mismatch); ++c) {
            spellings.push_back(to_string(static_cast<diagnostic_code>(c)));
        }
        CHECK(spellings.front() == "io-error");
        CHECK(to_string(diagnostic_code::unknown_parent) == "unknown-parent");
        std::sort(spellings.begin(), spellings.end());
        CHECK(std::adjacent_find(spellings.begin(), spellings.end()) == spellings.end());
        CHECK(std::find(spellings.begin(), spellings.end(), "unknown") == spellings.end());
    }
}
