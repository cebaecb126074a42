#include <sstream>

#include "test_support.hpp"

using namespace canopy;

TEST_SUITE("printer") {
    TEST_CASE("indents two spaces per level and leaves out an empty describe with its quotes") {
        load_result r = testing::load_json(R"([{"id": 7, "type": "Selector", "describe": "root"},
            {"id": 8, "parentId": 7, "type": "Not"},
            {"id": 9, "parentId": 8, "type": "CoinNearby", "describe": "coin?"},
            {"id": 3, "parentId": 7, "type": "Wander"}])");
        REQUIRE(r);
        CHECK(to_text(*r.tree) ==
              "Selector \"root\" #7\n"
              "  Not #8\n"
              "    CoinNearby \"coin?\" #9\n"
              "  Wander #3\n");
    }

    TEST_CASE("prints the registered name whatever alias or id the file used") {
        load_result r = testing::load_json(
            R"([{"id": 1, "type": "Fallback"}, {"id": 2, "parentId": 1, "type": 3},
            {"id": 3, "parentId": 2, "type": "Wander"}])");
        REQUIRE(r);
        CHECK(to_text(*r.tree) == "Selector #1\n  Not #2\n    Wander #3\n");
    }

    TEST_CASE("JSON-escapes the describe and keeps UTF-8 as it is") {
        record_set records;
        records.add(-5, 0, "Wander", "say \"hi\"\\\n\ttab\x01 \xe9\xbe\x99 caf\xc3\xa9");
        load_result r = build_tree(records, testing::test_registry());
        REQUIRE(r);
        CHECK(to_text(*r.tree) ==
              "Wander \"say \\\"hi\\\"\\\\\\n\\ttab\\u0001 \xe9\xbe\x99 caf\xc3\xa9\" #-5\n");
    }

    TEST_CASE("verbose adds the editor metadata of each node and of the tree") {
        record_set records;
        records.set_name("Pick");
        records.add_tree_metadata("_description", "pick \"it\"");
        records.add(1, 0, "Not", "");
        records.add_metadata("_collapsed", "true");
        records.add(2, 1, "Wander", "w");
        load_result r = build_tree(records, testing::test_registry());
        REQUIRE(r);
        CHECK(to_text(*r.tree) == "Not #1\n  Wander \"w\" #2\n");
        CHECK(to_text(*r.tree, true) ==
              "(tree \"Pick\") _description=\"pick \\\"it\\\"\"\n"
              "Not #1 _collapsed=\"true\"\n"
              "  Wander \"w\" #2\n");
    }

    TEST_CASE("writes to a stream exactly what to_text returns, however long") {
        record_set records;
        records.add(1, 0, "Sequence", "a long tree");
        for (int i = 2; i < 20000; ++i)
            records.add(i, 1, "AlwaysSuccess", "leaf number " + std::to_string(i));
        load_result r = build_tree(records, testing::test_registry());
        REQUIRE(r);
        std::ostringstream out;
        print(*r.tree, out);
        const std::string printed = out.str();
        CHECK(printed == to_text(*r.tree));
        CHECK(std::count(printed.begin(), printed.end(), '\n') == 19999);
    }

    TEST_CASE("prints a tree 10,000 levels deep without recursion") {
        const int depth = 10000;
        load_result r = build_tree(testing::not_chain(depth), testing::test_registry());
        REQUIRE(r);
        std::string text = to_text(*r.tree);
        std::string last_line = text.substr(text.rfind('\n', text.size() - 2) + 1);
        CHECK(last_line == std::string(2 * (depth - 1), ' ') + "AlwaysSuccess #10000\n");
    }
}
