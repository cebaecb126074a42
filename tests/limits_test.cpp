// The bounds docs/formats.md ("Limits") promises a load keeps to, one case each: a file past
// a bound is refused with a located `limit-exceeded`, and one within it loads in bounded time.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "canopy/load/load.hpp"
#include "canopy/run/agent.hpp"
#include "test_support.hpp"

using namespace canopy;
using testing::only;
namespace fs = std::filesystem;

namespace {

// A file in the temporary folder, removed when the test ends.
class temp_file {
public:
    temp_file(const std::string& name, const std::string& text)
        : path_(fs::temp_directory_path() / name) {
        std::ofstream(path_, std::ios::binary) << text;
    }
    ~temp_file() {
        std::error_code ec;
        fs::remove(path_, ec);
    }
    temp_file(const temp_file&) = delete;
    temp_file& operator=(const temp_file&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_SUITE("limits") {
    TEST_CASE("a file larger than load_options::max_file_bytes is refused before it is read") {
        const registry reg = testing::test_registry();
        const std::string text =
            R"({"nodes": [{"id": 1, "type": "AlwaysSuccess"}]})" + std::string(200, ' ');
        load_options options;
        options.max_file_bytes = 100;
        SUBCASE("a file") {
            temp_file file("canopy_limits_large.json", text);
            const load_result result = try_load_file(file.path(), reg, options);
            const diagnostic d = only(result, diagnostic_code::limit_exceeded);
            CHECK(d.path == file.path().string());
            CHECK(d.message.find("load_options::max_file_bytes") != std::string::npos);
            options.max_file_bytes = text.size();
            CHECK(try_load_file(file.path(), reg, options));
        }
        SUBCASE("text in memory") {
            const load_result result =
                try_load_text(text, file_format::flat_json, reg, "t.json", options);
            CHECK(only(result, diagnostic_code::limit_exceeded).path == "t.json");
        }
        SUBCASE("a subtree file") {
            temp_file sub("canopy_limits_sub.json", text);
            const std::string main =
                R"({"nodes": [{"id": 1, "type": "SubTree", "params": {"file": ")" +
                sub.path().generic_string() + R"("}}]})";
            const load_result result =
                try_load_text(main, file_format::flat_json, reg, "t.json", options);
            // Reported as the subtree files a load cannot read are: at the file itself.
            CHECK(only(result, diagnostic_code::limit_exceeded).path == sub.path().string());
        }
    }

    TEST_CASE("an endless file (a device) is read only up to the size limit") {
        if (!fs::exists("/dev/zero")) return;
        load_options options;
        options.format = file_format::flat_json;
        options.max_file_bytes = 1 << 20;
        const auto start = std::chrono::steady_clock::now();
        const load_result result = try_load_file("/dev/zero", testing::test_registry(), options);
        CHECK(only(result, diagnostic_code::limit_exceeded).path == "/dev/zero");
        CHECK(seconds_since(start) < 10);
    }

    TEST_CASE("ids take the whole signed 64-bit range but 0, and anything past it is refused") {
        const std::string max = "9223372036854775807";
        const std::string min = "-9223372036854775808";
        const load_result in_range = testing::load_json(testing::json_tree(
            {R"({"id": )" + max + R"(, "type": "Sequence"})",
             R"({"id": )" + min + R"(, "parentId": )" + max + R"(, "type": "AlwaysSuccess"})"}));
        for (const diagnostic& d : in_range.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(in_range);
        CHECK(in_range.tree->record_id(1) == std::numeric_limits<std::int64_t>::min());
        const load_result past = testing::load_json(
            testing::json_tree({R"({"id": 9223372036854775808, "type": "AlwaysSuccess"})"}));
        REQUIRE(!past);
        CHECK(past.diagnostics.front().where.line == 2);
        const load_result huge = testing::load_xml(
            testing::xml_tree({R"(<node id="99999999999999999999999999" type="AlwaysSuccess"/>)"}));
        REQUIRE(!huge);
        CHECK(huge.diagnostics.front().where.line == 2);
    }

    TEST_CASE("a million siblings load, and a tick visits each once") {
        constexpr int siblings = 1'000'000;
        std::string text = "{\"nodes\": [\n{\"id\": 1, \"type\": \"Sequence\"}";
        text.reserve(static_cast<std::size_t>(siblings) * 50);
        for (int i = 2; i <= siblings + 1; ++i)
            text += ",\n{\"id\": " + std::to_string(i) +
                    ", \"parentId\": 1, \"type\": \"AlwaysSuccess\"}";
        text += "]}\n";
        const load_result result = testing::load_json(text);
        REQUIRE(result);
        CHECK(result.tree->child_count(0) == static_cast<std::size_t>(siblings));
        agent a(result.tree);
        CHECK(a.tick(0.1) == status::success);
    }

    TEST_CASE("XML entities are not expanded: a billion laughs costs its own size") {
        // tinyxml2 reads a DTD as an unknown node and expands only the five predefined
        // entities and character references, so &lol9; stays nine bytes of text.
        std::string dtd = "<?xml version=\"1.0\"?>\n<!DOCTYPE tree [\n<!ENTITY lol \"lol\">\n";
        for (int level = 1; level <= 9; ++level) {
            std::string entity = "<!ENTITY lol" + std::to_string(level) + " \"";
            for (int k = 0; k < 10; ++k)
                entity += "&lol" + (level == 1 ? std::string() : std::to_string(level - 1)) + ";";
            dtd += entity + "\">\n";
        }
        dtd += "]>\n";
        const auto start = std::chrono::steady_clock::now();
        SUBCASE("flat XML") {
            const load_result result = testing::load_xml(
                dtd + "<tree><node id=\"1\" type=\"AlwaysSuccess\" describe=\"&lol9;\"/></tree>\n");
            if (result) CHECK(result.tree->describe(0).size() < 100);
            if (!result) CHECK(result.diagnostics.front().where.line > 0);
        }
        SUBCASE("BehaviorTree.CPP XML") {
            const load_result result =
                try_load_text(dtd +
                                  "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><AlwaysSuccess "
                                  "name=\"&lol9;\"/></BehaviorTree></root>\n",
                              file_format::btcpp_xml, testing::test_registry(), "t.xml");
            if (result) CHECK(result.tree->describe(0).size() < 100);
            if (!result) CHECK(result.diagnostics.front().where.line > 0);
        }
        CHECK(seconds_since(start) < 5);
    }

    TEST_CASE("long strings cost their size: a 16 MB describe, a 1 MB unknown type name") {
        const registry reg = testing::test_registry();
        SUBCASE("describe") {
            const std::string describe(16 << 20, 'd');
            const load_result result = testing::load_json(testing::json_tree(
                {R"({"id": 1, "type": "AlwaysSuccess", "describe": ")" + describe + "\"}"}));
            REQUIRE(result);
            CHECK(result.tree->describe(0).size() == describe.size());
        }
        SUBCASE("unknown type name") {
            const auto start = std::chrono::steady_clock::now();
            const load_result result = testing::load_json(
                testing::json_tree({R"({"id": 1, "type": ")" + std::string(1 << 20, 'T') + "\"}"}));
            CHECK(only(result, diagnostic_code::unknown_type).where.line == 2);
            CHECK(seconds_since(start) < 5);
        }
    }
}
