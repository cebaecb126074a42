#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_support.hpp"

using namespace canopy;
using testing::only;
using testing::source_dir;
using testing::temp_file;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The first lines where two texts differ, as a small unified-style diff for the failure report.
std::string line_diff(const std::string& expected, const std::string& actual) {
    std::istringstream a(expected);
    std::istringstream b(actual);
    std::string line_a;
    std::string line_b;
    std::string diff;
    for (int line = 1; diff.size() < 2000; ++line) {
        bool more_a = static_cast<bool>(std::getline(a, line_a));
        bool more_b = static_cast<bool>(std::getline(b, line_b));
        if (!more_a && !more_b) break;
        if (more_a && more_b && line_a == line_b) continue;
        diff += "line " + std::to_string(line) + ":\n";
        if (more_a) diff += "- " + line_a + "\n";
        if (more_b) diff += "+ " + line_b + "\n";
    }
    return diff;
}

std::vector<fs::path> data_files() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(source_dir / "data")) {
        if (format_for_path(entry.path())) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_SUITE("loader") {
    TEST_CASE("every tree in data/ loads and prints as its golden file says") {
        std::vector<fs::path> files = data_files();
        REQUIRE(files.size() >= 2);
        for (const fs::path& file : files) {
            CAPTURE(file);
            fs::path golden = source_dir / "tests/data/golden" / (file.stem().string() + ".txt");
            REQUIRE(fs::exists(golden));
            std::shared_ptr<const tree> t = load_file(file, testing::test_registry());
            std::string expected = read_text(golden);
            std::string actual = to_canopy_text(*t);
            INFO("diff (- golden, + printed):\n" << line_diff(expected, actual));
            CHECK(actual == expected);
        }
    }

    TEST_CASE("each tree in data/ says the same in JSON and in XML") {
        for (const fs::path& file : data_files()) {
            if (file.extension() != ".json") continue;
            fs::path twin = fs::path(file).replace_extension(".xml");
            CAPTURE(twin);
            REQUIRE(fs::exists(twin));
            registry reg = testing::test_registry();
            std::shared_ptr<const tree> json = load_file(file, reg);
            std::shared_ptr<const tree> xml = load_file(twin, reg);
            CHECK(to_canopy_text(*json) == to_canopy_text(*xml));
            CHECK(json->name() == xml->name());
            for (tree::index i = 0; i < json->size(); ++i) {
                param_list a = json->params(i);
                param_list b = xml->params(i);
                REQUIRE(a.size() == b.size());
                for (std::size_t k = 0; k < a.size(); ++k) {
                    CHECK(a.begin()[k].value == b.begin()[k].value);
                    CHECK(a.begin()[k].key == b.begin()[k].key);  // the same blackboard binding
                }
            }
            REQUIRE(json->keys().size() == xml->keys().size());
            for (std::size_t k = 0; k < json->keys().size(); ++k) {
                CHECK(json->keys()[k].name == xml->keys()[k].name);
                CHECK(json->keys()[k].type == xml->keys()[k].type);
                CHECK(json->keys()[k].initial == xml->keys()[k].initial);
            }
        }
    }

    TEST_CASE("load_file throws a load_error holding every diagnostic") {
        temp_file file("canopy_test_two_problems.json",
                       "[{\"id\": 1, \"type\": \"Sequnce\"},\n{\"id\": 1, \"parentId\": 1, "
                       "\"type\": \"Wander\"}]");
        try {
            load_file(file.path(), testing::test_registry());
            FAIL("load_file returned");
        } catch (const load_error& e) {
            REQUIRE(e.diagnostics().size() == 2);
            CHECK(e.diagnostics()[0].code == diagnostic_code::unknown_type);
            CHECK(e.diagnostics()[1].code == diagnostic_code::duplicate_id);
            CHECK(e.diagnostics()[0].path == file.path().string());
            std::string what = e.what();
            CHECK(what == to_string(e.diagnostics()[0]) + "\n" + to_string(e.diagnostics()[1]));
            load_error copy = e;  // copies share the diagnostics
            CHECK(&copy.diagnostics() == &e.diagnostics());
        }
    }

    TEST_CASE("the format table has a row per format, found by extension and by content") {
        std::vector<file_format> ids;
        for (const format_info& row : formats()) {
            ids.push_back(row.id);
            CHECK(info(row.id).name == row.name);
            CHECK_FALSE(row.extensions.empty());
        }
        CHECK(ids == std::vector<file_format>{file_format::flat_json, file_format::flat_xml,
                                              file_format::btcpp_xml, file_format::behavior3});
        CHECK(format_for_path("trees/pet.JSON") == file_format::flat_json);
        CHECK(format_for_path("pet.xml") == file_format::flat_xml);
        CHECK_FALSE(format_for_path("pet.yaml"));
        CHECK_FALSE(format_for_path("pet"));
        // Every file in data/ is claimed by the row its extension names.
        for (const fs::path& file : data_files()) {
            CAPTURE(file);
            const std::string text = read_text(file);
            const format_info& row = info(*format_for_path(file));
            CHECK(row.claims(text));
            CHECK(detect_format(file, text) == row.id);
        }
        CHECK(info(file_format::flat_json).claims(" \n[{\"id\": 1}]"));
        CHECK_FALSE(info(file_format::flat_json).claims("<tree/>"));
        CHECK(info(file_format::flat_xml).claims("\xEF\xBB\xBF<?xml version=\"1.0\"?><tree/>"));
        CHECK(info(file_format::flat_xml).claims("<!-- several --><trees main_tree=\"a\"/>"));
        CHECK_FALSE(info(file_format::flat_xml).claims("<root BTCPP_format=\"4\"/>"));
        // Flat JSON's records are an array; behavior3 keys its nodes by id, or nests them.
        CHECK(info(file_format::flat_json).claims(R"({"trees": [{"name": "a", "nodes": []}]})"));
        CHECK_FALSE(info(file_format::flat_json).claims(R"({"title": "a", "nodes": {}})"));
        CHECK_FALSE(info(file_format::flat_json).claims(R"({"name": "a", "root": {"id": 1}})"));
        CHECK_FALSE(info(file_format::flat_json).claims(R"({"trees": [{"nodes": {}}]})"));
    }

    TEST_CASE("read_file reads any file whole, bytes as they are, and says why it cannot") {
        const std::string bytes("\0\xff{not json<", 12);
        temp_file file("canopy_test_bytes.bin", bytes);
        const file_read_result read = read_file(file.path());
        REQUIRE(read);
        CHECK(*read.text == bytes);
        CHECK(read.problem.empty());
        const file_read_result missing = read_file("no/such/file.txt");
        CHECK_FALSE(missing);
        CHECK(missing.problem == "cannot open: No such file or directory");
        CHECK(read_file(fs::temp_directory_path()).problem == "cannot read: it is a directory");
        const file_read_result large = read_file(file.path(), 11);
        CHECK_FALSE(large);
        CHECK(large.problem ==
              "the file is larger than 11 bytes, the limit load_options::max_file_bytes sets; "
              "raise it to load the file");
    }

    TEST_CASE("reports a missing path, a directory and an unknown extension") {
        registry reg = testing::test_registry();
        SUBCASE("missing") {
            diagnostic d = only(try_load_file("no/such/tree.json", reg), diagnostic_code::io_error);
            CHECK(to_string(d) ==
                  "no/such/tree.json: error: cannot open: No such file or directory");
        }
        SUBCASE("a directory") {
            fs::path dir = fs::temp_directory_path() / "canopy_test_dir.json";
            fs::create_directories(dir);
            CHECK(only(try_load_file(dir, reg), diagnostic_code::io_error).message ==
                  "cannot read: it is a directory");
            fs::remove(dir);
        }
        SUBCASE("an unknown extension") {
            temp_file file("canopy_test_tree.yaml", "nodes: []");
            CHECK(only(try_load_file(file.path(), reg), diagnostic_code::unknown_format).message ==
                  "unknown file extension '.yaml'; expected .json (flat JSON or behavior3), .xml "
                  "(flat XML or BehaviorTree.CPP XML), .btproj (BehaviorTree.CPP XML), .b3 "
                  "(behavior3), .b3-setting (behavior3)");
        }
        SUBCASE("the extension's case does not matter") {
            temp_file file("canopy_test_upper.JSON", "[{\"id\": 1, \"type\": \"Wander\"}]");
            CHECK(try_load_file(file.path(), reg));
        }
    }

    TEST_CASE(
        "survives thousands of corrupted files: a tree or diagnostics, never both, never a crash") {
        registry reg = testing::test_registry();
        std::uint64_t state = 42;
        auto next = [&state] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return state;
        };
        int trees = 0;
        int refused = 0;
        for (const fs::path& file : data_files()) {
            const std::string original = read_text(file);
            const file_format format = *format_for_path(file);
            for (int round = 0; round < 1500; ++round) {
                std::string text = original;
                for (int edits = 1 + static_cast<int>(next() % 4); edits > 0; --edits) {
                    std::size_t at = next() % text.size();
                    switch (next() % 4) {
                        case 0: text[at] = static_cast<char>(next() & 0xFF); break;
                        case 1: text.erase(at, 1 + next() % 8); break;
                        case 2: text.insert(at, 1, "{}[]<>\"/=,:0-9aZ"[next() % 16]); break;
                        default: text.resize(at); break;
                    }
                    if (text.empty()) text = " ";
                }
                load_result r = try_load_text(text, format, reg, "fuzz");
                CHECK((r.tree == nullptr) != r.diagnostics.empty());
                (r ? trees : refused)++;
            }
        }
        CHECK(refused > 0);  // the corruption did reach the checks
    }
}
