// Trees as Graphviz DOT: every tree in data/ (and one with subtrees) drawn by Graphviz's own
// `dot`, which must parse it and place every node and edge. Skipped, saying why, where dot is
// not installed (scripts/install-deps.sh installs it).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "canopy/canopy.hpp"
#include "test_support.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;

bool have_dot() {
    return std::system("command -v dot >/dev/null 2>&1") == 0;
}

// Graphviz's plain output of a graph: its "node NAME ..." and "edge FROM TO ..." lines.
struct placed {
    std::set<std::string> nodes;
    std::size_t edges = 0;
    bool ok = false;
};

placed draw(const std::string& graph) {
    const fs::path in = fs::temp_directory_path() / "canopy_dot_test.dot";
    const fs::path out = fs::temp_directory_path() / "canopy_dot_test.plain";
    std::ofstream(in) << graph;
    placed result;
    const std::string command =
        "dot -Tplain '" + in.string() + "' -o '" + out.string() + "' 2>/dev/null";
    result.ok = std::system(command.c_str()) == 0;
    std::ifstream plain(out);
    for (std::string line; std::getline(plain, line);) {
        std::istringstream words(line);
        std::string kind;
        std::string name;
        words >> kind >> name;
        if (kind == "node") result.nodes.insert(name);
        if (kind == "edge") ++result.edges;
    }
    fs::remove(in);
    fs::remove(out);
    return result;
}

std::vector<fs::path> drawn_files() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(fs::path(CANOPY_SOURCE_DIR) / "data")) {
        if (format_for_path(entry.path())) files.push_back(entry.path());
    }
    files.push_back(fs::path(CANOPY_SOURCE_DIR) / "tests/data/subtrees/patrol.json");
    return files;
}

}  // namespace

TEST_SUITE("dot") {
    TEST_CASE("every tree in data/ draws with Graphviz, every node and edge placed") {
        if (!have_dot()) {
            MESSAGE(
                "skipped: Graphviz's dot is not installed (scripts/install-deps.sh installs it)");
            return;
        }
        registry reg = testing::test_registry();
        for (const fs::path& file : drawn_files()) {
            CAPTURE(file);
            load_result loaded = try_load_file(file, reg);
            REQUIRE(loaded);
            const tree& t = *loaded.tree;
            const placed drawn = draw(to_dot(t));
            CHECK(drawn.ok);
            CHECK(drawn.nodes.size() == t.size());
            for (tree::index i = 0; i < t.size(); ++i) {
                CHECK(drawn.nodes.count("n" + std::to_string(i)) == 1);
            }
            CHECK(drawn.edges == t.size() - 1);
        }
    }

    TEST_CASE("labels say type, describe, parameters and id; subtrees are clusters") {
        load_result loaded =
            try_load_file(fs::path(CANOPY_SOURCE_DIR) / "tests/data/subtrees/patrol.json",
                          testing::test_registry());
        REQUIRE(loaded);
        const std::string graph = to_dot(*loaded.tree);
        CHECK(graph.find(
                  R"(n0 [shape=box, label="Sequence\n\"two posts, then count a round\"\n#1"];)") !=
              std::string::npos);
        CHECK(graph.find("subgraph cluster_1 {\n    style=dashed; label=\"Post\";") !=
              std::string::npos);
        // The file's words: the subtree's key as its file names it, not as the loader renamed
        // it (Post#1/wait), and a SubTree's remapping.
        CHECK(graph.find(R"(seconds = {wait})") != std::string::npos);
        CHECK(graph.find("Post#1") == std::string::npos);
        CHECK(
            graph.find(
                R"(n1 [shape=folder, label="SubTree\n\"the gate\"\ntree = \"Post\"\nwait = 0.2\n#2"];)") !=
            std::string::npos);
        CHECK(graph.find(R"(key = \"rounds\"\nvalue = 1)") != std::string::npos);
    }

    TEST_CASE("a BehaviorTree.CPP file is drawn in its own words") {
        load_result loaded = try_load_file(
            fs::path(CANOPY_SOURCE_DIR) / "tests/data/views/btcpp.xml", testing::test_registry());
        REQUIRE(loaded);
        const std::string graph = to_dot(*loaded.tree);
        CHECK(graph.find(R"(n1 [shape=box, style=rounded, label="Sleep\nmsec = \"1000\"\n#2"];)") !=
              std::string::npos);
        CHECK(
            graph.find(
                R"(n2 [shape=hexagon, label="RetryUntilSuccessful\nnum_attempts = \"3\"\n#3"];)") !=
            std::string::npos);
        CHECK(graph.find(R"(label="Sleep\nmsec = {@pause}\n#4")") != std::string::npos);
        // The SubTree as written: its ID, its remapping and its condition.
        CHECK(
            graph.find(
                R"(label="SubTree\n\"reload\"\nID = \"Reload\"\nmagazine = {ammo}\n_skipIf = \"ammo > 3\"\n#5")") !=
            std::string::npos);
        CHECK(graph.find(R"(label="Sleep\nmsec = {magazine}\n#6")") != std::string::npos);
        // Canopy's words nowhere.
        CHECK(graph.find("Wait") == std::string::npos);
        CHECK(graph.find("seconds") == std::string::npos);
        CHECK(graph.find("\\nattempts =") == std::string::npos);
        CHECK(graph.find("{pause}") == std::string::npos);
    }

    TEST_CASE("a behavior3 file is drawn in its own words") {
        load_result loaded =
            try_load_file(fs::path(CANOPY_SOURCE_DIR) / "tests/data/views/behavior3.json",
                          testing::test_registry());
        REQUIRE(loaded);
        const std::string graph = to_dot(*loaded.tree);
        CHECK(graph.find(R"(label="Wait\ntime = 0.5\n#2")") != std::string::npos);
        CHECK(graph.find(R"(label="Repeat\ncount = 2\n#3")") != std::string::npos);
        CHECK(graph.find(R"(label="Log\nmessage = \"again\"\n#4")") != std::string::npos);
        CHECK(graph.find(R"(label="Let\nvalue = 3\noutput1 = {n}\n#5")") != std::string::npos);
        CHECK(graph.find("behavior3.") == std::string::npos);
    }

    TEST_CASE("a parameter's name may hold spaces and '=' as a JSON file writes it") {
        const std::string json =
            R"([{"id": 1, "type": "Odd", "params": {"a b": 1, "c=d": "x y", "e": "{k}"}}])";
        load_options options;
        options.lenient = true;
        load_result loaded = try_load_text(json, file_format::flat_json, testing::test_registry(),
                                           "odd.json", options);
        REQUIRE(loaded);
        const std::string graph = to_dot(*loaded.tree);
        CHECK(graph.find(R"(label="Odd\na b = 1\nc=d = \"x y\"\ne = {k}\n#1")") !=
              std::string::npos);
    }

    TEST_CASE("quotes, backslashes and line breaks in a describe stay inside its label") {
        const std::string json =
            R"([{"id": 1, "type": "AlwaysSuccess", "describe": "a \"b\" \\ c\nd"}])";
        load_result loaded =
            try_load_text(json, file_format::flat_json, testing::test_registry(), "t.json");
        REQUIRE(loaded);
        const std::string graph = to_dot(*loaded.tree);
        CHECK(graph.find(R"(\"a \"b\" \\ c\nd\")") != std::string::npos);
        if (have_dot()) CHECK(draw(graph).ok);
    }

    TEST_CASE("a tree 10,000 levels deep writes without recursion") {
        std::string json = R"([{"id": 1, "type": "AlwaysSuccess", "parentId": 2})";
        for (int id = 2; id <= 10000; ++id) {
            json += R"(, {"id": )" + std::to_string(id) + R"(, "type": "Not", "parentId": )" +
                    std::to_string(id == 10000 ? 0 : id + 1) + "}";
        }
        json += "]";
        load_result loaded =
            try_load_text(json, file_format::flat_json, testing::test_registry(), "deep.json");
        REQUIRE(loaded);
        const std::string graph = to_dot(*loaded.tree);
        CHECK(graph.find("n9999 [shape=box, style=rounded") != std::string::npos);
    }
}

}  // namespace canopy
