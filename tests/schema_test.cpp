// The JSON Schema of flat JSON, checked by an independent validator (python3-jsonschema):
// every tree in data/ passes it, and files with a misspelled key, a wrong type or an unknown
// node type fail it. Skipped, saying why, where the validator is not installed
// (scripts/install-deps.sh installs it).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "canopy/canopy.hpp"
#include "test_support.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;

bool have_validator() {
    return std::system("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0;
}

// Whether python3-jsonschema finds `document` valid against `schema` (both files).
bool valid(const fs::path& schema, const fs::path& document) {
    const std::string command =
        "python3 -c 'import json, sys, jsonschema; "
        "s = json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(s); "
        "jsonschema.Draft202012Validator(s).validate(json.load(open(sys.argv[2])))' '" +
        schema.string() + "' '" + document.string() + "' >/dev/null 2>&1";
    return std::system(command.c_str()) == 0;
}

struct scratch {
    // One folder per process: test runs of two builds at once must not share it.
    fs::path folder =
        fs::temp_directory_path() / ("canopy_schema_test_" + std::to_string(::getpid()));
    scratch() {
        fs::remove_all(folder);
        fs::create_directories(folder);
    }
    ~scratch() { fs::remove_all(folder); }
    fs::path write(const std::string& name, const std::string& text) const {
        std::ofstream(folder / name) << text;
        return folder / name;
    }
};

}  // namespace

TEST_SUITE("schema") {
    TEST_CASE("every tree in data/ passes the schema; misspellings and wrong types fail it") {
        if (!have_validator()) {
            MESSAGE(
                "skipped: python3-jsonschema is not installed (scripts/install-deps.sh "
                "installs it)");
            return;
        }
        scratch files;
        const fs::path schema =
            files.write("canopy.schema.json", json_schema(testing::test_registry()));
        std::vector<fs::path> good = {fs::path(CANOPY_SOURCE_DIR) /
                                      "tests/data/subtrees/patrol.json"};
        for (const auto& entry : fs::directory_iterator(fs::path(CANOPY_SOURCE_DIR) / "data")) {
            if (entry.path().extension() == ".json") good.push_back(entry.path());
        }
        for (const fs::path& file : good) {
            CAPTURE(file);
            CHECK(valid(schema, file));
        }
        // The same as the loader accepts, with "$schema" naming the schema.
        const std::string named = R"({"$schema": "canopy.schema.json", "nodes": [
            {"id": 1, "type": "Fallback"},
            {"id": 2, "parentId": 1, "type": "Wait", "params": {"seconds": "{delay}"}},
            {"id": 3, "parentId": 1, "type": 4}]})";
        CHECK(valid(schema, files.write("named.json", named)));
        CHECK(try_load_text(named, file_format::flat_json, testing::test_registry(), "named.json")
                  .diagnostics.size() == 1);  // only the undeclared key, which no schema sees
        const std::vector<std::pair<const char*, std::string>> bad = {
            {"a misspelled record key", R"([{"id": 1, "parentid": 0, "type": "Wander"}])"},
            {"a misspelled top-level key", R"({"node": [{"id": 1, "type": "Wander"}]})"},
            {"an id that is not an integer", R"([{"id": "one", "type": "Wander"}])"},
            {"id 0", R"([{"id": 0, "type": "Wander"}])"},
            {"an unknown node type", R"([{"id": 1, "type": "Sequnce"}])"},
            {"an unknown parameter", R"([{"id": 1, "type": "Wait", "params": {"secnds": 1}}])"},
            {"a missing parameter", R"([{"id": 1, "type": "Wait"}])"},
            {"a parameter of the wrong type",
             R"([{"id": 1, "type": "Wait", "params": {"seconds": "soon"}}])"},
            {"parameters for a type that takes none",
             R"([{"id": 1, "type": "Wander", "params": {"speed": 2}}])"},
            {"a key of no type",
             R"({"blackboard": {"hp": "float"}, "nodes": [{"id": 1, "type": "Wander"}]})"},
        };
        for (const auto& [what, text] : bad) {
            const std::string reason = what;
            CAPTURE(reason);
            CHECK_FALSE(valid(schema, files.write("bad.json", text)));
        }
    }

    TEST_CASE("the schema names every type, alias and id with its arity and parameters") {
        const std::string schema = json_schema(testing::test_registry());
        CHECK(schema.find(R"("$schema": "https://json-schema.org/draft/2020-12/schema")") !=
              std::string::npos);
        CHECK(schema.find(R"("const": "Fallback")") != std::string::npos);
        CHECK(schema.find(R"x("description": "leaf; seconds: number (required)")x") !=
              std::string::npos);
        CHECK(schema.find(R"("const": "SubTree")") != std::string::npos);
    }
}

}  // namespace canopy
