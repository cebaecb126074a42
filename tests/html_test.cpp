// Trees as a self-contained HTML page: the JSON it embeds reads back as the tree and its
// replay, no text of the tree can end the element that holds it, and the page loads nothing
// from anywhere. (tests/browser/viewer_test.py drives the page in a real browser.)
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "canopy/canopy.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;
using json_value = nlohmann::json;

constexpr std::string_view data_open = R"(<script type="application/json" id="tree-data">)";

// The text of the page's data element, up to the first "</script" after its start tag: where
// an HTML parser ends it.
std::string data_text(const std::string& page) {
    const std::size_t open = page.find(data_open);
    REQUIRE(open != std::string::npos);
    const std::size_t start = open + data_open.size();
    const std::size_t end = page.find("</script", start);
    REQUIRE(end != std::string::npos);
    return page.substr(start, end - start);
}

// What follows each assignment to the attribute `name` in the page: `name` as a whole word, then
// '=' with optional spaces around it. (A plain search, not <regex>: GCC's <regex> draws
// -Wmaybe-uninitialized warnings from its own headers in the sanitizer build.)
std::vector<std::string_view> after_assignments(std::string_view page, std::string_view name) {
    const auto is_word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    const auto skip_spaces = [&](std::size_t at) {
        while (at < page.size() && std::isspace(static_cast<unsigned char>(page[at]))) ++at;
        return at;
    };
    std::vector<std::string_view> found;
    for (std::size_t at = page.find(name); at != std::string_view::npos;
         at = page.find(name, at + 1)) {
        if (at > 0 && is_word(page[at - 1])) continue;
        const std::size_t equals = skip_spaces(at + name.size());
        if (equals == page.size() || page[equals] != '=') continue;
        found.push_back(page.substr(skip_spaces(equals + 1)));
    }
    return found;
}

json_value page_data(const std::string& page) {
    return json_value::parse(data_text(page));
}

}  // namespace

TEST_SUITE("html") {
    TEST_CASE("the embedded JSON holds every node with its type, describe, id and location") {
        registry reg = testing::test_registry();
        const fs::path file = fs::path(CANOPY_SOURCE_DIR) / "data/hornet.json";
        load_result loaded = try_load_file(file, reg);
        REQUIRE(loaded);
        const tree& t = *loaded.tree;
        html_options options;
        options.path = "data/hornet.json";
        const json_value data = page_data(to_html(t, options));
        CHECK(data["format"] == 1);
        CHECK(data["files"][0] == "data/hornet.json");
        CHECK(data["ticks"].is_null());
        const json_value& nodes = data["nodes"];
        REQUIRE(nodes.size() == t.size());
        for (tree::index i = 0; i < t.size(); ++i) {
            CAPTURE(i);
            const json_value& node = nodes[i];
            CHECK(data["types"][node[0].get<std::size_t>()]["name"] == t.written_type(i));
            CHECK(node[1] == (i == 0 ? -1 : static_cast<std::int64_t>(t.parent(i))));
            CHECK(node[2] == t.subtree_end(i));
            CHECK(node[3] == t.record_id(i));
            CHECK(node[4] == t.describe(i));
            CHECK(node[6] == t.where(i).line);
            CHECK(node[7] == t.where(i).column);
            CHECK(node[6] > 0);
            CHECK(node[8].size() <= t.params(i).size());
        }
    }

    TEST_CASE("types are the file's words; coverage colours the tree when given") {
        registry reg;
        register_builtin_nodes(reg);
        load_result loaded = try_load_text(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
  <Fallback><AlwaysFailure/><Inverter><AlwaysFailure/></Inverter></Fallback>
</BehaviorTree></root>)",
                                           file_format::btcpp_xml, reg, "m.xml");
        REQUIRE(loaded);
        coverage_recorder coverage(loaded.tree);
        agent a(loaded.tree);
        a.set_observer(&coverage);
        a.tick(0.1);
        a.tick(0.1);
        html_options options;
        options.coverage = &coverage;
        options.coverage_ticks = 2;
        const json_value data = page_data(to_html(*loaded.tree, options));
        const json_value& fallback = data["types"][data["nodes"][0][0].get<std::size_t>()];
        CHECK(fallback["name"] == "Fallback");
        CHECK(fallback["runs"] == "Selector");
        CHECK(data["coverage_ticks"] == 2);
        REQUIRE(data["coverage"].size() == 4);
        CHECK(data["coverage"][0] == json_value::array({2, 0, 0, 0}));  // the root's success, twice
        CHECK(data["coverage"][1] == json_value::array({0, 2, 0, 0}));
        CHECK(page_data(to_html(*loaded.tree)).count("coverage") == 0);
        // Coverage of another load of the same file is not this tree's.
        load_result again = try_load_text(R"(<root BTCPP_format="4"><BehaviorTree ID="M">
  <AlwaysFailure/></BehaviorTree></root>)",
                                          file_format::btcpp_xml, reg, "m.xml");
        CHECK_THROWS_AS(to_html(*again.tree, options), error);
    }

    TEST_CASE("editor metadata goes with its node, the tree's apart, and the viewer shows it") {
        record_set records;
        records.set_name("Pick");
        records.add_tree_metadata("_description", "pick up");
        records.add(1, 0, "Not", "");
        records.add(2, 1, "Wander", "");
        records.add_metadata("_collapsed", "true");
        const load_result loaded = build_tree(records, testing::test_registry());
        REQUIRE(loaded);
        const std::string page = to_html(*loaded.tree);
        const json_value data = page_data(page);
        CHECK(data["metadata"] == json_value::parse(R"({"1": [["_collapsed", "true"]]})"));
        CHECK(data["tree_metadata"] == json_value::parse(R"([["_description", "pick up"]])"));
        CHECK(page.find("treeMetadata") != std::string::npos);
        // A tree without any has neither key.
        const load_result plain = testing::load_json(R"([{"id": 1, "type": "Wander"}])");
        REQUIRE(plain);
        const json_value none = page_data(to_html(*plain.tree));
        CHECK_FALSE(none.contains("metadata"));
        CHECK_FALSE(none.contains("tree_metadata"));
    }

    TEST_CASE("parameters show literals as written and keys in braces") {
        const load_result loaded = testing::load_json(R"({"blackboard": {"pause": "number"},
            "nodes": [
              {"id": 1, "type": "Sequence"},
              {"id": 2, "parentId": 1, "type": "Wait", "params": {"seconds": "{pause}"}},
              {"id": 3, "parentId": 1, "type": "Pause", "params": {"seconds": 2.5, "label": "x"}}
            ]})");
        REQUIRE(loaded);
        const json_value data = page_data(to_html(*loaded.tree));
        const json_value& nodes = data["nodes"];
        CHECK(nodes[1][8] == json_value::parse(R"([["seconds", "{pause}", 1]])"));
        // The file's parameters only; the default it left out is Canopy's, in the panel.
        CHECK(nodes[2][8] ==
              json_value::parse(R"([["seconds", "2.5", 0], ["label", "\"x\"", 0]])"));
        CHECK(
            data["canopy_params"] ==
            json_value::parse(
                R"({"2": [["seconds", "2.5", 0], ["loud", "false", 0], ["label", "\"x\"", 0]]})"));
    }

    TEST_CASE("a BehaviorTree.CPP file's nodes show its words, Canopy's beside them") {
        const load_result loaded = try_load_file(
            fs::path(CANOPY_SOURCE_DIR) / "tests/data/views/btcpp.xml", testing::test_registry());
        REQUIRE(loaded);
        const json_value data = page_data(to_html(*loaded.tree));
        const json_value& nodes = data["nodes"];
        REQUIRE(nodes.size() == 6);
        const auto type_of = [&](std::size_t i) {
            return data["types"][nodes[i][0].get<std::size_t>()];
        };
        CHECK(type_of(1) ==
              json_value::parse(R"({"name": "Sleep", "arity": "leaf", "runs": "Wait"})"));
        CHECK(type_of(2)["name"] == "RetryUntilSuccessful");
        CHECK(nodes[1][8] == json_value::parse(R"([["msec", "\"1000\"", 0]])"));
        CHECK(nodes[2][8] == json_value::parse(R"([["num_attempts", "\"3\"", 0]])"));
        CHECK(nodes[3][8] == json_value::parse(R"([["msec", "{@pause}", 1]])"));
        // The SubTree's remappings and condition as written; its group named after its tree.
        CHECK(nodes[4][8] ==
              json_value::parse(R"([["ID", "\"Reload\"", 0], ["magazine", "{ammo}", 1],
                                             ["_skipIf", "\"ammo > 3\"", 0]])"));
        CHECK(nodes[4][9] == "Reload");
        CHECK(nodes[5][8] == json_value::parse(R"([["msec", "{magazine}", 1]])"));
        // What they mean to Canopy, for the node panel: seconds, attempts, the key it reads.
        const json_value& canopy = data["canopy_params"];
        CHECK(canopy["1"] == json_value::parse(R"([["seconds", "1", 0]])"));
        CHECK(canopy["2"] == json_value::parse(R"([["attempts", "3", 0]])"));
        CHECK(canopy["3"] == json_value::parse(R"([["seconds", "{pause}", 1]])"));
    }

    TEST_CASE("a behavior3 file's nodes show its words") {
        const load_result loaded =
            try_load_file(fs::path(CANOPY_SOURCE_DIR) / "tests/data/views/behavior3.json",
                          testing::test_registry());
        REQUIRE(loaded);
        const json_value data = page_data(to_html(*loaded.tree));
        const json_value& nodes = data["nodes"];
        REQUIRE(nodes.size() == 5);
        CHECK(data["types"][nodes[1][0].get<std::size_t>()] ==
              json_value::parse(R"({"name": "Wait", "arity": "leaf", "runs": "behavior3.Wait"})"));
        CHECK(nodes[1][8] == json_value::parse(R"([["time", "0.5", 0]])"));
        CHECK(nodes[2][8] == json_value::parse(R"([["count", "2", 0]])"));
        CHECK(nodes[3][8] == json_value::parse(R"([["message", "\"again\"", 0]])"));
        CHECK(nodes[4][8] == json_value::parse(R"([["value", "3", 0], ["output1", "{n}", 1]])"));
    }

    TEST_CASE("a describe holding </script> or <!-- cannot end the data element") {
        const std::string nasty = R"(</script><script>alert(1)</script><!--<script> & "q")";
        const load_result loaded = testing::load_json(
            R"({"name": "</script><b>", "nodes": [{"id": 1, "type": "AlwaysSuccess", "describe": )" +
            json_value(nasty).dump() + "}]}");
        REQUIRE(loaded);
        const std::string page = to_html(*loaded.tree);
        const std::string text = data_text(page);
        CHECK(text.find('<') == std::string::npos);
        CHECK(text.find('>') == std::string::npos);
        const json_value data = json_value::parse(text);
        CHECK(data["nodes"][0][4] == nasty);
        CHECK(data["title"] == "</script><b>");
        CHECK(page.find("<title></script>") == std::string::npos);
        CHECK(page.find("<title>&lt;/script&gt;&lt;b&gt;</title>") != std::string::npos);
        // The page's own script still follows the data element intact.
        CHECK(page.find("JSON.parse(document.getElementById(\"tree-data\")") != std::string::npos);
    }

    TEST_CASE("the page loads nothing from the network or from other files") {
        const load_result loaded = testing::load_json(
            R"({"nodes": [{"id": 1, "type": "AlwaysSuccess", "describe": "see https://example.com"}]})");
        REQUIRE(loaded);
        std::string page = to_html(*loaded.tree);
        // The data may hold any text (escaped); the page around it must name no address.
        const std::string data = data_text(page);
        page.erase(page.find(data), data.size());
        CHECK(page.find("http://") == std::string::npos);
        CHECK(page.find("https://") == std::string::npos);
        CHECK(page.find("//cdn") == std::string::npos);
        CHECK(page.find("<link") == std::string::npos);
        CHECK(page.find("@import") == std::string::npos);
        CHECK(page.find("url(") == std::string::npos);
        CHECK(after_assignments(page, "src").empty());
        // The only links are the page's own: href="#" for the ancestors of the selected node
        // (written from a script, so the quote may be escaped).
        const std::vector<std::string_view> links = after_assignments(page, "href");
        CHECK_FALSE(links.empty());
        for (std::string_view link : links) {
            if (link.substr(0, 1) == "\\") link.remove_prefix(1);
            REQUIRE(link.substr(0, 1) == "\"");
            link.remove_prefix(1);
            CHECK(link.substr(0, link.find_first_of("\"\\")) == "#");
        }
    }

    TEST_CASE("a replay embeds each recorded tick's events") {
        auto t = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 1}},
            {"id": 3, "parentId": 1, "type": "AlwaysSuccess"}
        ]})");
        agent a(t);
        trace_recorder recorder(t, 10);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.tick(0.1);
        const recorded_trace trace = recorder.recording();
        html_options options;
        options.replay = &trace;
        const json_value ticks = page_data(to_html(*t, options))["ticks"];
        REQUIRE(ticks.size() == 2);
        CHECK(ticks[0]["n"] == 1);
        CHECK(ticks[1]["t"] == 200000000);
        // [kind, node, before, result]: kind 0 visit, 1 result, 2 halt; statuses as numbers.
        CHECK(ticks[0]["e"] == json_value::parse("[[0,0,0,0],[0,1,0,0],[1,1,0,3],[1,0,0,3]]"));
        CHECK(ticks[1]["e"].back() == json_value::parse("[1,0,3,1]"));
    }

    TEST_CASE("a replay embeds each tick's blackboard and error, and the viewer shows them") {
        auto t = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "WaitTicks", "params": {"ticks": 1}},
            {"id": 3, "parentId": 1, "type": "SetBlackboard", "params": {"key": "count", "value": 7}}
        ]})");
        agent a(t);
        trace_recorder recorder(t, 10);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.tick(0.1);
        recorded_trace trace = recorder.recording();
        trace.ticks[1].events.push_back({trace_event::kind::error, status::idle, status::idle, 2});
        trace.ticks[1].error = "out of <ink>";
        html_options options;
        options.replay = &trace;
        const std::string page = to_html(*t, options);
        const json_value ticks = page_data(page)["ticks"];
        REQUIRE(ticks.size() == 2);
        // [name, type, value], as the live view gives the blackboard.
        CHECK(ticks[0]["b"] ==
              json_value::parse(R"([["health","number","0"],["count","integer","0"],
                                               ["alarm","boolean","false"]])"));
        CHECK(ticks[1]["b"][1] == json_value::parse(R"(["count","integer","7"])"));
        CHECK_FALSE(ticks[0].contains("x"));
        CHECK(ticks[1]["x"] == "out of <ink>");
        CHECK(ticks[1]["e"].back() == json_value::parse("[3,2,0,0]"));
        CHECK(page.find("renderBoard(ticks[tick].b)") != std::string::npos);
        CHECK(page.find("out of <ink>") == std::string::npos);  // escaped in the data
    }

    TEST_CASE("a replay embeds a skipped result as status 4, and the viewer names it") {
        auto t = testing::runtime_tree(R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "RunOnce"},
            {"id": 3, "parentId": 2, "type": "AlwaysSuccess"},
            {"id": 4, "parentId": 1, "type": "AlwaysSuccess"}
        ]})");
        agent a(t);
        trace_recorder recorder(t, 10);
        a.set_observer(&recorder);
        a.tick(0.1);
        a.tick(0.1);
        const recorded_trace trace = recorder.recording();
        html_options options;
        options.replay = &trace;
        const std::string page = to_html(*t, options);
        const json_value ticks = page_data(page)["ticks"];
        REQUIRE(ticks.size() == 2);
        CHECK(ticks[1]["e"] ==
              json_value::parse("[[0,0,0,0],[0,1,0,0],[1,1,0,4],[0,3,0,0],[1,3,0,1],"
                                "[1,0,0,1]]"));
        // Status 4 is "skipped" in the page, and halts have an index of their own.
        CHECK(page.find(R"(var STATUS = ["idle", "success", "failure", "running", "skipped", )"
                        R"("halted"], HALTED = 5;)") != std::string::npos);
        CHECK(page.find(R"x(<span style="--c: var(--skipped)">skipped</span>)x") !=
              std::string::npos);
    }

    TEST_CASE("refuses a replay naming a node the tree does not have") {
        auto t = testing::runtime_tree(R"({"nodes": [{"id": 1, "type": "AlwaysSuccess"}]})");
        recorded_trace trace;
        trace.ticks.push_back(
            {1, 0, {{trace_event::kind::visit, status::idle, status::idle, 4}}, {}, {}});
        html_options options;
        options.replay = &trace;
        CHECK_THROWS_AS(to_html(*t, options), error);
    }

    TEST_CASE("groups subtrees and locates their nodes in the subtree's own file") {
        const fs::path dir = fs::temp_directory_path() / "canopy_html_test";
        fs::create_directories(dir / "parts");
        std::ofstream(dir / "main.json") << R"({"nodes": [
  {"id": 1, "type": "Sequence"},
  {"id": 2, "parentId": 1, "type": "SubTree", "params": {"file": "parts/post.json"}}
]})";
        std::ofstream(dir / "parts/post.json") << R"({"name": "Post", "nodes": [
  {"id": 1, "type": "Wait", "describe": "stand", "params": {"seconds": 1}}
]})";
        const load_result loaded = try_load_file(dir / "main.json", testing::test_registry());
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        html_options options;
        options.path = "trees/main.json";
        const json_value data = page_data(to_html(*loaded.tree, options));
        fs::remove_all(dir);
        CHECK(data["files"] ==
              json_value::parse(R"(["trees/main.json", "trees/parts/post.json"])"));
        const json_value& nodes = data["nodes"];
        REQUIRE(nodes.size() == 3);
        CHECK(nodes[1].size() == 10);  // a SubTree: its group's name last
        CHECK(nodes[1][9] == "parts/post.json");
        CHECK(nodes[1][8] ==
              json_value::parse(R"([["file", "\"parts/post.json\"", 0]])"));  // as written
        CHECK(nodes[1][5] == 0);
        CHECK(nodes[2][5] == 1);  // the Wait, read from parts/post.json
        CHECK(nodes[2][6] == 2);
    }
}

}  // namespace canopy
