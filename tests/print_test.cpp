#include <filesystem>
#include <fstream>
#include <iterator>
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

    TEST_CASE("prints the name the file used; verbose and Canopy's words name the type") {
        load_result r = testing::load_json(
            R"([{"id": 1, "type": "Fallback"}, {"id": 2, "parentId": 1, "type": 3},
            {"id": 3, "parentId": 2, "type": "Wander"}])");
        REQUIRE(r);
        // A type given by id has no written name: the registered one.
        CHECK(to_text(*r.tree) == "Fallback #1\n  Not #2\n    Wander #3\n");
        CHECK(to_text(*r.tree, true) == "Fallback (Selector) #1\n  Not #2\n    Wander #3\n");
        CHECK(to_canopy_text(*r.tree) == "Selector #1\n  Not #2\n    Wander #3\n");
    }

    TEST_CASE("a BehaviorTree.CPP file prints in its own words, ports and subtree remaps too") {
        registry reg;
        register_builtin_nodes(reg);
        const load_result r = try_load_text(R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Fallback name="top">
      <Sleep msec="100"/>
      <Repeat num_cycles="3"><AlwaysSuccess/></Repeat>
      <SubTree ID="Reload" magazine="{ammo}" _skipIf="ammo &gt; 3"/>
    </Fallback>
  </BehaviorTree>
  <BehaviorTree ID="Reload"><Script code="magazine := 5"/></BehaviorTree>
</root>)",
                                            file_format::btcpp_xml, reg, "main.xml");
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        CHECK(to_text(*r.tree) ==
              "Fallback \"top\" #1\n"
              "  Sleep #2 msec=\"100\"\n"
              "  Repeat #3 num_cycles=\"3\"\n"
              "    AlwaysSuccess #4\n"
              "  SubTree #5 ID=\"Reload\" magazine=\"{ammo}\" _skipIf=\"ammo > 3\"\n"
              "    Script #6 code=\"magazine := 5\"\n");
        const std::string verbose = to_text(*r.tree, true);
        CHECK(verbose.find("Fallback (Selector) \"top\" #1\n") == 0);
        CHECK(verbose.find("  Sleep (Wait) #2 msec=\"100\"\n") != std::string::npos);
        CHECK(verbose.find("  SubTree #5 ID=\"Reload\"") != std::string::npos);
        CHECK(to_canopy_text(*r.tree).find("  Wait #2\n") != std::string::npos);
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

TEST_SUITE("printer") {
    // tests/data/words: files of other runtimes' formats, each printed (verbose) as the golden
    // file beside it says, in its own words, and the same after a round trip through its
    // format's writer.
    TEST_CASE("other formats' files print in their own words, before and after a round trip") {
        namespace fs = std::filesystem;
        registry reg;
        register_builtin_nodes(reg);
        register_behavior3_nodes(reg);
        std::size_t checked = 0;
        for (const auto& entry :
             fs::directory_iterator(fs::path(CANOPY_SOURCE_DIR) / "tests/data/words")) {
            const fs::path file = entry.path();
            if (file.extension() == ".txt") continue;
            CAPTURE(file);
            const load_result loaded = try_load_file(file, reg);
            for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(loaded);
            std::ifstream golden(fs::path(file).replace_extension(".txt"));
            REQUIRE(golden);
            const std::string expected{std::istreambuf_iterator<char>(golden), {}};
            CHECK(to_text(*loaded.tree, true) == expected);
            const file_format format =
                file.extension() == ".xml" ? file_format::btcpp_xml : file_format::behavior3;
            const document_load_result document = try_load_document(file, reg);
            REQUIRE(document);
            const write_result written = info(format).write(document.document);
            REQUIRE(written.problems.empty());
            const load_result again =
                try_load_text(written.text, format, reg, file.filename().string());
            for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(again);
            CHECK(to_text(*again.tree, true) == expected);
            ++checked;
        }
        CHECK(checked == 2);
    }
}

TEST_SUITE("the file's words") {
    // The first problem loading `text` in `format` with the built-ins, rendered without path.
    std::string first_message(const std::string& text, file_format format) {
        registry reg;
        register_builtin_nodes(reg);
        register_behavior3_nodes(reg);
        const load_result r = try_load_text(text, format, reg, "t");
        CHECK_FALSE(r);
        return r.diagnostics.empty() ? "" : r.diagnostics.front().message;
    }
    std::string btcpp(const std::string& node) {
        return "<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><Sequence>" + node +
               "</Sequence></BehaviorTree></root>";
    }

    TEST_CASE("diagnostics name types and parameters as a BehaviorTree.CPP file writes them") {
        CHECK(first_message(btcpp("<Sleep/>"), file_format::btcpp_xml) ==
              "'Sleep' needs parameter 'msec' (a number)");
        CHECK(first_message(btcpp("<Repeat num_cycle=\"3\"><AlwaysSuccess/></Repeat>"),
                            file_format::btcpp_xml) ==
              "'Repeat' has no parameter 'num_cycle' (did you mean 'num_cycles'?)");
        CHECK(first_message(btcpp("<Fallbak><AlwaysSuccess/></Fallbak>"), file_format::btcpp_xml) ==
              "unknown node type 'Fallbak' (did you mean 'Fallback'?)");
        CHECK(first_message(btcpp("<Inverter/>"), file_format::btcpp_xml) ==
              "'Inverter' is a decorator and takes exactly one child, but node 2 has 0");
        CHECK(first_message(btcpp("<Timeout msec=\"1.5\"><AlwaysSuccess/></Timeout>"),
                            file_format::btcpp_xml) ==
              "'msec' of 'Timeout' must be a whole number of milliseconds, not \"1.5\"");
    }

    TEST_CASE("and as a behavior3 file writes them, suggesting from its own names") {
        CHECK(first_message(R"({"name": "t", "root": {"id": 1, "name": "Calculat",
            "args": {"value": "1"}}})",
                            file_format::behavior3) ==
              "unknown node type 'Calculat' (did you mean 'Calculate'?)");
        CHECK(first_message(R"({"name": "t", "root": {"id": 1, "name": "Wait",
            "args": {"time": "x"}}})",
                            file_format::behavior3)
                  .find("parameter 'time' of 'Wait'") == 0);
    }
}
