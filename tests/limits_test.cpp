// The bounds docs/formats.md ("Limits") promises a load keeps to, one case each: a file past
// a bound is refused with a located `limit-exceeded`, and one within it loads in bounded time.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

#include "canopy/load/load.hpp"
#include "canopy/run/agent.hpp"
#include "test_support.hpp"

using namespace canopy;
using testing::only;
using testing::temp_file;
namespace fs = std::filesystem;

namespace {

// A named pipe that a thread writes `text` into, then closes, or, when `endless`, follows
// with blanks until the reader closes it: a stream without a size, as a pipe or a device is.
class fifo {
public:
    fifo(const std::string& name, std::string text, bool endless)
        : path_(fs::temp_directory_path() / name) {
        fs::remove(path_);
        REQUIRE(::mkfifo(path_.c_str(), 0600) == 0);
        writer_ = std::thread([this, text = std::move(text), endless] {
            const int out = ::open(path_.c_str(), O_WRONLY);
            if (out < 0) return;
            bool open = write_all(out, text);
            const std::string blanks(1 << 16, ' ');
            while (open && endless) open = write_all(out, blanks);
            ::close(out);
        });
    }
    ~fifo() {
        writer_.join();
        std::error_code ec;
        fs::remove(path_, ec);
    }
    fifo(const fifo&) = delete;
    fifo& operator=(const fifo&) = delete;
    const fs::path& path() const { return path_; }

private:
    // False once the reader has gone (EPIPE: SIGPIPE is ignored while the tests run).
    static bool write_all(int out, std::string_view bytes) {
        while (!bytes.empty()) {
            const ssize_t wrote = ::write(out, bytes.data(), bytes.size());
            if (wrote <= 0) return false;
            bytes.remove_prefix(static_cast<std::size_t>(wrote));
        }
        return true;
    }

    fs::path path_;
    std::thread writer_;
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

    TEST_CASE("an endless stream of text that could still be a tree is read only up to the limit") {
        // Blanks for ever: every byte could still be followed by a tree, so only the limit
        // stops the reading.
        fifo stream("canopy_limits_blanks.json", "", true);
        load_options options;
        options.max_file_bytes = 1 << 20;
        const auto start = std::chrono::steady_clock::now();
        const load_result result = try_load_file(stream.path(), testing::test_registry(), options);
        CHECK(only(result, diagnostic_code::limit_exceeded).path == stream.path().string());
        CHECK(seconds_since(start) < 10);
    }

    TEST_CASE("a stream is read only until its bytes are refused, whatever would follow") {
        // With the default limit of 1 GiB, a stream read to the limit would be refused as
        // limit-exceeded; each is refused at its first bytes instead, by its format's reader.
        const registry reg = testing::test_registry();
        load_options options;
        SUBCASE("NUL bytes read as JSON") {
            if (!fs::exists("/dev/zero")) return;
            options.format = file_format::flat_json;
            const diagnostic d =
                only(try_load_file("/dev/zero", reg, options), diagnostic_code::syntax_error);
            CHECK(d.where.line == 1);
            CHECK(d.where.column == 1);
        }
        SUBCASE("NUL bytes read as XML") {
            if (!fs::exists("/dev/zero")) return;
            options.format = file_format::btcpp_xml;
            only(try_load_file("/dev/zero", reg, options), diagnostic_code::syntax_error);
        }
        SUBCASE("random bytes read as XML") {
            if (!fs::exists("/dev/urandom")) return;
            options.format = file_format::flat_xml;
            only(try_load_file("/dev/urandom", reg, options), diagnostic_code::invalid_utf8);
        }
        SUBCASE("an open stream, as standard input is") {
            std::FILE* zeros = std::fopen("/dev/zero", "rb");
            if (zeros == nullptr) return;
            const load_result result = try_load_stream(zeros, file_format::behavior3, reg);
            std::fclose(zeros);
            CHECK(only(result, diagnostic_code::syntax_error).path == "<stdin>");
        }
        SUBCASE("JSON that goes wrong after its first bytes") {
            fifo stream("canopy_limits_wrong.json", R"({"nodes": [{"id": 1, "type": "Wait"}] ] )",
                        true);
            const diagnostic d =
                only(try_load_file(stream.path(), reg, options), diagnostic_code::syntax_error);
            CHECK(d.where.column == 39);  // the second closing bracket
        }
    }

    TEST_CASE("a stream of a valid tree longer than what is read at once loads") {
        std::string text = R"({"nodes": [{"id": 1, "type": "Sequence"})";
        for (int id = 2; id <= 5000; ++id) {
            text += R"(, {"id": )" + std::to_string(id) +
                    R"(, "parentId": 1, "type": "AlwaysSuccess", "describe": "a leaf among many"})";
        }
        text += "]}";
        REQUIRE(text.size() > 4 * 65536);
        fifo stream("canopy_limits_valid.json", text, false);
        const load_result result = try_load_file(stream.path(), testing::test_registry());
        REQUIRE(result);
        CHECK(result.tree->size() == 5000);
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
        CHECK(result.tree->size() == static_cast<std::size_t>(siblings) + 1);
        CHECK(result.tree->child_count(0) == static_cast<std::size_t>(siblings));
        CHECK(result.tree->where(siblings) ==
              source_location{static_cast<std::uint32_t>(siblings + 2), 1});
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
