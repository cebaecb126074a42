// Files of several trees and trees that use others: the main tree, subtrees by name and by
// file, key remapping, cycles, the expansion limit and lenient loading.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "canopy/canopy.hpp"
#include "runtime_support.hpp"

namespace canopy {
namespace {

namespace fs = std::filesystem;

load_result load_flat_json(const std::string& json, load_options options = {}) {
    return try_load_text(json, file_format::flat_json, testing::runtime_registry(), "t.json",
                         options);
}

std::shared_ptr<const tree> loaded_flat_json(const std::string& json, load_options options = {}) {
    load_result r = load_flat_json(json, std::move(options));
    for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
    REQUIRE(r);
    return r.tree;
}

// A folder of files for one test, removed after it.
struct temp_folder {
    fs::path path;
    explicit temp_folder(const std::string& name)
        : path(fs::temp_directory_path() / ("canopy_subtree_" + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~temp_folder() { fs::remove_all(path); }
    fs::path write(const std::string& name, const std::string& text) const {
        fs::create_directories((path / name).parent_path());
        std::ofstream(path / name) << text;
        return path / name;
    }
};

// Main uses "Count" twice: each use adds 1 to its own `n`, which the first use remaps to
// the main tree's `total` and the second keeps private.
const char* const two_uses = R"({
  "main_tree": "Main",
  "trees": [
    {"name": "Count",
     "blackboard": {"n": {"type": "integer", "default": 10}},
     "nodes": [
       {"id": 1, "parentId": 0, "type": "SetBlackboard", "params": {"key": "n", "value": 7}}
     ]},
    {"name": "Main",
     "blackboard": {"total": "integer"},
     "nodes": [
       {"id": 1, "parentId": 0, "type": "Sequence", "describe": "both"},
       {"id": 2, "parentId": 1, "type": "SubTree", "params": {"tree": "Count", "n": "{total}"}},
       {"id": 3, "parentId": 1, "type": "SubTree", "params": {"tree": "Count"}}
     ]}
  ]
})";

}  // namespace

TEST_SUITE("subtrees") {
    TEST_CASE("a subtree is put in place under a SubTree node, its keys remapped or private") {
        std::shared_ptr<const tree> t = loaded_flat_json(two_uses);
        CHECK(t->name() == "Main");
        CHECK(to_canopy_text(*t) ==
              "Sequence \"both\" #1\n"
              "  SubTree #2\n"
              "    SetBlackboard #4\n"
              "  SubTree #3\n"
              "    SetBlackboard #5\n");
        // The first use writes the main tree's key; the second, a key of its own that starts
        // with the subtree's default.
        std::vector<std::string> names;
        for (const blackboard_key& key : t->keys()) names.push_back(key.name);
        CHECK(names == std::vector<std::string>{"health", "count", "alarm", "total", "Count#2/n"});
        agent a(t);
        CHECK(a.blackboard().get<std::int64_t>("Count#2/n") == 10);
        CHECK(a.tick(0.1) == status::success);
        CHECK(a.blackboard().get<std::int64_t>("total") == 7);
        CHECK(a.blackboard().get<std::int64_t>("Count#2/n") == 7);
    }

    TEST_CASE("a literal remap starts the subtree's key, private to that use") {
        std::string json = two_uses;
        json.replace(json.find(R"("n": "{total}")"), 14, R"("n": 3)");
        std::shared_ptr<const tree> t = loaded_flat_json(json);
        agent a(t);
        CHECK(a.blackboard().get<std::int64_t>("Count#1/n") == 3);
        CHECK(a.blackboard().get<std::int64_t>("total") == 0);
    }

    TEST_CASE("the main tree: the one named, else the only one, else the only unused one") {
        CHECK(loaded_flat_json(two_uses)->name() == "Main");
        std::string unnamed = two_uses;
        unnamed.erase(unnamed.find(R"("main_tree": "Main",)"), 20);
        CHECK(loaded_flat_json(unnamed)->name() == "Main");  // Count is used by Main
        load_options count;
        count.tree = "Count";
        CHECK(to_canopy_text(*loaded_flat_json(unnamed, count)) == "SetBlackboard #1\n");

        const std::string two_unused = R"({"trees": [
            {"name": "A", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]},
            {"name": "B", "nodes": [{"id": 1, "type": "AlwaysFailure"}]}]})";
        diagnostic d = testing::only(load_flat_json(two_unused), diagnostic_code::no_main_tree);
        CHECK(d.message ==
              "the file holds 2 trees and does not say which one is the main tree; choose one "
              "of 'A', 'B'");
        CHECK(d.hint.command_line == "`--tree NAME`");
        CHECK(d.hint.api == "load_options::tree");
        load_options b;
        b.tree = "B";
        CHECK(to_canopy_text(*loaded_flat_json(two_unused, b)) == "AlwaysFailure #1\n");
        b.tree = "C";
        CHECK(testing::only(load_flat_json(two_unused, b), diagnostic_code::unknown_tree).message ==
              "no tree named 'C'; the file holds 'A', 'B'");

        std::string wrong_main = two_uses;
        wrong_main.replace(wrong_main.find(R"("Main",)"), 7, R"("Mian",)");
        d = testing::only(load_flat_json(wrong_main), diagnostic_code::unknown_tree);
        CHECK(d.message == "the main tree 'Mian' names no tree");
        CHECK(d.where == source_location{2, 16});
    }

    TEST_CASE("a SubTree naming no tree, or trees that use each other, are located errors") {
        std::string typo = two_uses;
        typo.replace(typo.find(R"("tree": "Count", "n")"), 15, R"("tree": "Cuont")");
        diagnostic d = testing::only(load_flat_json(typo), diagnostic_code::unknown_tree);
        CHECK(d.message ==
              "no tree named 'Cuont' in this file or the files it includes (did you mean "
              "'Count'?)");
        CHECK(d.where.line == 13);
        CHECK(d.record_id == 2);

        const std::string loop = R"({"main_tree": "A", "trees": [
            {"name": "A", "nodes": [{"id": 1, "type": "SubTree", "params": {"tree": "B"}}]},
            {"name": "B", "nodes": [{"id": 1, "type": "Not"},
                                    {"id": 2, "parentId": 1, "type": "SubTree",
                                     "params": {"tree": "A"}}]}]})";
        d = testing::only(load_flat_json(loop), diagnostic_code::subtree_cycle);
        CHECK(d.message == "trees use each other as subtrees in a loop: 'A' -> 'B' -> 'A'");
        CHECK(d.where.line == 4);
        CHECK(d.record_id == 2);

        const std::string self = R"({"trees": [{"name": "A", "nodes": [
            {"id": 1, "type": "SubTree", "params": {"tree": "A"}}]}]})";
        CHECK(testing::only(load_flat_json(self), diagnostic_code::subtree_cycle).message ==
              "trees use each other as subtrees in a loop: 'A' -> 'A'");
    }

    TEST_CASE("subtrees that would add too many nodes are refused, quickly") {
        // Each tree uses the next twice: 2^30 leaves from 30 short trees.
        std::string json = R"({"main_tree": "T0", "trees": [)";
        for (int level = 0; level < 30; ++level) {
            const std::string next = "T" + std::to_string(level + 1);
            json += R"({"name": "T)" + std::to_string(level) + R"(", "nodes": [
                {"id": 1, "type": "Sequence"},
                {"id": 2, "parentId": 1, "type": "SubTree", "params": {"tree": ")" +
                    next + R"("}},
                {"id": 3, "parentId": 1, "type": "SubTree", "params": {"tree": ")" +
                    next + R"("}}]},)";
        }
        json += R"({"name": "T30", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]}]})";
        diagnostic d = testing::only(load_flat_json(json), diagnostic_code::limit_exceeded);
        CHECK(d.message.find("subtrees add more than 1000000 nodes") == 0);
    }

    TEST_CASE("the depth limit holds for the tree with its subtrees in place") {
        // Each tree is 3 levels deep alone, and 30 levels deep once every use is put in place.
        std::string json = R"({"main_tree": "T0", "trees": [)";
        for (int level = 0; level < 10; ++level) {
            json += R"({"name": "T)" + std::to_string(level) + R"(", "nodes": [
                {"id": 1, "type": "Not"}, {"id": 2, "parentId": 1, "type": "Not"},
                {"id": 3, "parentId": 2, "type": "SubTree", "params": {"tree": "T)" +
                    std::to_string(level + 1) + R"("}}]},)";
        }
        json += R"({"name": "T10", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]}]})";
        load_options options;
        options.max_depth = 31;
        CHECK(load_flat_json(json, options));
        options.max_depth = 30;
        diagnostic d =
            testing::only(load_flat_json(json, options), diagnostic_code::limit_exceeded);
        CHECK(d.message.find("the tree is 31 levels deep") == 0);
        const auto last_line =
            static_cast<std::uint32_t>(std::count(json.begin(), json.end(), '\n') + 1);
        CHECK(d.where.line == last_line);  // T10's leaf, where it is written
    }

    TEST_CASE("ids so large that subtree nodes cannot be numbered after them are refused") {
        const std::string json = R"({"main_tree": "A", "trees": [
            {"name": "A", "nodes": [{"id": 9223372036854775807, "type": "SubTree",
                                     "params": {"tree": "B"}}]},
            {"name": "B", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]}]})";
        CHECK(testing::only(load_flat_json(json), diagnostic_code::limit_exceeded)
                  .message.find("leaves no room to number the nodes of its subtrees") !=
              std::string::npos);
    }

    TEST_CASE("a problem inside a subtree is reported where the subtree is written") {
        temp_folder folder("problem");
        folder.write("sub.json", R"({"name": "Sub", "blackboard": {"level": "string"},
  "nodes": [{"id": 5, "type": "Wait", "params": {"seconds": "{level}"}}]})");
        const fs::path main = folder.write("main.json", R"({"nodes": [
  {"id": 1, "type": "SubTree", "params": {"file": "sub.json"}}]})");
        load_result r = try_load_file(main, testing::runtime_registry());
        diagnostic d = testing::only(r, diagnostic_code::key_type_mismatch);
        CHECK(d.path == (folder.path / "sub.json").string());
        CHECK(d.where.line == 2);
        CHECK(d.record_id == 5);
    }

    TEST_CASE("a subtree by file: relative to the file that names it, its key types checked") {
        temp_folder folder("by_file");
        folder.write("parts/guard_post.json", R"({"name": "GuardPost",
  "blackboard": {"wait": {"type": "number", "default": 0.2}},
  "nodes": [{"id": 1, "type": "Wait", "params": {"seconds": "{wait}"}}]})");
        const fs::path main = folder.write("main.json", R"({"name": "Patrol",
  "blackboard": {"pause": {"type": "number", "default": 0.3}, "label": "string"},
  "nodes": [
    {"id": 1, "type": "Sequence"},
    {"id": 2, "parentId": 1, "type": "SubTree",
     "params": {"file": "parts/guard_post.json", "wait": "{pause}"}},
    {"id": 3, "parentId": 1, "type": "SubTree", "params": {"file": "parts/guard_post.json"}}
  ]})");
        load_result r = try_load_file(main, testing::runtime_registry());
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        agent a(r.tree);
        // 0.3 s then 0.2 s at 0.1 s a tick: 4 ticks, then 3, the second entered in the
        // first's last tick.
        CHECK(testing::run(a, 7) == "rrrrrsr");

        // A remap onto a key of another type is refused, at the SubTree that names it.
        std::ofstream(main) << R"({"blackboard": {"label": "string"}, "nodes": [
    {"id": 1, "type": "SubTree", "params": {"file": "parts/guard_post.json", "wait": "{label}"}}
  ]})";
        r = try_load_file(main, testing::runtime_registry());
        diagnostic d = testing::only(r, diagnostic_code::key_type_mismatch);
        CHECK(d.message ==
              "parameter 'seconds' of 'Wait' reads a number, but blackboard key 'label' holds "
              "a string");
        CHECK(d.path == (folder.path / "parts/guard_post.json").string());

        std::ofstream(main) << R"({"nodes": [
    {"id": 1, "type": "SubTree", "params": {"file": "parts/missing.json"}}]})";
        d = testing::only(try_load_file(main, testing::runtime_registry()),
                          diagnostic_code::io_error);
        CHECK(d.message == "subtree file 'parts/missing.json' not found beside this file");
        CHECK(d.where.line == 2);
    }

    TEST_CASE("a problem seen only with the subtree in place points at its parameter") {
        temp_folder folder("in_place");
        const std::string sub = R"({"name": "Post", "blackboard": {"wait": "number"},
  "nodes": [{"id": 7, "type": "Wait", "describe": "stand", "params": {"seconds": "{wait}"}}]})";
        folder.write("post.json", sub);
        const fs::path main = folder.write("main.json", R"({"blackboard": {"label": "string"},
  "nodes": [{"id": 1, "type": "SubTree", "params": {"file": "post.json", "wait": "{label}"}}]})");
        diagnostic d = testing::only(try_load_file(main, testing::runtime_registry()),
                                     diagnostic_code::key_type_mismatch);
        CHECK(d.path == (folder.path / "post.json").string());
        CHECK(d.record_id == 7);
        const std::size_t line_start = sub.find('\n') + 1;
        CHECK(d.where == source_location{2, static_cast<std::uint32_t>(sub.find(R"("seconds")") -
                                                                       line_start + 1)});
    }

    TEST_CASE("a remap of a key the subtree does not have is a typo where keys are declared") {
        std::string typo = two_uses;
        typo.replace(typo.find(R"("n": "{total}")"), 14, R"("m": "{total}")");
        diagnostic d = testing::only(load_flat_json(typo), diagnostic_code::unknown_key);
        CHECK(d.message == "the subtree has no blackboard key 'm' to remap (did you mean 'n'?)");
    }

    TEST_CASE("a type that names a tree of the file is a use of that tree") {
        std::shared_ptr<const tree> t = loaded_flat_json(R"({"main_tree": "Main", "trees": [
            {"name": "Blink", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]},
            {"name": "Main", "nodes": [{"id": 1, "type": "Sequence"},
                                       {"id": 2, "parentId": 1, "type": "Blink"}]}]})");
        CHECK(to_canopy_text(*t) == "Sequence #1\n  SubTree #2\n    AlwaysSuccess #3\n");
        CHECK(t->params(1).get<std::string>("tree") == "Blink");
    }

    TEST_CASE("{@key} is the main tree's key, from any subtree") {
        std::shared_ptr<const tree> t = loaded_flat_json(R"({"main_tree": "Main", "trees": [
            {"name": "Arm", "nodes": [{"id": 1, "type": "SetBlackboard",
                                       "params": {"key": "{@armed}", "value": true}}]},
            {"name": "Main", "blackboard": {"armed": "boolean"},
             "nodes": [{"id": 1, "type": "SubTree", "params": {"tree": "Arm"}}]}]})");
        agent a(t);
        a.tick(0.1);
        CHECK(a.blackboard().get<bool>("armed"));
    }

    TEST_CASE("a Groot2 project opens like the trees its files hold, which see each other") {
        temp_folder folder("project");
        folder.write("main.xml", R"(<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Sequence><Sleep msec="100"/><SubTree ID="Helper"/></Sequence></BehaviorTree></root>)");
        folder.write("parts/helper.xml", R"(<root BTCPP_format="4">
  <BehaviorTree ID="Helper"><AlwaysSuccess/></BehaviorTree></root>)");
        const fs::path project =
            folder.write("demo.btproj", R"(<root BTCPP_format="4" project_name="demo">
  <include path="main.xml"/><include path="parts/helper.xml"/><TreeNodesModel/></root>)");
        load_result r = try_load_file(project, testing::runtime_registry());
        for (const diagnostic& d : r.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(r);
        CHECK(to_canopy_text(*r.tree) ==
              "Sequence #1\n  Wait #2\n  SubTree #3\n    AlwaysSuccess #4\n");
        file_load_result all = try_load_every_tree(project, testing::runtime_registry());
        REQUIRE(all);
        CHECK(all.trees.size() == 2);
        // Two trees that nothing uses: the project says neither is the main one.
        folder.write("parts/helper.xml", R"(<root BTCPP_format="4">
  <BehaviorTree ID="Helper"><AlwaysSuccess/></BehaviorTree>
  <BehaviorTree ID="Spare"><AlwaysFailure/></BehaviorTree></root>)");
        CHECK(testing::only(try_load_file(project, testing::runtime_registry()),
                            diagnostic_code::no_main_tree)
                  .message ==
              "the files this project includes hold 2 trees that no other tree uses; choose "
              "one of 'Main', 'Spare'");
    }

    TEST_CASE("every tree of a file is checked, used or not") {
        temp_folder folder("every");
        const fs::path file = folder.write("trees.json", R"({"main_tree": "A", "trees": [
  {"name": "A", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]},
  {"name": "Unused", "nodes": [{"id": 1, "type": "Sequnce"}]}]})");
        CHECK(try_load_file(file, testing::runtime_registry()));
        file_load_result all = try_load_every_tree(file, testing::runtime_registry());
        CHECK_FALSE(all);
        CHECK(testing::only({nullptr, all.diagnostics}, diagnostic_code::unknown_type).where.line ==
              3);
        std::ofstream(file) << R"({"trees": [{"name": "A", "nodes": [{"id": 1, "type": "Not"},
            {"id": 2, "parentId": 1, "type": "SubTree", "params": {"tree": "B"}}]},
            {"name": "B", "nodes": [{"id": 1, "type": "AlwaysFailure"}]}]})";
        all = try_load_every_tree(file, testing::runtime_registry());
        REQUIRE(all);
        REQUIRE(all.trees.size() == 2);
        CHECK(all.trees[0].first == "A");
        CHECK(all.trees[0].second->size() == 3);
        CHECK(all.trees[1].first == "B");
    }

    TEST_CASE("flat XML holds several trees too, and both flat formats write them back") {
        const std::string xml = R"(<trees main_tree="Main">
  <tree name="Count"><blackboard><key name="n" type="integer" default="10"/></blackboard>
    <node id="1" type="SetBlackboard"><params key="n" value="7"/></node></tree>
  <tree name="Main"><blackboard><key name="total" type="integer"/></blackboard>
    <node id="1" type="Sequence" describe="both"/>
    <node id="2" parentId="1" type="SubTree"><params tree="Count" n="{total}"/></node>
    <node id="3" parentId="1" type="SubTree"><params tree="Count"/></node></tree>
</trees>)";
        load_result from_xml =
            try_load_text(xml, file_format::flat_xml, testing::runtime_registry(), "t.xml");
        for (const diagnostic& d : from_xml.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(from_xml);
        CHECK(to_canopy_text(*from_xml.tree) == to_canopy_text(*loaded_flat_json(two_uses)));
        for (file_format format : {file_format::flat_json, file_format::flat_xml}) {
            read_result read = read_records(two_uses, file_format::flat_json, "t.json");
            REQUIRE(read.diagnostics.empty());
            const std::string written = info(format).write(read.document).text;
            CAPTURE(written);
            load_result again =
                try_load_text(written, format, testing::runtime_registry(), "again");
            for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(again);
            CHECK(to_canopy_text(*again.tree) == to_canopy_text(*from_xml.tree));
        }
    }

    TEST_CASE("a tree with subtrees written from memory holds them, and reads back the same") {
        std::shared_ptr<const tree> t = loaded_flat_json(two_uses);
        for (file_format format : {file_format::flat_json, file_format::flat_xml}) {
            const std::string written = write_text(*t, format);
            CAPTURE(written);
            load_result again =
                try_load_text(written, format, testing::runtime_registry(), "again");
            for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(again);
            CHECK(to_canopy_text(*again.tree) == to_canopy_text(*t));
            agent a(again.tree);
            a.tick(0.1);
            CHECK(a.blackboard().get<std::int64_t>("total") == 7);
        }
    }

    TEST_CASE("lenient loading learns unknown types from models or from their shape") {
        const std::string json = R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "ComputePath", "params": {"goal": "{goal}"}},
            {"id": 3, "parentId": 1, "type": "GoalGuard", "params": {"radius": 2.5}},
            {"id": 4, "parentId": 3, "type": "Wait", "params": {"seconds": 5}}]})";
        load_result strict = load_flat_json(json);
        REQUIRE(strict.diagnostics.size() == 2);
        CHECK(strict.diagnostics[0].message == "unknown node type 'ComputePath'");
        CHECK(strict.diagnostics[1].code == diagnostic_code::unknown_type);
        load_options lenient;
        lenient.lenient = true;
        std::shared_ptr<const tree> t = loaded_flat_json(json, lenient);
        CHECK(to_canopy_text(*t) == "Sequence #1\n  ComputePath #2\n  GoalGuard #3\n    Wait #4\n");
        CHECK(t->type(2).arity == arity::decorator);
        CHECK(t->type(1).arity == arity::leaf);
        CHECK(t->object(3) != nullptr);  // the program's Wait, not a learned one
        CHECK(t->keys().back().name == "goal");
        CHECK_THROWS_AS(agent{t}, error);
        // A case slip is a typo, not a type of another program.
        std::string miscased = json;
        miscased.replace(miscased.find("\"Sequence\""), 10, "\"sequence\"");
        CHECK(testing::only(load_flat_json(miscased, lenient), diagnostic_code::unknown_type)
                  .message == "unknown node type 'sequence' (did you mean 'Sequence'?)");
    }

    TEST_CASE("a stub gives learned types a behaviour: the tree runs, their children never") {
        // GoalGuard, learned as a decorator, stands in with the stub's status and never ticks
        // the program's Wait below it; ComputePath likewise.
        const std::string json = R"({"nodes": [
            {"id": 1, "type": "Sequence"},
            {"id": 2, "parentId": 1, "type": "ComputePath", "params": {"goal": "{goal}"}},
            {"id": 3, "parentId": 1, "type": "GoalGuard", "params": {"radius": 2.5}},
            {"id": 4, "parentId": 3, "type": "WaitTicks", "params": {"ticks": 5}}]})";
        for (const status stub : {status::success, status::failure, status::running}) {
            CAPTURE(to_string(stub));
            load_options options;
            options.lenient = true;
            options.stub = stub;
            std::shared_ptr<const tree> t = loaded_flat_json(json, options);
            CHECK(to_canopy_text(*t) ==
                  "Sequence #1\n  ComputePath #2\n  GoalGuard #3\n    WaitTicks #4\n");
            agent a(t);
            CHECK(a.tick(0.1) == stub);
            CHECK(a.last_status(3) == status::idle);  // WaitTicks, never ticked
            CHECK(a.tick(0.1) == stub);               // running: still, until halted
        }
        // Without lenient there is nothing learned to stub: the strict load's refusal stands.
        load_options strict;
        strict.stub = status::success;
        CHECK_FALSE(load_flat_json(json, strict));
    }

    TEST_CASE("lenient loading learns only what is unknown: known types are checked strictly") {
        load_options lenient;
        lenient.lenient = true;
        // A parameter a known type does not take.
        const std::string bogus = R"({"nodes": [{"id": 1, "type": "Sequence",
            "params": {"bogus": "1"}}, {"id": 2, "parentId": 1, "type": "ComputePath"}]})";
        for (const load_options& options : {load_options{}, lenient}) {
            const load_result r = load_flat_json(bogus, options);
            CHECK_FALSE(r);
            bool found = false;
            for (const diagnostic& d : r.diagnostics) {
                found = found || (d.code == diagnostic_code::unknown_param && d.record_id == 1);
            }
            CHECK(found);
        }
        // Another program's parameter names on a known type.
        const load_result wait = load_flat_json(R"({"nodes": [{"id": 1, "type": "Wait",
            "params": {"wait_duration": 5}}]})",
                                                lenient);
        REQUIRE(wait.diagnostics.size() == 2);
        CHECK(wait.diagnostics[0].message ==
              "node 1 ('Wait') needs parameter 'seconds' (a number)");
        CHECK(wait.diagnostics[1].message ==
              "'Wait' has no parameter 'wait_duration'; it takes: seconds");
        // Children and cases that do not match: a Switch3 with six cases and seven children.
        std::string cases;
        for (int k = 1; k <= 6; ++k)
            cases += ", \"case_" + std::to_string(k) + "\": \"" + std::to_string(k) + "\"";
        std::string children;
        for (int k = 2; k <= 8; ++k)
            children +=
                R"(, {"id": )" + std::to_string(k) + R"(, "parentId": 1, "type": "AlwaysSuccess"})";
        const std::string switch_json = R"({"nodes": [{"id": 1, "type": "Switch3", "params":
            {"variable": "state")" + cases +
                                        "}}" + children + "]}";
        const load_result strict_switch = load_flat_json(switch_json);
        const load_result lenient_switch = load_flat_json(switch_json, lenient);
        CHECK_FALSE(strict_switch);
        CHECK_FALSE(lenient_switch);
        // Lenient declares the key `state` by its use; every other problem is the same.
        std::vector<std::string> strict_text;
        for (const diagnostic& d : strict_switch.diagnostics) {
            if (d.code != diagnostic_code::unknown_key) strict_text.push_back(to_string(d));
        }
        std::vector<std::string> lenient_text;
        for (const diagnostic& d : lenient_switch.diagnostics) lenient_text.push_back(to_string(d));
        CHECK(lenient_text == strict_text);
        CHECK_FALSE(lenient_text.empty());
    }
}

}  // namespace canopy
