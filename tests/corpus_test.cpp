// Real tree files written by others (../shared/corpus, see its SOURCES.md): each one loads,
// leniently where its program's node types are unknown here, and prints, or is refused with a
// located error that names its real defect; and each one that loads converts to every format
// and back with the same print. Skipped, saying why, where the corpus is absent (a user's
// clone has no ../shared).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "canopy/canopy.hpp"
#include "test_support.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;
using testing::corpus_folder;

// The built-ins and behavior3's family, made once for all the corpus's files.
const registry& corpus_registry() {
    static const registry reg = [] {
        registry r;
        register_builtin_nodes(r);
        register_behavior3_nodes(r);
        return r;
    }();
    return reg;
}

// What a file gives: its trees load as they are, or only leniently, or never (with the first
// diagnostic's code, line and a piece of its message), or it is a palette of node models.
struct expectation {
    enum kind { loads, lenient, refused, palette } what;
    diagnostic_code code = diagnostic_code::syntax_error;
    std::uint32_t line = 0;
    std::string message;
};

expectation loads() {
    return {expectation::loads, {}, 0, {}};
}
expectation lenient() {
    return {expectation::lenient, {}, 0, {}};
}
expectation palette() {
    return {expectation::palette, {}, 0, {}};
}
expectation refused(diagnostic_code code, std::uint32_t line, std::string message) {
    return {expectation::refused, code, line, std::move(message)};
}

const std::map<std::string, expectation>& expectations() {
    static const std::map<std::string, expectation> table = {
        {"btcpp-xml/BehaviorTree__BehaviorTree.CPP__Check.xml", lenient()},
        {"btcpp-xml/BehaviorTree__BehaviorTree.CPP__Talk.xml", lenient()},
        {"btcpp-xml/BehaviorTree__BehaviorTree.CPP__log_test.xml", loads()},
        // Its includes stand under other names here; layouts/ has them where they belong.
        {"btcpp-xml/BehaviorTree__BehaviorTree.CPP__subtree_test.xml",
         refused(diagnostic_code::io_error, 3, "Check.xml': cannot open")},
        {"btcpp-xml/BehaviorTree__Groot__crossdoor_palette.xml", palette()},
        {"btcpp-xml/BehaviorTree__Groot__crossdoor_with_subtree.xml", lenient()},
        // Uses a subtree whose tree the file models but does not hold.
        {"btcpp-xml/BehaviorTree__Groot__custom_ports.xml",
         refused(diagnostic_code::unknown_tree, 7, "no tree named 'LotOfStuff'")},
        {"btcpp-xml/BehaviorTree__Groot__issue_24.xml", lenient()},
        {"btcpp-xml/BehaviorTree__Groot__issue_3.xml",
         refused(diagnostic_code::no_root, 3, "is empty")},
        // SetBlackboard output_key="": BehaviorTree.CPP fails at its first tick.
        {"btcpp-xml/BehaviorTree__Groot__show_all.xml",
         refused(diagnostic_code::wrong_param_type, 22, "it is empty")},
        {"btcpp-xml/BehaviorTree__Groot__subtree_with_remapping.xml", lenient()},
        {"btcpp-xml/BehaviorTree__Groot__test_subtrees_issue_8.xml", lenient()},
        {"btcpp-xml/BehaviorTree__Groot__test_xml_key_reordering_issue.xml", lenient()},
        {"btcpp-xml/PlanSys2__ros2_planning_system_examples__transport.xml", lenient()},
        // Version 3's Parallel ports in a file without BTCPP_format, which BehaviorTree.CPP
        // 4.10 reads as version 4 and refuses.
        {"btcpp-xml/aerostack2__aerostack2__RTL_test_2.xml",
         refused(diagnostic_code::unknown_param, 10, "write 'failure_count'")},
        {"btcpp-xml/aerostack2__aerostack2__follow_path_test.xml", lenient()},
        {"btcpp-xml/ros-navigation__navigation2__application_example.xml",
         refused(diagnostic_code::unknown_type, 22,
                 "unknown node type 'inverter' (did you mean 'Inverter'?)")},
        {"btcpp-xml/"
         "ros-navigation__navigation2__humble-v3__navigate_to_pose_w_replanning_and_recovery.xml",
         lenient()},
        {"btcpp-xml/ros-navigation__navigation2__nav2_tree_nodes.xml", palette()},
        // Newer Nav2's Wait has output ports error_code_id and error_msg, which Canopy's Wait
        // lacks: another program's node of that name, which lenient loading learns.
        {"btcpp-xml/ros-navigation__navigation2__navigate_on_route_graph_w_recovery.xml",
         lenient()},
        {"btcpp-xml/"
         "ros-navigation__navigation2__navigate_through_poses_w_replanning_and_recovery.xml",
         lenient()},
        {"btcpp-xml/ros-navigation__navigation2__navigate_to_pose_w_replanning_and_recovery.xml",
         lenient()},
        {"behavior3-json/Dennis1000__behavior3delphi__example_1.b3", lenient()},
        // Its own Wait takes `time` and `timer`, where behavior3js's takes `milliseconds`: the
        // program's own node of that name, which lenient loading learns. A Repeater's maxLoop
        // is "1e999", which JavaScript reads as for ever.
        {"behavior3-json/MechWipf__my_screeps__allrounder.json", lenient()},
        {"behavior3-json/MechWipf__my_screeps__harvester-energy.json", lenient()},
        {"behavior3-json/dong50252409__behavior3erl__example.json", lenient()},
        {"behavior3-json/dong50252409__behavior3erl__sample.json", lenient()},
        {"behavior3-json/zhandouxiaojiji__behavior3editor__hero.json", lenient()},
        // Its subtrees stand under other names here; layouts/ has them where they belong.
        {"behavior3-json/zhandouxiaojiji__behavior3editor__monster.json",
         refused(diagnostic_code::io_error, 25, "subtree file 'workdir/subtree2.json' not found")},
        {"behavior3-json/zhandouxiaojiji__behavior3editor__node-config.b3-setting", palette()},
        {"behavior3-json/zhandouxiaojiji__behavior3editor__subtree1.json", loads()},
        {"behavior3-json/zhandouxiaojiji__behavior3editor__subtree2.json", lenient()},
        {"behavior3-json/zhandouxiaojiji__behavior3editor__test-subtree.json", loads()},
        {"behavior3-json/zhandouxiaojiji__behavior3editor__test-vars.json",
         // behavior3-ts defines Listen as a decorator of one child, which node 12 lacks (the
         // subtree file it names is missing too). Its Check reads `target[0].x`: fine.
         refused(diagnostic_code::decorator_child_count, 99,
                 "'Listen' is a decorator and takes exactly one child")},
        {"behavior3-json/zhandouxiaojiji__behavior3lua__test-parallel-with-wait.json", lenient()},
        // behavior3-ts's own test trees: the behavior3 family runs them.
        {"behavior3-json/zhongfq__behavior3-ts__test-switch-case.json", loads()},
        {"behavior3-json/zhongfq__behavior3-ts__test-timeout.json", loads()},
        {"layouts/behavior3editor-sample/workdir/hero.json", lenient()},
        {"layouts/behavior3editor-sample/workdir/monster.json", lenient()},
        {"layouts/behavior3editor-sample/workdir/subtree1.json", loads()},
        {"layouts/behavior3editor-sample/workdir/subtree2.json", lenient()},
        {"layouts/btcpp-subtree-test/Check.xml", lenient()},
        {"layouts/btcpp-subtree-test/subtree_test.xml", lenient()},
        {"layouts/btcpp-subtree-test/subtrees/Talk.xml", lenient()},
    };
    return table;
}

// Every tree file of the corpus, by its path from the corpus root.
std::vector<std::string> corpus_files() {
    std::vector<std::string> files;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(corpus_folder())) {
        if (!entry.is_regular_file() || !format_for_path(entry.path())) continue;
        files.push_back(fs::relative(entry.path(), corpus_folder()).generic_string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Each tree's print, by name.
std::map<std::string, std::string> prints(const file_load_result& loaded) {
    std::map<std::string, std::string> all;
    for (const auto& [name, t] : loaded.trees) all[name] = to_canopy_text(*t);
    return all;
}

std::string shown(const std::vector<diagnostic>& diagnostics) {
    std::string text;
    for (const diagnostic& d : diagnostics) text += to_string(d) + "\n";
    return text;
}

// What converting gives: each tree's print, by name, from every file written; or the
// problems the target format reported (then nothing is written).
struct written_trees {
    std::map<std::string, std::string> prints;
    std::vector<diagnostic> problems;
};

// Writes a document in a format into `folder` (a copy of the original's, so that its includes
// and subtree files are found as they were) and loads every tree of every file it wrote.
written_trees converted(const tree_document& document, file_format format, const fs::path& folder,
                        const std::string& stem, const load_options& options) {
    written_trees result;
    const write_result written = info(format).write(document);
    result.problems = written.problems;
    if (!written.problems.empty()) {
        for (const diagnostic& d : written.problems)
            CHECK(d.code == diagnostic_code::not_expressible);
        return result;
    }
    for (const fs::path& path : testing::write_files(written, format, folder, stem)) {
        const file_load_result again = try_load_every_tree(path, corpus_registry(), options);
        CHECK_MESSAGE(again, shown(again.diagnostics));
        for (const auto& [name, text] : prints(again)) result.prints[name] = text;
    }
    return result;
}

}  // namespace

TEST_SUITE("corpus") {
    TEST_CASE("every corpus file loads and prints, or is refused naming its real defect") {
        if (!fs::is_directory(corpus_folder())) {
            MESSAGE("skipped: no corpus at " << corpus_folder().string()
                                             << " (it ships beside the repository, not in it)");
            return;
        }
        std::size_t checked = 0;
        for (const std::string& name : corpus_files()) {
            CAPTURE(name);
            auto expected = expectations().find(name);
            REQUIRE_MESSAGE(expected != expectations().end(),
                            "a corpus file the test does not know");
            const fs::path path = corpus_folder() / name;
            const file_load_result strict = try_load_every_tree(path, corpus_registry());
            load_options lenient;
            lenient.lenient = true;
            const file_load_result learned = try_load_every_tree(path, corpus_registry(), lenient);
            switch (expected->second.what) {
                case expectation::loads: CHECK_MESSAGE(strict, shown(strict.diagnostics)); break;
                case expectation::lenient:
                    CHECK_FALSE(strict);
                    for (const diagnostic& d : strict.diagnostics) {
                        CHECK_MESSAGE((d.code == diagnostic_code::unknown_type ||
                                       d.code == diagnostic_code::unknown_param ||
                                       d.code == diagnostic_code::missing_param),
                                      to_string(d));
                    }
                    CHECK_MESSAGE(learned, shown(learned.diagnostics));
                    CHECK_FALSE(learned.trees.empty());
                    break;
                case expectation::refused: {
                    REQUIRE_FALSE(learned);
                    const diagnostic& first = learned.diagnostics.front();
                    CHECK(first.code == expected->second.code);
                    CHECK(first.where.line == expected->second.line);
                    CHECK_MESSAGE(first.message.find(expected->second.message) != std::string::npos,
                                  first.message);
                    break;
                }
                case expectation::palette: {
                    CHECK(learned.diagnostics.front().code == diagnostic_code::no_root);
                    std::vector<diagnostic> problems;
                    const registry models = learn_node_types(path, corpus_registry(), problems);
                    CHECK(problems.empty());
                    CHECK(models.types().size() > 3);
                    break;
                }
            }
            ++checked;
        }
        CHECK(checked == expectations().size());
    }

    TEST_CASE("every loadable corpus file converts to every format and back, printing the same") {
        if (!fs::is_directory(corpus_folder())) {
            MESSAGE("skipped: no corpus at " << corpus_folder().string());
            return;
        }
        const fs::path scratch = fs::temp_directory_path() / "canopy_corpus_round_trip";
        std::set<std::string> inexpressible;  // "file -> format" that the format refused
        for (const std::string& name : corpus_files()) {
            const expectation& expected = expectations().at(name);
            if (expected.what != expectation::loads && expected.what != expectation::lenient)
                continue;
            CAPTURE(name);
            load_options options;
            options.lenient = expected.what == expectation::lenient;
            const fs::path path = corpus_folder() / name;
            const std::map<std::string, std::string> before =
                prints(try_load_every_tree(path, corpus_registry(), options));
            const document_load_result original =
                try_load_document(path, corpus_registry(), options);
            REQUIRE(original);
            std::ifstream in(path, std::ios::binary);
            const std::string content{std::istreambuf_iterator<char>(in),
                                      std::istreambuf_iterator<char>()};
            const file_format own = *detect_format(path, content);
            for (const format_info& row : formats()) {
                CAPTURE(row.name);
                fs::remove_all(scratch);
                fs::create_directories(scratch);
                fs::copy(path.parent_path(), scratch, fs::copy_options::recursive);
                const std::string stem = "converted";
                const written_trees there =
                    converted(original.document, row.id, scratch, stem, options);
                if (!there.problems.empty()) {
                    inexpressible.insert(name + " -> " + std::string(row.name));
                    continue;
                }
                CHECK(there.prints == before);
                // And back, from what was written, to the format the file came in.
                const document_load_result written =
                    try_load_document(scratch / (stem + std::string(row.extensions.front())),
                                      corpus_registry(), options);
                CHECK_MESSAGE(written, shown(written.diagnostics));
                if (!written) continue;
                const written_trees back =
                    converted(written.document, own, scratch, stem + "_back", options);
                CHECK_MESSAGE(back.problems.empty(), shown(back.problems));
                // The trees of the file written back (a format of one tree per file names
                // the others by file, written the first time), each as it was.
                CHECK_FALSE(back.prints.empty());
                for (const auto& [tree, text] : back.prints) {
                    const std::string tree_name =
                        tree;  // a copy: doctest's lambda cannot capture a binding
                    CAPTURE(tree_name);
                    CHECK(before.count(tree) == 1);
                    if (before.count(tree) == 1) CHECK(text == before.at(tree));
                }
            }
        }
        fs::remove_all(scratch);
        // What the target cannot say is reported, never dropped: these are the conversions
        // it refuses, each for the reason in its note.
        std::set<std::string> expected = {
            // Subtrees with blackboards of their own, or remapped keys: a behavior3 subtree
            // shares its parent's variables.
            "btcpp-xml/BehaviorTree__BehaviorTree.CPP__log_test.xml -> behavior3",
            "btcpp-xml/BehaviorTree__Groot__crossdoor_with_subtree.xml -> behavior3",
            "btcpp-xml/BehaviorTree__Groot__subtree_with_remapping.xml -> behavior3",
            "btcpp-xml/BehaviorTree__Groot__test_subtrees_issue_8.xml -> behavior3",
            "btcpp-xml/BehaviorTree__Groot__test_xml_key_reordering_issue.xml -> behavior3",
            // Subtrees from included files: behavior3 has no includes.
            "layouts/btcpp-subtree-test/subtree_test.xml -> behavior3",
            // TestB3 has an argument `name`, which BehaviorTree.CPP keeps for the node's name.
            "layouts/behavior3editor-sample/workdir/monster.json -> BehaviorTree.CPP XML",
            // Trees titled with spaces ("A behavior tree"), which BehaviorTree.CPP 4.10
            // refuses as a tree's ID.
            "behavior3-json/Dennis1000__behavior3delphi__example_1.b3 -> BehaviorTree.CPP XML",
            "behavior3-json/MechWipf__my_screeps__allrounder.json -> BehaviorTree.CPP XML",
            "behavior3-json/MechWipf__my_screeps__harvester-energy.json -> BehaviorTree.CPP XML",
        };
        // Nav2's own Wait and the screeps bot's are written to Canopy's formats as models of
        // namesakes (docs/formats.md, "Node models"): they convert, and read back the same.
        for (const std::string& refused : inexpressible) MESSAGE("not expressible: " << refused);
        CHECK(inexpressible == expected);
    }
}

}  // namespace canopy
