// Conversions that read back: canopy::convert_file checks what it would write before it
// writes, and Canopy's own formats say what other runtimes' files need (rules, node models,
// namesakes, projects). Files live in memory (load_options::files_in_memory), under a folder
// that does not exist.
#include <canopy/views/convert.hpp>
#include <filesystem>

#include "test_support.hpp"

using namespace canopy;
using namespace canopy::testing;
namespace fs = std::filesystem;

namespace {

const fs::path folder = "/nonexistent-canopy-test";

// A robot program's tree: its own `Wait` (not Canopy's, as Nav2's is not), a node of its
// own, keys its ports make.
const char* program_tree = R"(<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <SetBlackboard value="42" output_key="answer"/>
      <PlanPath goal="{goal}" path="{path}" planner="grid"/>
      <Wait wait_duration="5.0" error_key="{wait_error}"/>
      <Script code="tries := 1"/>
    </Sequence>
  </BehaviorTree>
</root>
)";

load_options lenient_with(std::map<fs::path, std::string> files) {
    load_options options;
    options.lenient = true;
    options.files_in_memory = std::move(files);
    return options;
}

// Every tree of a file in memory, by name, as meaning_text says it.
std::map<std::string, std::string> meanings(const fs::path& path, const load_options& options,
                                            const registry& reg) {
    file_load_result loaded = try_load_every_tree(path, reg, options);
    CHECK_MESSAGE(loaded, (loaded.diagnostics.empty() ? "" : to_string(loaded.diagnostics[0])));
    std::map<std::string, std::string> by_name;
    for (const auto& [name, t] : loaded.trees) by_name.emplace(name, meaning_text(*t));
    return by_name;
}

bool has_code(const std::vector<diagnostic>& found, diagnostic_code code) {
    return std::any_of(found.begin(), found.end(),
                       [&](const diagnostic& d) { return d.code == code; });
}

}  // namespace

TEST_SUITE("convert") {
    TEST_CASE("another runtime's file converts to each format and back with the same meaning") {
        const registry reg = test_registry();
        const fs::path in = folder / "nav.xml";
        const load_options options = lenient_with({{in, program_tree}});
        const auto original = meanings(in, options, reg);
        REQUIRE(original.size() == 1);
        for (const format_info& target : formats()) {
            CAPTURE(target.name);
            const fs::path out = folder / ("out" + std::string(target.extensions[0]));
            const conversion converted = convert_file(in, out, target.id, reg, options);
            if (target.id == file_format::behavior3 && !converted) {
                // What behavior3 cannot say (BehaviorTree.CPP's scripts) is named.
                CHECK(has_code(converted.diagnostics, diagnostic_code::not_expressible));
                continue;
            }
            REQUIRE_MESSAGE(
                converted,
                (converted.diagnostics.empty() ? "" : to_string(converted.diagnostics[0])));
            load_options back = lenient_with({{out, converted.text}});
            CHECK(meanings(out, back, reg) == original);
            // And back again to BehaviorTree.CPP XML, in its own words.
            const fs::path again = folder / "again.xml";
            back.format = target.id;
            const conversion returned = convert_file(out, again, file_format::btcpp_xml, reg, back);
            REQUIRE(returned);
            CHECK(returned.text.find(R"(<Wait wait_duration="5")") != std::string::npos);
            CHECK(meanings(again, lenient_with({{again, returned.text}}), reg) == original);
        }
    }

    TEST_CASE("a file written in its own format twice gives the same text") {
        const registry reg = test_registry();
        const fs::path in = folder / "nav.xml";
        const fs::path once = folder / "once.xml";
        const conversion first =
            convert_file(in, once, file_format::btcpp_xml, reg, lenient_with({{in, program_tree}}));
        REQUIRE(first);
        // The namesake's model keeps its ports in the file's words, each once.
        CHECK(first.text.find(R"(<Action ID="Wait" canopy="namesake">)") != std::string::npos);
        const conversion second = convert_file(once, folder / "twice.xml", file_format::btcpp_xml,
                                               reg, lenient_with({{once, first.text}}));
        REQUIRE(second);
        CHECK(second.text == first.text);
    }

    TEST_CASE("Canopy's formats say the runtime's rules and the file's own namesakes") {
        const registry reg = test_registry();
        const fs::path in = folder / "nav.xml";
        const conversion converted = convert_file(in, folder / "out.json", file_format::flat_json,
                                                  reg, lenient_with({{in, program_tree}}));
        REQUIRE(converted);
        CHECK(converted.text.find(R"("rules": "btcpp")") != std::string::npos);
        CHECK(converted.text.find(R"({"type": "Wait", "kind": "action", "namesake": true)") !=
              std::string::npos);
        // The keys the ports make are made again by their uses, not declared.
        CHECK(converted.text.find("\"blackboard\"") == std::string::npos);
        // Read as BehaviorTree.CPP reads: a key starts unset until written.
        const load_result loaded = try_load_text(converted.text, file_format::flat_json, reg,
                                                 "out.json", lenient_with({}));
        REQUIRE(loaded);
        CHECK(loaded.tree->layout().fails_as_btcpp);
        bool unset = false;
        for (const blackboard_key& key : loaded.tree->keys())
            unset = unset || (key.name == "answer" && key.starts_unset);
        CHECK(unset);
    }

    TEST_CASE("BehaviorTree.CPP XML carries the rules of a tree from elsewhere") {
        const registry reg = test_registry();
        for (const char* name : {"builtins.json", "script.json"}) {
            CAPTURE(name);
            const fs::path in =
                name == std::string("builtins.json")
                    ? fs::path(CANOPY_SOURCE_DIR) / "tests/data/behavior3/builtins.json"
                    : folder / name;
            load_options options = lenient_with(
                {{folder / "script.json",
                  json_tree(
                      {R"({"id": 1, "type": "Script", "params": {"code": "n := 7 / 2"}})"})}});
            const conversion converted =
                convert_file(in, folder / "out.xml", file_format::btcpp_xml, reg, options);
            REQUIRE_MESSAGE(
                converted,
                (converted.diagnostics.empty() ? "" : to_string(converted.diagnostics[0])));
            // behavior3's expressions, or Canopy's integer division, not BehaviorTree.CPP's.
            CHECK(converted.text.find(name == std::string("builtins.json")
                                          ? R"(canopy_rules="behavior3")"
                                          : R"(canopy_rules="canopy")") != std::string::npos);
            options.files_in_memory[folder / "out.xml"] = converted.text;
            // (A tree without a name is BehaviorTree.CPP's MainTree: compared by meaning.)
            const auto after = meanings(folder / "out.xml", options, reg);
            const auto before = meanings(in, options, reg);
            REQUIRE(after.size() == 1);
            REQUIRE(before.size() == 1);
            CHECK(after.begin()->second == before.begin()->second);
        }
    }

    TEST_CASE("what a format cannot say is refused before anything is written, located") {
        const registry reg = test_registry();
        const fs::path in = folder / "sleep.xml";
        const std::string text = R"(<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence>
      <SetBlackboard value="42" output_key="answer"/>
      <Sleep msec="{answer}"/>
    </Sequence>
  </BehaviorTree>
</root>
)";
        const conversion converted = convert_file(in, folder / "out.json", file_format::flat_json,
                                                  reg, lenient_with({{in, text}}));
        CHECK_FALSE(converted);
        CHECK(converted.text.empty());
        REQUIRE(has_code(converted.diagnostics, diagnostic_code::not_expressible));
        const diagnostic& d = converted.diagnostics.back();
        CHECK(d.path == in.string());
        CHECK(d.where.line == 5);
        // Named by the file's words, not by a record number the reader gave it.
        CHECK(d.message.rfind("the 'Sleep' node's 'msec'", 0) == 0);
    }

    TEST_CASE("meaning_text tells trees apart where a print in the file's words would not") {
        const registry reg = test_registry();
        const auto one = [&](const std::string& text) {
            const load_result r = load_json(text);
            REQUIRE(r);
            return meaning_text(*r.tree);
        };
        const std::string a =
            one(json_tree({R"({"id": 1, "type": "Wait", "params": {"seconds": 1}})"}));
        const std::string b =
            one(json_tree({R"({"id": 7, "type": "Wait", "params": {"seconds": 1.0}})"}));
        const std::string c =
            one(json_tree({R"({"id": 1, "type": "Wait", "params": {"seconds": 2}})"}));
        CHECK(a == b);  // ids and number spellings are not meaning
        CHECK(a != c);
        CHECK(a.find("Wait seconds=1") != std::string::npos);
    }

    TEST_CASE("a project converts to Canopy's formats as its includes, and reads back") {
        const registry reg = test_registry();
        const fs::path project = folder / "robot.btproj";
        const fs::path trees = folder / "trees.xml";
        const load_options options =
            lenient_with({{project, R"(<root BTCPP_format="4" project_name="Robot">
  <include path="trees.xml"/>
  <TreeNodesModel><Action ID="Beep"><input_port name="times"/></Action></TreeNodesModel>
</root>
)"},
                          {trees, R"(<root BTCPP_format="4">
  <BehaviorTree ID="Left"><Beep times="1"/></BehaviorTree>
  <BehaviorTree ID="Right"><Beep times="2"/></BehaviorTree>
</root>
)"}});
        const auto original = meanings(project, options, reg);
        REQUIRE(original.size() == 2);  // two trees, neither the main one: no main tree needed
        for (file_format target : {file_format::flat_json, file_format::flat_xml}) {
            const fs::path out = folder / (target == file_format::flat_json ? "p.json" : "p.xml");
            const conversion converted = convert_file(project, out, target, reg, options);
            REQUIRE_MESSAGE(
                converted,
                (converted.diagnostics.empty() ? "" : to_string(converted.diagnostics[0])));
            CHECK(converted.text.find("trees.xml") != std::string::npos);
            load_options back = options;
            back.files_in_memory[out] = converted.text;
            CHECK(meanings(out, back, reg) == original);
        }
    }

    TEST_CASE("node models and rules in Canopy's formats are checked, located") {
        const load_result bad_rules =
            load_json(R"({"rules": "btcp", "nodes": [{"id": 1, "type": "AlwaysSuccess"}]})");
        const diagnostic rules = only(bad_rules, diagnostic_code::wrong_field_type);
        CHECK(rules.message.find("did you mean 'btcpp'") != std::string::npos);
        CHECK(rules.where.line == 1);
        const load_result bad_model = load_json(R"({
  "models": [
    {"type": "Beep", "knd": "action"},
    {"kind": "decorator"},
    {"type": "Boop", "ports": [{"name": "x", "direction": "sideways"}]}
  ],
  "nodes": [{"id": 1, "type": "AlwaysSuccess"}]
})");
        CHECK_FALSE(bad_model);
        const std::vector<diagnostic_code> found = codes(bad_model);
        CHECK(std::count(found.begin(), found.end(), diagnostic_code::unknown_field) == 1);
        CHECK(std::count(found.begin(), found.end(), diagnostic_code::missing_field) == 1);
        CHECK(std::count(found.begin(), found.end(), diagnostic_code::wrong_field_type) == 1);
        for (const diagnostic& d : bad_model.diagnostics) CHECK(d.where.line >= 3);
        const load_result bad_xml =
            load_xml(R"(<trees><models><model type="Beep" kind="leaf"/><model/></models>
<tree><node id="1" type="AlwaysSuccess"/></tree></trees>)");
        CHECK_FALSE(bad_xml);
        CHECK(codes(bad_xml).size() == 2);
    }

    TEST_CASE("a modelled namesake is the file's own node under lenient loading") {
        const registry reg = test_registry();
        const std::string text = R"({
  "models": [{"type": "Wait", "kind": "action", "namesake": true, "ports": [{"name": "wait_duration"}]}],
  "nodes": [{"id": 1, "type": "Wait", "params": {"wait_duration": "5.0"}}]
})";
        const load_result strict = try_load_text(text, file_format::flat_json, reg, "w.json");
        CHECK_FALSE(strict);  // Canopy's Wait takes no wait_duration
        const load_result lenient =
            try_load_text(text, file_format::flat_json, reg, "w.json", lenient_with({}));
        REQUIRE(lenient);
        CHECK(lenient.tree->object(0) == nullptr);  // learned: no behaviour of Canopy's
    }

    TEST_CASE("files in memory are read in place of the disk's") {
        const registry reg = test_registry();
        const fs::path main = folder / "main.json";
        const load_result loaded = try_load_file(
            main, reg,
            lenient_with(
                {{main,
                  json_tree({R"({"id": 1, "type": "SubTree", "params": {"file": "sub.json"}})"})},
                 {folder / "sub.json", json_tree({R"({"id": 1, "type": "AlwaysFailure"})"})}}));
        REQUIRE(loaded);
        CHECK(loaded.tree->type_name(static_cast<tree::index>(loaded.tree->size() - 1)) ==
              "AlwaysFailure");
    }
}
