// Checks a team runs in CI: lenient loading's warnings for likely typos, a palette of node
// models (load_options::model_files), files read as one program (load_options::registered_files),
// and where diagnostics point: hints for their reader, and the include that pulled a file in.
#include <filesystem>
#include <fstream>

#include "test_support.hpp"

using namespace canopy;
using testing::builtin_registry;
using testing::scratch_folder;
namespace fs = std::filesystem;

namespace {

const fs::path checks = fs::path(CANOPY_SOURCE_DIR) / "tests" / "data" / "checks";

std::vector<diagnostic> of_code(const std::vector<diagnostic>& all, diagnostic_code code) {
    std::vector<diagnostic> found;
    for (const diagnostic& d : all) {
        if (d.code == code) found.push_back(d);
    }
    return found;
}

}  // namespace

TEST_SUITE("load checks") {
    TEST_CASE("lenient loading warns at a node type one edit from a name the file may mean") {
        const registry reg = builtin_registry();
        load_options options;
        options.lenient = true;
        const load_result loaded = try_load_file(checks / "typos.xml", reg, options);
        REQUIRE(loaded);  // warnings only
        const std::vector<diagnostic> warned =
            of_code(loaded.diagnostics, diagnostic_code::unknown_type);
        REQUIRE(warned.size() == 3);
        for (const diagnostic& d : warned) CHECK(d.severity == diagnostic_severity::warning);
        // A built-in alias in the file's words, a built-in, and a type the file models.
        CHECK(warned[0].where.line == 3);
        CHECK(warned[0].message.find("'Fallbak'") != std::string::npos);
        CHECK(warned[0].message.find("(did you mean 'Fallback'?)") != std::string::npos);
        CHECK(warned[1].where.line == 4);
        CHECK(warned[1].message.find("(did you mean 'ReactiveSequence'?)") != std::string::npos);
        CHECK(warned[2].where.line == 5);
        CHECK(warned[2].record_id.has_value());
        CHECK(warned[2].message.find("(did you mean 'GripperCommand'?)") != std::string::npos);
        // MoveArm is near nothing: another program's node, learned quietly.
        CHECK(std::none_of(loaded.diagnostics.begin(), loaded.diagnostics.end(),
                           [](const diagnostic& d) { return d.where.line == 6; }));

        SUBCASE("and fails on them with warnings_as_errors") {
            options.warnings_as_errors = true;
            const load_result strict = try_load_file(checks / "typos.xml", reg, options);
            CHECK_FALSE(strict);
            CHECK(of_code(strict.diagnostics, diagnostic_code::unknown_type).size() == 3);
            CHECK(has_errors(strict.diagnostics));
        }
    }

    TEST_CASE("lenient loading refuses a port a type's model lacks, naming the nearest") {
        const registry reg = builtin_registry();
        load_options options;
        options.lenient = true;
        const load_result loaded = try_load_file(checks / "port_typo.xml", reg, options);
        CHECK_FALSE(loaded);
        const std::vector<diagnostic> refused =
            of_code(loaded.diagnostics, diagnostic_code::unknown_param);
        REQUIRE(refused.size() == 1);
        CHECK(refused[0].where.line == 3);
        CHECK(refused[0].message.find("'postion'") != std::string::npos);
        CHECK(refused[0].message.find("did you mean 'position'") != std::string::npos);
    }

    TEST_CASE("a palette of node models makes its types known, with their ports only") {
        const registry reg = builtin_registry();
        load_options options;
        options.model_files.push_back(checks / "palette.xml");

        SUBCASE("a tree of the palette's types loads strictly") {
            const load_result loaded = try_load_file(checks / "grasp.xml", reg, options);
            REQUIRE(loaded);
            CHECK(loaded.diagnostics.empty());
            CHECK(loaded.tree->size() == 4);
            // Without the palette its types are unknown.
            const load_result without = try_load_file(checks / "grasp.xml", reg);
            CHECK(of_code(without.diagnostics, diagnostic_code::unknown_type).size() == 3);
        }
        SUBCASE("a misspelt type or port, or an undeclared type, is an error where it stands") {
            const load_result loaded = try_load_file(checks / "grasp_mistakes.xml", reg, options);
            CHECK_FALSE(loaded);
            const std::vector<diagnostic> types =
                of_code(loaded.diagnostics, diagnostic_code::unknown_type);
            REQUIRE(types.size() == 2);
            CHECK(types[0].where.line == 4);
            CHECK(types[0].message.find("did you mean 'GripperCommand'") != std::string::npos);
            CHECK(types[1].where.line == 6);
            CHECK(types[1].message.find("'MoveArm'") != std::string::npos);
            const std::vector<diagnostic> ports =
                of_code(loaded.diagnostics, diagnostic_code::unknown_param);
            REQUIRE(ports.size() == 1);
            CHECK(ports[0].where.line == 5);
            CHECK(ports[0].message.find("did you mean 'position'") != std::string::npos);
        }
        SUBCASE("lenient loading learns the rest and warns at the near miss") {
            options.lenient = true;
            const load_result loaded = try_load_file(checks / "grasp_mistakes.xml", reg, options);
            const std::vector<diagnostic> types =
                of_code(loaded.diagnostics, diagnostic_code::unknown_type);
            REQUIRE(types.size() == 1);
            CHECK(types[0].severity == diagnostic_severity::warning);
            CHECK(types[0].where.line == 4);
            // The port the palette's model lacks stays an error.
            CHECK(of_code(loaded.diagnostics, diagnostic_code::unknown_param).size() == 1);
        }
    }

    TEST_CASE("registered files are one program: their trees are subtrees by name") {
        const registry reg = builtin_registry();
        const load_result alone = try_load_file(checks / "program" / "main.xml", reg);
        CHECK_FALSE(alone);
        const bool unknown = !of_code(alone.diagnostics, diagnostic_code::unknown_tree).empty() ||
                             !of_code(alone.diagnostics, diagnostic_code::unknown_type).empty();
        CHECK(unknown);

        SUBCASE("a folder") {
            load_options options;
            options.registered_files.push_back(checks / "program");
            const load_result loaded = try_load_file(checks / "program" / "main.xml", reg, options);
            REQUIRE(loaded);
            CHECK(loaded.tree->size() == 6);  // Sequence, two SubTrees and what they hold
        }
        SUBCASE("files one by one") {
            load_options options;
            options.registered_files = {checks / "program" / "approach.xml",
                                        checks / "program" / "grip.xml"};
            CHECK(try_load_file(checks / "program" / "main.xml", reg, options));
        }
        SUBCASE("a problem in a registered file is located in it") {
            load_options options;
            options.registered_files.push_back(checks / "broken_program");
            const load_result loaded =
                try_load_file(checks / "broken_program" / "main.xml", reg, options);
            CHECK_FALSE(loaded);
            const std::vector<diagnostic> arity =
                of_code(loaded.diagnostics, diagnostic_code::decorator_child_count);
            REQUIRE(arity.size() == 1);
            CHECK(fs::path(arity[0].path).filename() == "approach.xml");
            CHECK(arity[0].where.line == 5);
        }
        SUBCASE("a folder without tree files is reported") {
            scratch_folder empty;
            load_options options;
            options.registered_files.push_back(empty.path);
            const load_result loaded = try_load_file(checks / "program" / "main.xml", reg, options);
            CHECK_FALSE(loaded);
            CHECK(std::any_of(
                loaded.diagnostics.begin(), loaded.diagnostics.end(),
                [](const diagnostic& d) { return d.message == "the folder holds no tree file"; }));
        }
    }

    TEST_CASE("a problem in an included file notes each include that led to it") {
        const registry reg = builtin_registry();
        const load_result loaded = try_load_file(checks / "includes_broken.xml", reg);
        CHECK_FALSE(loaded);
        const std::vector<diagnostic> arity =
            of_code(loaded.diagnostics, diagnostic_code::decorator_child_count);
        REQUIRE(arity.size() == 1);
        const diagnostic& d = arity[0];
        CHECK(fs::path(d.path).filename() == "level2.xml");
        CHECK(d.where.line == 5);
        REQUIRE(d.notes.size() == 2);
        CHECK(fs::path(d.notes[0].path).filename() == "level1.xml");
        CHECK(d.notes[0].where.line == 3);
        CHECK(d.notes[0].message.find("level2.xml' is included here") != std::string::npos);
        CHECK(fs::path(d.notes[1].path).filename() == "includes_broken.xml");
        CHECK(d.notes[1].where.line == 2);
        // Each note is a line of its own after the diagnostic.
        const std::string text = to_string(d);
        CHECK(text.find("level2.xml:5: error: ") != std::string::npos);
        CHECK(text.find("\n" + d.notes[0].path + ":3: note: ") != std::string::npos);
        CHECK(text.find("\n" + d.notes[1].path + ":2: note: ") != std::string::npos);
        // And the exception carries them.
        try {
            (void)load_file(checks / "includes_broken.xml", reg);
            FAIL("no load_error");
        } catch (const load_error& e) {
            CHECK(std::string(e.what()).find("level1.xml:3: note: ") != std::string::npos);
        }
    }

    TEST_CASE("a hint is said in the C++ API's words or the command line's") {
        diagnostic d{"t.xml",      {3, 0},
                     std::nullopt, diagnostic_code::no_main_tree,
                     "choose one", diagnostic_severity::error};
        d.hint = {"load_options::tree", "`--tree NAME`"};
        CHECK(to_string(d) == "t.xml:3: error: choose one (load_options::tree)");
        CHECK(to_string(d, hint_audience::command_line) ==
              "t.xml:3: error: choose one (`--tree NAME`)");
        d.hint.command_line.clear();
        CHECK(to_string(d, hint_audience::command_line) == "t.xml:3: error: choose one");

        const registry reg = builtin_registry();
        const load_result loaded =
            try_load_file(fs::path(CANOPY_SOURCE_DIR) / "tests/data/subtrees/two_mains.xml", reg);
        const std::vector<diagnostic> chosen =
            of_code(loaded.diagnostics, diagnostic_code::no_main_tree);
        REQUIRE(chosen.size() == 1);
        CHECK(chosen[0].message.find("--tree") == std::string::npos);
        CHECK(chosen[0].hint.api == "load_options::tree");
        CHECK(to_string(chosen[0]).find("(load_options::tree)") != std::string::npos);
    }
}
