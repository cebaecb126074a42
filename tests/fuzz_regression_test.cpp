// Every input the fuzzers found a bug with (tests/data/fuzz/, minimised) runs through the
// checks the harnesses make (fuzz/checks.hpp): its reader and writer, the whole load strict
// and lenient with the round trip, and load-then-tick. Each must be refused with a diagnostic
// or load, round-trip and tick keeping the runtime's promises.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "checks.hpp"
#include "test_support.hpp"

using namespace canopy;
namespace fs = std::filesystem;

namespace {

std::string file_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

}  // namespace

TEST_SUITE("fuzz regressions") {
    TEST_CASE("every input a fuzzer found a bug with is refused, or loads and ticks safely") {
        const fs::path folder = fs::path(CANOPY_SOURCE_DIR) / "tests" / "data" / "fuzz";
        int files = 0;
        for (const auto& entry : fs::directory_iterator(folder)) {
            if (entry.path().extension() == ".md") continue;  // the README
            CAPTURE(entry.path());
            const std::string text = file_text(entry.path());
            const std::optional<file_format> format = detect_format(entry.path(), text);
            REQUIRE(format);
            CHECK(fuzz::check_read(text, *format) == "");
            CHECK(fuzz::check_load(text, *format) == "");
            CHECK(fuzz::check_tick(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                                   *format) == "");
            ++files;
        }
        CHECK(files > 0);
    }

    TEST_CASE(
        "every example, fuzz input and real file converts to each format and reads back, "
        "or is refused saying why") {
        std::vector<fs::path> folders = {fs::path(CANOPY_SOURCE_DIR) / "data",
                                         fs::path(CANOPY_SOURCE_DIR) / "tests" / "data" / "fuzz"};
        const fs::path corpus = fs::path(CANOPY_SOURCE_DIR).parent_path() / "shared" / "corpus";
        if (fs::is_directory(corpus)) {
            folders.push_back(corpus / "btcpp-xml");
            folders.push_back(corpus / "behavior3-json");
        } else {
            MESSAGE("../shared/corpus is absent: real files are not converted");
        }
        int files = 0;
        for (const fs::path& folder : folders) {
            for (const auto& entry : fs::directory_iterator(folder)) {
                if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
                CAPTURE(entry.path());
                const std::string text = file_text(entry.path());
                const std::optional<file_format> format = detect_format(entry.path(), text);
                if (!format) continue;  // a file of another kind (a scenario)
                CHECK(fuzz::check_convert(text, *format) == "");
                ++files;
            }
        }
        CHECK(files > 20);
    }
}
