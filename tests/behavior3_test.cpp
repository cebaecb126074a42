// behavior3 JSON: both flavours, .b3-setting node definitions, the mapping tables, subtrees,
// located errors, the corpus of real files, depth, and round trips through the writer.
#include <doctest/doctest.h>

#include <algorithm>
#include <canopy/run/port.hpp>
#include <canopy/views/write.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "runtime_support.hpp"
#include "test_support.hpp"

using namespace canopy;
using testing::corpus_folder;
using testing::only;
namespace fs = std::filesystem;

namespace {

read_result read_behavior3(const std::string& text, const std::string& path = "t.json") {
    return read_records(text, file_format::behavior3, path);
}

std::string value_text(const param_value& value) {
    std::ostringstream out;
    if (const auto* flag = std::get_if<bool>(&value)) {
        out << (*flag ? "true" : "false");
    } else if (const auto* integer = std::get_if<std::int64_t>(&value)) {
        out << *integer;
    } else if (const auto* number = std::get_if<double>(&value)) {
        out.precision(17);
        out << *number << 'd';
    } else {
        out << '"' << std::get<std::string>(value) << '"';
    }
    return out.str();
}

// One line per record: "id<parent Type "describe" name=value ...", the parameters in file
// order or, to compare what a writer reorders (arguments, then inputs and outputs), by name.
std::string records_text(const record_set& records, bool by_name = false) {
    std::string out;
    for (std::size_t i = 0; i < records.size(); ++i) {
        out += std::to_string(records.id(i)) + "<" + std::to_string(records.parent_id(i)) + " " +
               std::string(records.type_name(i));
        if (!records.describe(i).empty()) out += " \"" + std::string(records.describe(i)) + "\"";
        std::vector<std::string> params;
        for (const auto* p = records.params_begin(i); p != records.params_end(i); ++p) {
            params.push_back(" " + p->name + "=" + value_text(p->value));
        }
        if (by_name) std::sort(params.begin(), params.end());
        for (const std::string& p : params) out += p;
        out += "\n";
    }
    for (const record_set::key_declaration& key : records.declared_keys()) {
        out += "key " + key.name + ":" + key.type;
        if (key.initial) out += "=" + value_text(key.initial->value);
        out += "\n";
    }
    return out;
}

// The trees of a document, with their names, and the main tree.
std::string document_text(const tree_document& document, bool by_name = false) {
    std::string out = "main " + document.main_tree + "\n";
    for (const record_set& tree : document.trees) {
        out += "tree " + tree.name() + "\n" + records_text(tree, by_name);
    }
    return out;
}

std::string diagnostics_text(const read_result& r) {
    std::string out;
    for (const diagnostic& d : r.diagnostics) out += to_string(d) + "\n";
    return out;
}

// Reads text that must read without a problem.
tree_document read_clean(const std::string& text, const std::string& path = "t.json") {
    read_result r = read_behavior3(text, path);
    INFO(diagnostics_text(r));
    CHECK(r.diagnostics.empty());
    CHECK(r.complete);
    return std::move(r.document);
}

// The records of the one tree of a nested file whose root is `root`.
std::string nested(const std::string& root) {
    tree_document doc = read_clean(R"({"name": "t", "root": )" + root + "}");
    REQUIRE(doc.trees.size() == 1);
    return records_text(doc.trees.front());
}

// The records of a classic tree whose `nodes` are given, rooted at "a".
std::string classic(const std::string& nodes) {
    tree_document doc = read_clean(R"({"title": "t", "root": "a", "nodes": {)" + nodes + "}}");
    REQUIRE(doc.trees.size() == 1);
    return records_text(doc.trees.front());
}

// The same parameters, node by node: literals equal, keys the same by name (a behavior3 tree
// has none of the program's keys it does not name, so the slots may differ), also where a
// parameter's value names a key's slot (param_type::key).
void check_same_params(const tree& original, const tree& again, const registry& reg) {
    for (tree::index i = 0; i < original.size(); ++i) {
        param_list a = original.params(i);
        param_list b = again.params(i);
        REQUIRE(a.size() == b.size());
        const node_type* type = reg.find(original.type_name(i));
        for (std::size_t p = 0; p < a.size(); ++p) {
            const param& x = a.begin()[p];
            const param& y = b.begin()[p];
            CHECK(x.name == y.name);
            REQUIRE((x.key == param::no_key) == (y.key == param::no_key));
            const bool names_key =
                type != nullptr &&
                std::any_of(type->params.begin(), type->params.end(), [&](const param_spec& spec) {
                    return spec.name == x.name && spec.type == param_type::key;
                });
            auto name_of = [](const tree& t, const param_value& slot) {
                return t.keys()[static_cast<std::size_t>(std::get<std::int64_t>(slot))].name;
            };
            if (names_key) {
                CHECK(name_of(original, x.value) == name_of(again, y.value));
            } else if (x.key == param::no_key) {
                CHECK(x.value == y.value);
            } else {
                CHECK(original.keys()[x.key].name == again.keys()[y.key].name);
            }
        }
    }
}

std::string read_file_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Writes a document and reads the main text back.
tree_document write_and_read(const tree_document& document, const std::string& path = "w.json") {
    write_result written = info(file_format::behavior3).write(document);
    for (const diagnostic& d : written.problems) FAIL_CHECK(to_string(d));
    return read_clean(written.text, path);
}

// A SubTree's `tree: X` comes back as `file: "X.json"` (a behavior3 subtree is a file).
std::string as_files(std::string text) {
    for (std::size_t at = text.find(" tree=\""); at != std::string::npos;
         at = text.find(" tree=\"", at + 1)) {
        // Only a SubTree's: a game node may have a parameter named `tree` too.
        const std::size_t line = text.rfind('\n', at) + 1;
        if (text.find(" SubTree", line) > at) continue;
        const std::size_t end = text.find('"', at + 7);
        text.replace(at, end - at + 1, " file=\"" + text.substr(at + 7, end - at - 7) + ".json\"");
    }
    return text;
}

}  // namespace

TEST_SUITE("behavior3") {
    TEST_CASE("claims behavior3 shapes, and leaves flat JSON and XML to their readers") {
        const format_info& row = info(file_format::behavior3);
        CHECK(row.claims(R"({"name": "t", "root": {"id": 1, "name": "Sequence"}})"));
        CHECK(row.claims(R"({"title": "t", "root": "a", "nodes": {}})"));
        CHECK(row.claims(R"({"nodes": {"a": {}}})"));
        CHECK(row.claims(R"({"version": "0.3.0", "scope": "project", "trees": []})"));
        CHECK(row.claims(R"({"name": "Example 1", "data": {"trees": []}})"));
        CHECK(row.claims(R"([{"name": "Wait", "type": "Action", "desc": ""}])"));
        CHECK_FALSE(row.claims(R"({"name": "t", "nodes": [{"id": 1, "type": "Wait"}]})"));
        CHECK_FALSE(row.claims(R"([{"id": 1, "type": "Wait"}])"));
        CHECK_FALSE(row.claims("<tree/>"));
        CHECK_FALSE(row.claims("{\"name\": "));
        // The first row that claims a .json file reads it: flat JSON, then behavior3.
        CHECK(detect_format("t.json", R"({"root": {"name": "Sequence"}})") ==
              file_format::behavior3);
        CHECK(detect_format("t.json", R"({"nodes": [{"id": 1, "type": "A"}]})") ==
              file_format::flat_json);
        CHECK(detect_format("nodes.b3-setting", "[]") == file_format::behavior3);
        CHECK(detect_format("example.b3", "{}") == file_format::behavior3);
    }

    TEST_CASE("reads a nested tree: its name, describes, the file's ids, args and variables") {
        tree_document doc = read_clean(R"({
  "version": "1.8.0", "name": "hero", "desc": "a hero", "firstid": 1, "export": true,
  "group": ["Client"], "import": [], "vars": [{"name": "enemy", "desc": "who"}],
  "root": {"id": 1, "name": "Selector", "desc": "think", "children": [
    {"id": 3, "name": "FindEnemy", "args": {"x": 0, "w": 1.5, "all": true, "tag": "orc"},
     "output": ["enemy"]},
    {"id": 7, "name": "Attack", "input": ["", "enemy"], "debug": true}
  ]}
})");
        CHECK(doc.main_tree == "hero");
        CHECK(doc.implicit_keys);
        CHECK(doc.subtree_paths == tree_document::path_base::workspace);
        REQUIRE(doc.trees.size() == 1);
        CHECK(doc.trees.front().name() == "hero");
        CHECK(records_text(doc.trees.front()) ==
              "1<0 Selector \"think\"\n"
              "3<1 FindEnemy x=0 w=1.5d all=true tag=\"orc\" output1=\"{enemy}\"\n"
              "7<1 Attack input2=\"{enemy}\"\n");
        // A variable without a type is not declared: behavior3 makes it on first write.
        CHECK(doc.trees.front().declared_keys().empty());
        // Every node is located at its '{'.
        CHECK(doc.trees.front().where(0) == source_location{4, 11});
        CHECK(doc.trees.front().where(1) == source_location{5, 5});
        CHECK(doc.trees.front().where(2) == source_location{7, 5});
    }

    TEST_CASE(
        "numbers nodes 1..n in preorder when the file's ids are strings, missing or repeated") {
        CHECK(
            nested(R"({"id": "1", "name": "Sequence", "children": [{"id": "2", "name": "A"}]})") ==
            "1<0 Sequence\n2<1 A\n");
        CHECK(nested(R"({"id": 5, "name": "Sequence", "children": [{"id": 5, "name": "A"},
                        {"name": "B", "$id": "x"}]})") == "1<0 Sequence\n2<1 A\n3<1 B\n");
        CHECK(nested(R"({"id": 0, "name": "A"})") == "1<0 A\n");
    }

    TEST_CASE("names a nested tree without a name after its file") {
        read_result r =
            read_behavior3(R"({"root": {"id": 1, "name": "A"}})", "trees/patrol.v2.json");
        REQUIRE(r.document.trees.size() == 1);
        CHECK(r.document.trees.front().name() == "patrol.v2");
        CHECK(r.document.main_tree == "patrol.v2");
    }

    TEST_CASE("maps the nested flavour's nodes (behavior3 Lua/TS) to Canopy's") {
        auto one = [](const std::string& node) {
            return nested(R"({"id": 1, "name": "Sequence", "children": [)" + node + "]}")
                .substr(std::string("1<0 Sequence\n").size());
        };
        const std::string child = R"(, "children": [{"id": 3, "name": "A"}]})";
        SUBCASE("composites") {
            CHECK(one(R"({"id": 2, "name": "Selector")" + child) == "2<1 Selector\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "IfElse")" + child) == "2<1 IfThenElse\n3<2 A\n");
        }
        SUBCASE("decorators") {
            for (const auto& names : {std::pair{"Invert", "Not"},
                                      {"Inverter", "Not"},
                                      {"Not", "Not"},
                                      {"AlwaysSuccess", "ForceSuccess"},
                                      {"AlwaysFailure", "ForceFailure"},
                                      {"AlwaysFail", "ForceFailure"}}) {
                std::string node = R"({"id": 2, "name": ")";
                node += names.first;
                node += '"';
                node += child;
                std::string expected = "2<1 ";
                expected += names.second;
                expected += "\n3<2 A\n";
                CHECK(one(node) == expected);
            }
        }
        SUBCASE("leaves") {
            CHECK(one(R"({"id": 2, "name": "JustSuccess"})") == "2<1 AlwaysSuccess\n");
            CHECK(one(R"({"id": 2, "name": "JustFailure"})") == "2<1 AlwaysFailure\n");
        }
        SUBCASE("Wait and Timeout: the family's, time as given or its input") {
            CHECK(one(R"({"id": 2, "name": "Wait", "args": {"time": 1.5}})") ==
                  "2<1 behavior3.Wait time=1.5d\n");
            CHECK(one(R"({"id": 2, "name": "Wait", "input": ["t"], "args": {}})") ==
                  "2<1 behavior3.Wait time=\"{t}\"\n");
            CHECK(one(R"({"id": 2, "name": "Wait"})") == "2<1 behavior3.Wait\n");
            CHECK(one(R"({"id": 2, "name": "Wait", "args": {"time": 2, "random": 1}})") ==
                  "2<1 behavior3.Wait time=2 random=1\n");
            CHECK(one(R"({"id": 2, "name": "Timeout", "args": {"time": 3})" + child) ==
                  "2<1 behavior3.Timeout time=3\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "Timeout", "input": ["limit"])" + child) ==
                  "2<1 behavior3.Timeout time=\"{limit}\"\n3<2 A\n");
        }
        SUBCASE("Repeat: the family's, count as given or its input") {
            CHECK(one(R"({"id": 2, "name": "Repeat", "args": {"count": 3})" + child) ==
                  "2<1 behavior3.Repeat count=3\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "Repeat")" + child) == "2<1 behavior3.Repeat\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "Repeat", "input": ["n"])" + child) ==
                  "2<1 behavior3.Repeat count=\"{n}\"\n3<2 A\n");
        }
        SUBCASE("retries: the family's, count or maxLoop as given or its input") {
            CHECK(one(R"({"id": 2, "name": "RetryUntilSuccess", "args": {"count": 10})" + child) ==
                  "2<1 behavior3.RetryUntilSuccess count=10\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "RetryUntilFailure", "input": ["n"])" + child) ==
                  "2<1 behavior3.RetryUntilFailure count=\"{n}\"\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "RepeatUntilSuccess", "args": {"maxLoop": 4})" +
                      child) == "2<1 behavior3.RepeatUntilSuccess maxLoop=4\n3<2 A\n");
            CHECK(one(R"({"id": 2, "name": "RepeatUntilFailure")" + child) ==
                  "2<1 behavior3.RepeatUntilFailure\n3<2 A\n");
        }
        SUBCASE("Log: the message, or its input; the level is not a parameter") {
            CHECK(one(R"({"id": 2, "name": "Log", "args": {"message": "hi", "level": "warn"},
                         "input": [""]})") == "2<1 Log message=\"hi\"\n");
            CHECK(one(R"({"id": 2, "name": "Log", "input": ["what"]})") ==
                  "2<1 Log message=\"{what}\"\n");
        }
        SUBCASE("nodes that share a Canopy name but behave otherwise are kept apart") {
            for (const char* name :
                 {"Parallel", "Switch", "Case", "Delay", "AlwaysRunning", "Once", "Watchdog"}) {
                CAPTURE(name);
                CHECK(one(R"({"id": 2, "name": ")" + std::string(name) + "\"" + child) ==
                      "2<1 behavior3." + std::string(name) + "\n3<2 A\n");
            }
        }
        SUBCASE("other names pass through, variables by position") {
            CHECK(one(R"({"id": 2, "name": "Cmp", "args": {"value": "hp > 0"}})") ==
                  "2<1 Cmp value=\"hp > 0\"\n");
            CHECK(
                one(R"({"id": 2, "name": "Calc", "input": ["a", "", "c"], "output": ["", "r"]})") ==
                "2<1 Calc input1=\"{a}\" input3=\"{c}\" output2=\"{r}\"\n");
            // Canopy's own type, escaped by the writer because behavior3 uses the name.
            CHECK(one(R"({"id": 2, "name": "canopy.Parallel", "args": {"success_threshold": 1})" +
                      child) == "2<1 Parallel success_threshold=1\n3<2 A\n");
        }
        SUBCASE("the escape alone names no type, in either flavour") {
            read_result nested =
                read_behavior3(R"({"name": "t", "root": {"id": 1, "name": "canopy."}})");
            CHECK(only(nested, diagnostic_code::unknown_type).message.find("names no node type") !=
                  std::string::npos);
            read_result classic =
                read_behavior3(R"({"root": "a", "nodes": {"a": {"name": "canopy."}}})");
            CHECK(only(classic, diagnostic_code::unknown_type).message.find("'canopy.'") !=
                  std::string::npos);
        }
    }

    TEST_CASE("maps the classic flavour's nodes (behavior3js) to Canopy's") {
        // A node "a" whose one child is "b": a composite's `children`, a decorator's `child`.
        auto one = [](const std::string& name, const std::string& properties = "{}",
                      const std::string& link = R"("child": "b")") {
            std::string nodes = R"("a": {"id": "a", "name": ")" + name + R"(", "title": ")" + name +
                                R"(", "properties": )" + properties + ", " + link +
                                R"(}, "b": {"name": "X"})";
            return classic(nodes);
        };
        const std::string list = R"("children": ["b"])";
        SUBCASE("composites: Sequence and Priority re-tick, the Mem ones resume") {
            CHECK(one("Sequence", "{}", list) == "1<0 ReactiveSequence\n2<1 X\n");
            CHECK(one("Priority", "{}", list) == "1<0 ReactiveSelector\n2<1 X\n");
            CHECK(one("MemSequence", "{}", list) == "1<0 Sequence\n2<1 X\n");
            CHECK(one("MemPriority", "{}", list) == "1<0 Selector\n2<1 X\n");
        }
        SUBCASE("a numeric string is read as JavaScript reads it: \"1e999\" loops for ever") {
            CHECK(one("Repeater", R"({"maxLoop": "1e999"})") == "1<0 Repeat count=-1\n2<1 X\n");
            CHECK(one("Repeater", R"({"maxLoop": "2.5"})") == "1<0 Repeat count=3\n2<1 X\n");
        }
        SUBCASE("leaves") {
            CHECK(classic(R"("a": {"name": "Succeeder"})") == "1<0 AlwaysSuccess\n");
            CHECK(classic(R"("a": {"name": "Failer"})") == "1<0 AlwaysFailure\n");
            CHECK(classic(R"("a": {"name": "Runner"})") == "1<0 AlwaysRunning\n");
            CHECK(classic(R"("a": {"name": "Error"})") == "1<0 Error\n");
            CHECK(classic(R"("a": {"name": "Wait", "properties": {"milliseconds": 1500}})") ==
                  "1<0 Wait seconds=1.5d\n");
            CHECK(classic(R"("a": {"name": "Wait"})") == "1<0 Wait seconds=0\n");
        }
        SUBCASE("decorators: units and loop counts") {
            CHECK(one("Inverter") == "1<0 Not\n2<1 X\n");
            CHECK(one("MaxTime", R"({"maxTime": 250})") == "1<0 MaxTime seconds=0.25d\n2<1 X\n");
            CHECK(one("Limiter", R"({"maxLoop": 2})") == "1<0 Limiter max_loop=2\n2<1 X\n");
            CHECK(one("Repeater", R"({"maxLoop": 5})") == "1<0 Repeat count=5\n2<1 X\n");
            CHECK(one("Repeater", R"({"maxLoop": 0})") == "1<0 Repeat count=-1\n2<1 X\n");
            CHECK(one("Repeater") == "1<0 Repeat count=-1\n2<1 X\n");
            CHECK(one("RepeatUntilFailure", R"({"maxLoop": 3})") == "1<0 Repeat count=3\n2<1 X\n");
            CHECK(one("RepeatUntilFailure", R"({"maxLoop": -1})") ==
                  "1<0 RepeatUntilFailure\n2<1 X\n");
            CHECK(one("RepeatUntilSuccess", R"({"maxLoop": 3})") ==
                  "1<0 Retry attempts=3\n2<1 X\n");
            CHECK(one("RepeatUntilSuccess") == "1<0 RepeatUntilSuccess\n2<1 X\n");
        }
        SUBCASE("a unit conversion cannot apply to a blackboard variable") {
            read_result r = read_behavior3(R"({"root": "a", "nodes": {"a": {"name": "Wait",
  "properties": {"milliseconds": "{delay}"}}}})");
            diagnostic d = only(r, diagnostic_code::unsupported_feature);
            CHECK(d.where == source_location{2, 34});
            CHECK(d.record_id == 1);
            CHECK(d.message.find("milliseconds") != std::string::npos);
        }
    }

    TEST_CASE("reads a classic tree: nodes by id in any order, describes from titles") {
        tree_document doc = read_clean(R"({"title": "A tree", "description": "", "root": "r",
  "properties": {}, "display": {"x": 0},
  "nodes": {
    "w": {"id": "w", "name": "Walk", "title": "walk about", "description": "d", "properties": {"speed": 2}},
    "r": {"id": "r", "name": "Priority", "title": "Priority", "children": ["i", "w"]},
    "i": {"id": "i", "name": "Inverter", "title": "", "description": "flip", "child": "c"},
    "c": {"id": "c", "name": "IsHungry", "parameters": {"limit": 3}},
    "loose": {"id": "loose", "name": "Forgotten"}
  },
  "custom_nodes": [{"name": "Walk", "category": "action", "title": "Walk", "properties": {"speed": 1}},
                   {"name": "IsHungry", "category": "condition", "title": "", "description": null}]
})");
        CHECK(doc.main_tree == "A tree");
        REQUIRE(doc.trees.size() == 1);
        CHECK(doc.trees.front().name() == "A tree");
        // Unreachable nodes ("loose") are left out: behavior3js never runs them.
        CHECK(records_text(doc.trees.front()) ==
              "1<0 ReactiveSelector\n"
              "2<1 Not \"flip\"\n"
              "3<2 IsHungry limit=3\n"
              "4<1 Walk \"walk about\" speed=2\n");
        REQUIRE(doc.models.size() == 2);
        CHECK(doc.models[0].name == "Walk");
        CHECK(doc.models[0].shape == arity::leaf);
        REQUIRE(doc.models[0].ports.size() == 1);
        CHECK(doc.models[0].ports[0].name == "speed");
        CHECK(doc.models[0].ports[0].default_value == std::optional<std::string>("1"));
        CHECK(doc.models[1].name == "IsHungry");
    }

    TEST_CASE("reports a classic tree's broken links, located") {
        SUBCASE("a child id that names no node") {
            diagnostic d = only(read_behavior3(R"({"root": "a", "nodes": {
  "a": {"name": "MemSequence", "children": ["b", "zz"]}, "b": {"name": "B"}}})"),
                                diagnostic_code::unknown_parent);
            CHECK(d.where == source_location{2, 50});
            CHECK(d.message == "child 'zz' of node 'a' names none of the tree's 'nodes'");
        }
        SUBCASE("a cycle") {
            diagnostic d = only(read_behavior3(R"({"root": "a", "nodes": {
  "a": {"name": "MemSequence", "children": ["b"]},
  "b": {"name": "Inverter", "child": "a"}}})"),
                                diagnostic_code::parent_cycle);
            CHECK(d.where == source_location{2, 3});
        }
        SUBCASE("a node with two parents") {
            diagnostic d = only(read_behavior3(R"({"root": "a", "nodes": {
  "a": {"name": "MemSequence", "children": ["b", "b"]},
  "b": {"name": "B"}}})"),
                                diagnostic_code::duplicate_id);
            CHECK(d.where == source_location{3, 3});
        }
        SUBCASE("a root that names no node") {
            diagnostic d = only(read_behavior3(R"({"root": "x", "nodes": {"a": {"name": "A"}}})"),
                                diagnostic_code::no_root);
            CHECK(d.where == source_location{1, 10});
        }
        SUBCASE("no root") {
            diagnostic d = only(read_behavior3(R"({"title": "empty", "root": null, "nodes": {}})"),
                                diagnostic_code::no_root);
            CHECK(d.where == source_location{1, 28});
        }
    }

    TEST_CASE("reads a classic project: trees by title, subtrees by tree id, the main tree") {
        tree_document doc = read_clean(R"({"version": "0.3.0", "scope": "project",
  "selectedTree": "t2", "trees": [
  {"version": "0.3.0", "scope": "tree", "id": "t1", "title": "patrol", "root": "a",
   "nodes": {"a": {"name": "Runner"}}},
  {"id": "t2", "title": "main", "root": "s",
   "nodes": {"s": {"name": "MemPriority", "children": ["u", "v"]},
             "u": {"name": "t1", "title": "patrol", "category": "tree"},
             "v": {"name": "t3", "title": "", "category": "tree"}}},
  {"id": "t3", "title": "patrol", "root": "b", "nodes": {"b": {"name": "Failer"}}},
  {"id": "t4", "title": "", "root": "b", "nodes": {"b": {"name": "Succeeder"}}}
], "custom_nodes": []})");
        // Two trees are nobody's subtree ("main" and "t4"): no main tree.
        CHECK(document_text(doc) ==
              "main \n"
              "tree patrol\n1<0 AlwaysRunning\n"
              "tree main\n1<0 Selector\n"
              "2<1 SubTree \"patrol\" tree=\"patrol\" _autoremap=true\n"
              "3<1 SubTree tree=\"patrol (t3)\" _autoremap=true\n"
              "tree patrol (t3)\n1<0 AlwaysFailure\n"
              "tree t4\n1<0 AlwaysSuccess\n");
        SUBCASE("the main tree is the one tree that is nobody's subtree") {
            tree_document two = read_clean(R"({"trees": [
  {"id": "t1", "title": "a", "root": "x", "nodes": {"x": {"name": "A"}}},
  {"id": "t2", "title": "b", "root": "x", "nodes": {"x": {"name": "t1"}}}]})");
            CHECK(two.main_tree == "b");
        }
        SUBCASE("a subtree node whose tree is missing") {
            diagnostic d = only(read_behavior3(R"({"trees": [{"id": "t1", "title": "a", "root": "x",
  "nodes": {"x": {"name": "t9", "category": "tree"}}}]})"),
                                diagnostic_code::unknown_tree);
            CHECK(d.where == source_location{2, 27});
        }
    }

    TEST_CASE("reads behavior3delphi's .b3 wrapper around a project") {
        tree_document doc = read_clean(R"({"name": "Example 1", "description": "", "data": {
  "version": "0.3.0", "scope": "project", "trees": [
  {"id": "t", "title": "A behavior tree", "root": "w",
   "nodes": {"w": {"name": "Wait", "title": "Wait <milliseconds>ms", "properties": {"milliseconds": 500}}}}],
  "custom_nodes": [{"name": "IsMouseOver", "category": "condition", "title": "IsMouseOver",
                    "description": null, "properties": {}}]},
  "path": "D:\\example_1.b3"})",
                                       "example_1.b3");
        CHECK(document_text(doc) ==
              "main A behavior tree\ntree A behavior tree\n1<0 Wait \"Wait <milliseconds>ms\" "
              "seconds=0.5d\n");
        REQUIRE(doc.models.size() == 1);
        CHECK(doc.models[0].shape == arity::leaf);
    }

    TEST_CASE("reads a nested subtree node as a SubTree of its file; its cached copy is ignored") {
        tree_document doc = read_clean(R"({"name": "monster", "root": {"id": 1, "name": "Sequence",
  "children": [
    {"id": 2, "name": "Sequence", "desc": "new tree", "path": "workdir/subtree1.json",
     "children": [{"id": 3, "name": "Log", "args": {"message": "cached"}}]},
    {"id": 4, "name": "Idle", "path": ""}
  ]}})");
        CHECK(doc.subtree_paths == tree_document::path_base::workspace);
        CHECK(records_text(doc.trees.front()) ==
              "1<0 Sequence\n"
              "2<1 SubTree \"new tree\" file=\"workdir/subtree1.json\" _autoremap=true\n"
              "4<1 Idle\n");
    }

    TEST_CASE("leaves out a disabled node and everything below it, as the runtimes do") {
        CHECK(nested(R"({"id": 1, "name": "Sequence", "disabled": true, "children": [
            {"id": 2, "name": "A", "disabled": false},
            {"id": 3, "name": "Invert", "disabled": true, "children": [{"id": 4, "name": "B"}]},
            {"id": 5, "name": "C"}]})") == "1<0 Sequence\n2<1 A\n5<1 C\n");
    }

    TEST_CASE("declares the variables that carry a type, as the writer writes them") {
        tree_document doc = read_clean(R"({"name": "t", "vars": [
  {"name": "speed", "desc": "", "type": "number", "default": 2.5},
  {"name": "mode", "desc": "", "type": "string"},
  {"name": "loose", "desc": "no type: made on first write"}],
  "declvar": [{"name": "hp", "desc": "", "type": "integer"}],
  "root": {"id": 1, "name": "A"}})");
        CHECK(records_text(doc.trees.front()) ==
              "1<0 A\nkey speed:number=2.5d\nkey mode:string\nkey hp:integer\n");
    }

    TEST_CASE("reads .b3-setting node definitions as models, mapped like the nodes") {
        tree_document doc = read_clean(R"([
  {"name": "Wait", "type": "Action", "desc": "wait", "input": ["time?"],
   "args": [{"name": "time", "type": "float?", "desc": "seconds"},
            {"name": "random", "type": "float?", "desc": "spread", "default": 0}]},
  {"name": "AlwaysSuccess", "type": "Decorator", "desc": "succeed", "doc": "+ one child"},
  {"name": "Loop", "type": "Composite", "desc": "", "children": -1, "input": ["count?"],
   "output": ["i"], "args": [{"name": "opts", "type": "int[]?", "default": [1, [2]], "desc": ""}]},
  {"name": "Log", "type": "Action", "args": [{"name": "message", "type": "string", "desc": ""},
   {"name": "level", "type": "enum", "desc": "", "options": [{"name": "INFO", "value": "info"}]}]}
])",
                                       "node-config.b3-setting");
        CHECK(doc.trees.empty());
        REQUIRE(doc.models.size() == 4);
        const node_model& wait = doc.models[0];
        CHECK(wait.name == "behavior3.Wait");
        CHECK(wait.shape == arity::leaf);
        CHECK(wait.description == "wait");
        REQUIRE(wait.ports.size() == 2);  // time, and its input the same port
        CHECK(wait.ports[0].name == "time");
        CHECK(wait.ports[0].type == "float?");
        CHECK(wait.ports[1].name == "random");
        CHECK(wait.ports[1].default_value == std::optional<std::string>("0"));
        CHECK(doc.models[1].name == "ForceSuccess");
        CHECK(doc.models[1].shape == arity::decorator);
        const node_model& loop = doc.models[2];
        CHECK(loop.shape == arity::composite);
        REQUIRE(loop.ports.size() == 3);
        CHECK(loop.ports[0].default_value == std::optional<std::string>("[1,[2]]"));
        CHECK(loop.ports[1].name == "input1");
        CHECK(loop.ports[1].description == "count?");
        CHECK(loop.ports[2].name == "output1");
        CHECK(loop.ports[2].dir == port_model::direction::output);
        REQUIRE(doc.models[3].ports.size() == 1);  // Log's level is not a parameter
    }

    TEST_CASE("reads behavior3editor 2.x and vscode-behavior3 files") {
        // String ids with the gaps the editor reserves for a subtree's nodes, uuids, both
        // forms of variables, groups, a prefix, and a subtree under a decorator.
        const std::string text = R"({
  "version": "2.2.0", "name": "guard", "prefix": "", "group": ["Client"], "export": true,
  "custom": {"fps": 30}, "overrides": {},
  "variables": {"imports": ["vars/core.json"], "locals": [{"name": "foe", "desc": ""}]},
  "root": {"id": "1", "uuid": "aaaa", "name": "Sequence", "children": [
    {"id": "2", "uuid": "bbbb", "name": "Invert", "children": [
      {"id": "3", "uuid": "cccc", "name": "Sequence", "path": "trees/sub.json"}]},
    {"id": "8", "uuid": "dddd", "name": "Wait", "args": {"time": 2}, "input": [""]}]}})";
        tree_document doc = read_clean(text);
        REQUIRE(doc.trees.size() == 1);
        CHECK(records_text(doc.trees.front()) ==
              "1<0 Sequence\n2<1 Not\n3<2 SubTree file=\"trees/sub.json\" _autoremap=true\n"
              "8<1 behavior3.Wait time=2\n");
        CHECK(doc.subtree_paths == tree_document::path_base::workspace);
        // An id that is not a whole number, anywhere: 1..n.
        CHECK(
            nested(R"({"id": "1", "name": "Sequence", "children": [{"id": "x7", "name": "A"}]})") ==
            "1<0 Sequence\n2<1 A\n");
        SUBCASE("imports are lists of paths") {
            diagnostic d =
                only(read_behavior3(
                         R"({"name": "t", "variables": {"imports": [3]}, "root": {"name": "A"}})"),
                     diagnostic_code::wrong_field_type);
            CHECK(d.where == source_location{1, 41});
        }
        SUBCASE("overrides are kept for the subtree files, each field of the right kind") {
            read_result r = read_behavior3(R"({"name": "t", "overrides": {
  "meew": {"args": {"message": "hi"}, "desc": 3, "input": ["a", ""], "disabled": true,
           "name": "B"}}, "root": {"id": "1", "name": "A", "uuid": "self"}})");
            INFO(diagnostics_text(r));
            REQUIRE(r.diagnostics.size() == 2);
            CHECK(r.diagnostics[0].code == diagnostic_code::unknown_field);  // name
            CHECK(r.diagnostics[0].where == source_location{3, 12});
            CHECK(r.diagnostics[1].code == diagnostic_code::wrong_field_type);  // desc 3
            CHECK(r.diagnostics[1].where == source_location{2, 47});
            REQUIRE(r.document.overrides.size() == 1);
            const subtree_override& change = r.document.overrides.front();
            CHECK(change.node == "meew");
            CHECK(change.where == source_location{2, 3});
            CHECK(change.patch == R"({"input":["a",""],"disabled":true,"args":{"message":"hi"}})");
            // The node's own uuid is kept as its metadata, for the overrides of trees that
            // use this one.
            auto [note, end] = r.document.trees.front().metadata(0);
            REQUIRE(end - note == 1);
            CHECK(note->name == uuid_metadata);
            CHECK(note->value == "self");
        }
        SUBCASE("an override without a uuid changes nothing, and says so") {
            diagnostic d = only(read_behavior3(R"({"name": "t", "overrides": {"": {}},
  "root": {"id": "1", "name": "A"}})"),
                                diagnostic_code::missing_field);
            CHECK(d.where == source_location{1, 29});
        }
    }

    TEST_CASE("a tree's overrides change its subtree files' nodes for its own uses only") {
        const fs::path trees =
            fs::path(CANOPY_SOURCE_DIR) / "tests" / "data" / "behavior3" / "workspace" / "trees";
        const registry reg = testing::test_registry();
        // Each node of a type, in preorder: its describe and one parameter's value.
        auto nodes = [](const tree& t, std::string_view type, std::string_view param) {
            std::vector<std::string> found;
            for (tree::index i = 0; i < t.size(); ++i) {
                if (t.type_name(i) != type) continue;
                const param_value* value = t.params(i).find(param);
                found.push_back(std::string(t.describe(i)) + "|" +
                                (value ? value_text(*value) : std::string("-")));
            }
            return found;
        };
        SUBCASE("the subtree file alone is as written") {
            const load_result look = try_load_file(trees / "look.json", reg);
            REQUIRE(look);
            CHECK(nodes(*look.tree, "behavior3.Repeat", "count") == std::vector<std::string>{"|2"});
            CHECK(nodes(*look.tree, "Log", "message") == std::vector<std::string>{"|\"looking\""});
        }
        SUBCASE("fields replace the node's, args one by one") {
            const load_result patrol = try_load_file(trees / "patrol.json", reg);
            INFO(patrol.diagnostics);
            REQUIRE(patrol);
            CHECK(nodes(*patrol.tree, "behavior3.Repeat", "count") ==
                  std::vector<std::string>{"|5"});
            CHECK(nodes(*patrol.tree, "Log", "message") ==
                  std::vector<std::string>{"said on patrol|\"patrolling\""});
        }
        SUBCASE("the outermost tree's override wins, and reaches subtrees of subtrees") {
            // watch uses look, and patrol, which uses look with overrides of its own.
            const load_result watch = try_load_file(trees / "watch.json", reg);
            INFO(watch.diagnostics);
            REQUIRE(watch);
            CHECK(watch.diagnostics.empty());
            CHECK(nodes(*watch.tree, "behavior3.Repeat", "count") ==
                  std::vector<std::string>{"|7", "|7"});
            CHECK(nodes(*watch.tree, "Log", "message") ==
                  std::vector<std::string>{"|\"looking\"", "said on patrol|\"patrolling\""});
            CHECK(nodes(*watch.tree, "AlwaysSuccess", "-") ==
                  std::vector<std::string>{"ready|-", "ready|-"});
        }
        SUBCASE("one load uses a subtree file as it is and as changed") {
            const fs::path folder = fs::temp_directory_path() / "canopy_b3_overrides";
            fs::remove_all(folder);
            fs::copy(trees.parent_path(), folder, fs::copy_options::recursive);
            std::ofstream(folder / "trees" / "both.json") << R"({"name": "both",
  "root": {"id": "1", "name": "Sequence", "children": [
    {"id": "2", "name": "Sequence", "path": "trees/look.json"},
    {"id": "3", "name": "Sequence", "path": "trees/patrol.json"}]}})";
            const load_result both = try_load_file(folder / "trees" / "both.json", reg);
            INFO(both.diagnostics);
            REQUIRE(both);
            CHECK(nodes(*both.tree, "behavior3.Repeat", "count") ==
                  std::vector<std::string>{"|2", "|5"});
            fs::remove_all(folder);
        }
        // main.json using sub.json, in a workspace of their own; the load of main.json.
        const fs::path folder = fs::temp_directory_path() / "canopy_b3_overrides_pair";
        auto load_pair = [&](const std::string& main, const std::string& sub) {
            fs::remove_all(folder);
            fs::create_directories(folder);
            std::ofstream(folder / "w.b3-workspace") << "{}";
            std::ofstream(folder / "sub.json") << sub;
            std::ofstream(folder / "main.json") << main;
            load_result loaded = try_load_file(folder / "main.json", reg);
            fs::remove_all(folder);
            return loaded;
        };
        SUBCASE("an override can leave a node out, or put a disabled one back") {
            const load_result main = load_pair(R"({"name": "main",
  "overrides": {"a": {"disabled": true}, "b": {"disabled": false}, "elsewhere": {"desc": "x"}},
  "root": {"id": "1", "name": "Sequence", "path": "sub.json"}})",
                                               R"({"name": "sub",
  "root": {"id": "1", "name": "Sequence", "uuid": "r", "children": [
    {"id": "2", "name": "Log", "uuid": "a", "args": {"message": "a"}},
    {"id": "3", "name": "Log", "uuid": "b", "args": {"message": "b"}, "disabled": true}]}})");
            INFO(main.diagnostics);
            REQUIRE(main);
            CHECK(nodes(*main.tree, "Log", "message") == std::vector<std::string>{"|\"b\""});
        }
        SUBCASE("behavior3editor 2.0's $override names nodes by their $id") {
            const load_result main = load_pair(R"({"name": "main", "version": "2.0.0",
  "$override": {"k1": {"args": {"message": "changed"}}},
  "root": {"id": 1, "name": "Sequence", "path": "sub.json"}})",
                                               R"({"name": "sub", "version": "2.0.0",
  "root": {"id": 1, "$id": "k1", "name": "Log", "args": {"message": "as written"}}})");
            INFO(main.diagnostics);
            REQUIRE(main);
            CHECK(nodes(*main.tree, "Log", "message") == std::vector<std::string>{"|\"changed\""});
        }
        SUBCASE("a changed value that is wrong is reported at the node it changes") {
            const load_result main = load_pair(R"({"name": "main",
  "overrides": {"r": {"args": {"count": "many"}}},
  "root": {"id": "1", "name": "Sequence", "children": [
    {"id": "2", "name": "Sequence", "path": "sub.json"}]}})",
                                               R"({"name": "sub",
  "root": {"id": "1", "name": "Repeat", "uuid": "r", "args": {"count": 2}, "children": [
    {"id": "2", "name": "JustSuccess"}]}})");
            CHECK_FALSE(main);
            REQUIRE_FALSE(main.diagnostics.empty());
            const diagnostic& d = main.diagnostics.front();
            CHECK(d.path.find("sub.json") != std::string::npos);
            CHECK(d.where == source_location{2, 11});
            CHECK(d.message.find("count") != std::string::npos);
        }
    }

    TEST_CASE("reads project exports of other editors: folders, parents, empty trees") {
        const std::string text = R"({"scope": "project", "custom_folders": [{"name": "ai"}],
 "custom_nodes": [{"name": "Look", "category": "action", "parent": "ai"}],
 "trees": [
  {"id": "t1", "title": "main", "root": "a", "parent": "ai", "custom_folders": [],
   "nodes": {"a": {"id": "a", "name": "MemSequence", "children": ["b", "c"]},
             "b": {"id": "b", "name": "Look"},
             "c": {"id": "c", "name": "Priority"}}},
  {"id": "t2", "title": "draft", "root": "", "nodes": {}},
  {"id": "t3", "title": "later", "root": null}]})";
        tree_document doc = read_clean(text);
        CHECK(document_text(doc) ==
              "main main\ntree main\n1<0 Sequence\n2<1 Look\n3<1 AlwaysFailure\n");
        SUBCASE("a node that uses an empty tree says so") {
            std::string uses = text;
            uses.replace(uses.find(R"("name": "Look"})"), 15,
                         R"("name": "t2", "category": "tree"})");
            diagnostic d = only(read_behavior3(uses), diagnostic_code::no_root);
            CHECK(d.where.line == 6);
            CHECK(d.message.find("'t2'") != std::string::npos);
        }
    }

    TEST_CASE(
        "composites without children return what behavior3 returns; Canopy's formats refuse them") {
        CHECK(nested(R"({"id": 1, "name": "Selector", "desc": "pick", "children": [
            {"id": 2, "name": "Sequence"}, {"id": 3, "name": "Selector", "children": []},
            {"id": 4, "name": "Parallel"}, {"id": 5, "name": "Race"},
            {"id": 6, "name": "Sequence", "children": [{"id": 7, "name": "A", "disabled": true}]},
            {"id": 8, "name": "Switch", "children": []}]})") ==
              "1<0 Selector \"pick\"\n2<1 AlwaysSuccess\n3<1 AlwaysFailure\n4<1 AlwaysSuccess\n"
              "5<1 AlwaysFailure\n6<1 AlwaysSuccess\n8<1 AlwaysFailure\n");
        CHECK(classic(R"("a": {"name": "MemPriority", "children": ["b", "c", "d"]},
            "b": {"name": "Sequence", "title": "none"}, "c": {"name": "Priority"},
            "d": {"name": "MemSequence", "children": []})") ==
              "1<0 Selector\n2<1 AlwaysSuccess \"none\"\n3<1 AlwaysFailure\n4<1 AlwaysSuccess\n");
        // They load and run as behavior3 runs them.
        registry reg = testing::test_registry();
        load_result loaded = try_load_text(R"({"name": "t", "root": {"id": 1, "name": "Sequence",
            "children": [{"id": 2, "name": "Sequence"}, {"id": 3, "name": "Invert",
            "children": [{"id": 4, "name": "Selector"}]}]}})",
                                           file_format::behavior3, reg, "t.json");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        agent a(loaded.tree);
        CHECK(a.tick(0.1) == status::success);
        // Canopy's own formats keep refusing them.
        load_result own = testing::load_json(
            testing::json_tree({R"({"id": 1, "parentId": 0, "type": "Sequence"})"}));
        CHECK_FALSE(own);
    }

    TEST_CASE("arguments that are arrays or objects round-trip as behavior3 wrote them") {
        const std::string text = R"({"name": "t", "root": {"id": 1, "name": "Pick",
  "args": {"list": [1, 2.5, "x"], "opts": {"deep": {"a": [true, null]}}, "s": "[1,2]", "t": "[1, 2]"}}})";
        tree_document doc = read_clean(text);
        const std::string records = records_text(doc.trees.front());
        CHECK(records ==
              "1<0 Pick list=\"[1,2.5,\"x\"]\" opts=\"{\"deep\":{\"a\":[true,null]}}\" "
              "s=\"[1,2]\" t=\"[1, 2]\"\n");
        write_result written = info(file_format::behavior3).write(doc);
        REQUIRE(written.problems.empty());
        CHECK(written.text.find(R"("list": [1,2.5,"x"])") != std::string::npos);
        CHECK(written.text.find(R"("opts": {"deep":{"a":[true,null]}})") != std::string::npos);
        CHECK(written.text.find(R"("t": "[1, 2]")") != std::string::npos);
        CHECK(records_text(read_clean(written.text).trees.front()) == records);
        // An empty input slot is a slot not wired.
        CHECK(nested(R"({"id": 1, "name": "Calc", "input": ["", "b", ""]})") ==
              "1<0 Calc input2=\"{b}\"\n");
    }

    TEST_CASE(
        "behavior3's built-ins: mapped where Canopy's node is the same, else learned by kind") {
        SUBCASE("Race is Parallel with thresholds 1 and -1, and is written back as Race") {
            tree_document doc = read_clean(R"({"name": "t", "root": {"id": 1, "name": "Race",
                "children": [{"id": 2, "name": "A"}, {"id": 3, "name": "B"}]}})");
            CHECK(records_text(doc.trees.front()) ==
                  "1<0 Parallel success_threshold=1 failure_threshold=-1\n2<1 A\n3<1 B\n");
            write_result written = info(file_format::behavior3).write(doc);
            CHECK(written.text.find(R"("name": "Race")") != std::string::npos);
            CHECK(written.text.find("threshold") == std::string::npos);
            // Any other Parallel is Canopy's, escaped.
            record_set other;
            other.set_name("p");
            other.add(1, 0, "Parallel");
            other.add_param("success_threshold", std::int64_t{2});
            other.add_param("failure_threshold", std::int64_t{-1});
            other.add(2, 1, "A");
            tree_document mine;
            mine.trees.push_back(std::move(other));
            CHECK(info(file_format::behavior3).write(mine).text.find("canopy.Parallel") !=
                  std::string::npos);
        }
        SUBCASE("the others get a model of their runtime's kind") {
            tree_document doc = read_clean(R"({"name": "t", "root": {"id": 1, "name": "Parallel",
                "children": [{"id": 2, "name": "Once", "children": [{"id": 3, "name": "Check",
                "args": {"value": "hp > 0"}}]}, {"id": 4, "name": "AlwaysRunning",
                "children": [{"id": 5, "name": "Now", "output": ["t"]}]}]}})");
            std::string models;
            for (const node_model& m : doc.models) {
                models += m.name + ":" + std::string(to_string(*m.shape)) +
                          (m.condition ? " condition" : "");
                for (const port_model& p : m.ports) models += " " + p.name;
                models += "\n";
            }
            CHECK(models ==
                  "behavior3.Parallel:composite\nbehavior3.Check:leaf condition value\n"
                  "behavior3.AlwaysRunning:decorator\nbehavior3.Now:leaf output1\n");
        }
        SUBCASE("lenient loading learns them with that kind") {
            const fs::path file = fs::temp_directory_path() / "canopy_b3_builtins.json";
            {
                std::ofstream out(file);
                // behavior3-ts's IsStatus, which Canopy does not have: a condition.
                out << R"({"name": "t", "root": {"id": 1, "name": "Sequence", "children": [
                    {"id": 2, "name": "IsStatus"},
                    {"id": 3, "name": "Log", "args": {"message": "hi"}}]}})";
            }
            std::vector<diagnostic> problems;
            registry learned = learn_node_types(file, testing::test_registry(), problems);
            CHECK(problems.empty());
            const node_type* is_status = learned.find("IsStatus");
            REQUIRE(is_status != nullptr);
            CHECK(is_status->arity == arity::leaf);
            load_options lenient;
            lenient.lenient = true;
            load_result loaded = try_load_file(file, testing::test_registry(), lenient);
            for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
            CHECK(loaded);
            fs::remove(file);
        }
    }

    TEST_CASE("a dialect's node under a built-in's name is the file's own: a hint, or learned") {
        // behavior3java's Log takes `info`, behavior3-ts's `message`.
        const fs::path file = fs::temp_directory_path() / "canopy_b3_dialect.json";
        {
            std::ofstream out(file);
            out << R"({"name": "t", "root": {"id": 1, "name": "Sequence", "children": [
                {"id": 2, "name": "Log", "args": {"info": "hello"}}]}})";
        }
        const registry reg = testing::test_registry();
        load_result strict = try_load_file(file, reg);
        CHECK_FALSE(strict);
        REQUIRE(strict.diagnostics.size() == 1);
        CHECK(strict.diagnostics[0].hint.command_line.find(
                  "`--lenient` reads it as the file's own") != std::string::npos);
        CHECK(strict.diagnostics[0].hint.api.find("load_options::lenient") != std::string::npos);
        load_options lenient;
        lenient.lenient = true;
        load_result loaded = try_load_file(file, reg, lenient);
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        // Written back as behavior3 under its own name and arguments, and read again the same.
        const document_load_result document = try_load_document(file, reg, lenient);
        REQUIRE(document);
        const write_result written = info(file_format::behavior3).write(document.document);
        CHECK(written.problems.empty());
        CHECK(written.text.find(R"("args": {"info": "hello"})") != std::string::npos);
        fs::remove(file);
    }

    TEST_CASE("a classic node whose properties are not its runtime's is the file's own") {
        // behavior3js's Wait takes `milliseconds`; this program's takes `time`.
        const fs::path file = fs::temp_directory_path() / "canopy_b3_classic_dialect.json";
        {
            std::ofstream out(file);
            out << R"({"title": "t", "root": "a", "nodes": {
                "a": {"id": "a", "name": "MemSequence", "children": ["b", "c"]},
                "b": {"id": "b", "name": "Wait", "properties": {"time": 2}},
                "c": {"id": "c", "name": "Wait", "properties": {"milliseconds": 1500}}}})";
        }
        const registry reg = testing::test_registry();
        // Neither Wait is behavior3js's: the program has one Wait.
        const load_result strict = try_load_file(file, reg);
        CHECK_FALSE(strict);
        std::size_t hinted = 0;
        for (const diagnostic& d : strict.diagnostics) {
            CHECK((d.code == diagnostic_code::unknown_param ||
                   d.code == diagnostic_code::missing_param));
            if (d.hint.command_line.find("`--lenient` reads it as the file's own") !=
                std::string::npos)
                ++hinted;
        }
        CHECK(hinted == 2);  // `time` and `milliseconds`
        load_options lenient;
        lenient.lenient = true;
        const document_load_result document = try_load_document(file, reg, lenient);
        REQUIRE(document);
        const write_result written = info(file_format::behavior3).write(document.document);
        CHECK(written.problems.empty());
        CHECK(written.text.find(R"("time": 2)") != std::string::npos);
        CHECK(written.text.find(R"("milliseconds": 1500)") != std::string::npos);
        fs::remove(file);
    }

    TEST_CASE("a kept-apart node is not taken for Canopy's node of the same name") {
        // A program's registry with a Delay of its own and without the behavior3 family: the
        // file's Delay is behavior3's, which this registry lacks.
        registry reg;
        reg.add_action("Delay", [](context&) { return status::success; });
        reg.add_action("AlwaysSuccess", [](context&) { return status::success; });
        load_result loaded = try_load_text(R"({"name": "t", "root": {"id": 1, "name": "Delay",
            "children": [{"id": 2, "name": "JustSuccess"}]}})",
                                           file_format::behavior3, reg, "t.json");
        diagnostic d = testing::only(loaded, diagnostic_code::unknown_type);
        CHECK(d.message ==
              "unknown node type 'Delay' (Canopy's 'behavior3.Delay'): this registry has none of "
              "the 'behavior3.' types");
        CHECK(d.hint.api == "register_behavior3_nodes adds them");
        CHECK(d.hint.command_line.empty());
    }

    TEST_CASE(
        "every variant in tests/data/behavior3 loads leniently and converts to every format and "
        "back") {
        const fs::path data = fs::path(CANOPY_SOURCE_DIR) / "tests" / "data" / "behavior3";
        const fs::path scratch = fs::temp_directory_path() / "canopy_b3_variants";
        const registry reg = testing::test_registry();
        load_options lenient;
        lenient.lenient = true;
        auto prints = [&](const fs::path& path) {
            std::map<std::string, std::string> all;
            const file_load_result loaded = try_load_every_tree(path, reg, lenient);
            for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
            for (const auto& [name, t] : loaded.trees) all[name] = to_canopy_text(*t);
            return all;
        };
        // Writes a document beside a copy of the original's folder; the prints of every tree
        // of every file written.
        // What behavior3 cannot say: a subtree that BehaviorTree.CPP XML names by the tree of
        // a file it includes, without the file (docs/behavior3.md).
        int inexpressible = 0;
        auto convert = [&](const tree_document& document, file_format format,
                           const fs::path& folder, const std::string& stem) {
            std::map<std::string, std::string> all;
            const write_result written = info(format).write(document);
            for (const diagnostic& d : written.problems) {
                const bool included =
                    d.message.find("is a tree of an included file") != std::string::npos ||
                    d.message.find("for this tree's uses only") != std::string::npos;
                CHECK_MESSAGE(included, to_string(d));
                inexpressible += included ? 1 : 0;
            }
            if (!written.problems.empty()) return std::pair{fs::path(), all};
            const std::vector<fs::path> paths = testing::write_files(written, format, folder, stem);
            for (const fs::path& path : paths) {
                for (auto& [name, text] : prints(path)) all[name] = text;
            }
            return std::pair{paths.front(), all};
        };
        int variants = 0;
        for (const auto& entry : fs::recursive_directory_iterator(data)) {
            const fs::path& path = entry.path();
            // The tree files; a workspace and its variable declarations hold no tree.
            if (!entry.is_regular_file() || path.parent_path().filename() == "vars" ||
                path.extension() == ".b3-workspace") {
                continue;
            }
            CAPTURE(path);
            ++variants;
            const std::map<std::string, std::string> before = prints(path);
            CHECK_FALSE(before.empty());
            const document_load_result original = try_load_document(path, reg, lenient);
            REQUIRE(original);
            for (const format_info& row : formats()) {
                CAPTURE(row.name);
                fs::remove_all(scratch);
                fs::copy(data, scratch, fs::copy_options::recursive);
                const fs::path folder = scratch / fs::relative(path.parent_path(), data);
                const auto [out, there] = convert(original.document, row.id, folder, "converted");
                // A tree with overrides is not BehaviorTree.CPP's (patrol.json, watch.json).
                if (out.empty() && !original.document.overrides.empty()) continue;
                CHECK(there == before);
                const document_load_result written = try_load_document(out, reg, lenient);
                REQUIRE(written);
                const auto [back_file, back] =
                    convert(written.document, file_format::behavior3, folder, "back");
                if (back_file.empty()) continue;
                for (const auto& [tree, text] : back) {
                    const std::string tree_name =
                        tree;  // a copy: doctest's lambda cannot capture a binding
                    CAPTURE(tree_name);
                    REQUIRE(before.count(tree) == 1);
                    CHECK(text == before.at(tree));
                }
            }
        }
        fs::remove_all(scratch);
        CHECK(variants == 8);
        // guard.json back from BehaviorTree.CPP XML, which includes look.json; the two
        // overrides of patrol.json and of watch.json, which BehaviorTree.CPP XML cannot say
        // (Canopy's formats carry them: docs/formats.md, "Subtree overrides").
        CHECK(inexpressible == 1 + 2 * 2);
    }

    TEST_CASE("reports problems where they are, with line and column") {
        SUBCASE("an unknown key, with a suggestion") {
            diagnostic d = only(read_behavior3(R"({"name": "t", "root": {"id": 1, "name": "A",
  "chidlren": []}})"),
                                diagnostic_code::unknown_field);
            CHECK(d.where == source_location{2, 3});
            CHECK(d.message == "unknown key 'chidlren' in a node (did you mean 'children'?)");
        }
        SUBCASE("a node whose name is empty") {
            diagnostic d = only(read_behavior3(R"({"name": "t", "root": {"id": 1, "name": ""}})"),
                                diagnostic_code::missing_field);
            CHECK(d.where == source_location{1, 41});
            diagnostic c = only(read_behavior3(R"({"root": "a", "nodes": {"a": {"name": null}}})"),
                                diagnostic_code::missing_field);
            CHECK(c.where == source_location{1, 39});
        }
        SUBCASE("a field of the wrong type") {
            diagnostic d = only(read_behavior3(R"({"name": "t", "root": {"id": 1, "name": 7}})"),
                                diagnostic_code::wrong_field_type);
            CHECK(d.where == source_location{1, 41});
            CHECK(d.message == "'name' must be a string, not an integer");
        }
        SUBCASE("an argument given twice, as an argument and as its input: the input's") {
            const read_result both =
                read_behavior3(R"({"name": "t", "root": {"id": 1, "name": "Wait",
  "args": {"time": 1}, "input": ["t"]}})");
            diagnostic d = only(both, diagnostic_code::duplicate_field);
            CHECK(d.where == source_location{2, 34});
            CHECK(d.severity == diagnostic_severity::warning);
            CHECK(std::get<std::string>(both.document.trees[0].params_begin(0)->value) == "{t}");
        }
        SUBCASE("$override, whose entries are objects") {
            diagnostic d =
                only(read_behavior3(
                         R"({"name": "t", "$override": {"x": 1}, "root": {"id": 1, "name": "A"}})"),
                     diagnostic_code::wrong_field_type);
            CHECK(d.where == source_location{1, 34});
        }
        SUBCASE("a syntax error stops the read") {
            read_result r = read_behavior3("{\"name\": \"t\",\n \"root\": {]}");
            CHECK_FALSE(r.complete);
            CHECK(only(r, diagnostic_code::syntax_error).where == source_location{2, 11});
        }
        SUBCASE("a workspace file holds no tree") {
            diagnostic d =
                only(read_behavior3(R"({"files": [{"path": "a.json"}], "settings": {}})"),
                     diagnostic_code::unexpected_element);
            CHECK(d.where == source_location{1, 1});
        }
        SUBCASE("an object that is no behavior3 tree") {
            only(read_behavior3(R"({"title": "t"})"), diagnostic_code::missing_field);
            only(read_behavior3(R"({"data": {"data": {"trees": []}}})"),
                 diagnostic_code::missing_field);
            only(read_behavior3("42"), diagnostic_code::unexpected_element);
        }
    }

    TEST_CASE("reads and writes a tree 10,000 levels deep without recursion") {
        const int depth = 10000;
        std::string text = R"({"name": "deep", "root": )";
        for (int i = 1; i < depth; ++i) {
            text += R"({"id": )" + std::to_string(i) + R"(, "name": "Invert", "children": [)";
        }
        text += R"({"id": )" + std::to_string(depth) + R"(, "name": "JustSuccess"})";
        for (int i = 1; i < depth; ++i) text += "]}";
        text += "}";
        tree_document doc = read_clean(text);
        REQUIRE(doc.trees.size() == 1);
        const record_set& records = doc.trees.front();
        REQUIRE(records.size() == static_cast<std::size_t>(depth));
        CHECK(records.type_name(depth - 1) == "AlwaysSuccess");
        CHECK(records.parent_id(depth - 1) == depth - 1);
        tree_document again = write_and_read(doc);
        CHECK(records_text(again.trees.front()) == records_text(records));

        // A classic chain as deep, linked by id.
        std::string classic_text = R"({"root": "n1", "nodes": {)";
        for (int i = 1; i < depth; ++i) {
            classic_text += "\"n" + std::to_string(i) + R"(": {"name": "Inverter", "child": "n)" +
                            std::to_string(i + 1) + "\"},";
        }
        classic_text += "\"n" + std::to_string(depth) + R"(": {"name": "Succeeder"}}})";
        tree_document chain = read_clean(classic_text);
        CHECK(chain.trees.front().size() == static_cast<std::size_t>(depth));
        // And through the whole loader.
        load_result loaded =
            try_load_text(text, file_format::behavior3, testing::test_registry(), "deep.json");
        CHECK(loaded);
    }

    TEST_CASE("writes behavior3editor's nested form, with behavior3's names and units") {
        tree_document doc;
        record_set& t = doc.trees.emplace_back();
        t.set_name("guard");
        t.declare_key({"wait", "number", record_set::raw_param{"wait", 2.5, {}, false}, {}});
        t.declare_key({"mode", "string", std::nullopt, {}});
        t.add(1, 0, "ReactiveSelector", "guard");
        t.add(2, 1, "Sequence");
        t.add(3, 2, "behavior3.Wait");
        t.add_param("time", std::string("{wait}"));
        t.add(4, 2, "behavior3.Repeat");
        t.add(5, 4, "AlwaysSuccess");
        t.add(10, 2, "Wait");  // Canopy's, which behavior3's Wait is not
        t.add_param("seconds", 1.5);
        t.add(6, 1, "behavior3.RetryUntilSuccess");
        t.add_param("count", std::int64_t{3});
        t.add(7, 6, "Parallel");
        t.add_param("success_threshold", std::int64_t{1});
        t.add(8, 7, "Log", "say \"hi\"");
        t.add_param("message", std::string("hi"));
        t.add(9, 7, "Talk");
        t.add_param("input2", std::string("{mode}"));
        t.add_param("output1", std::string("{said}"));
        t.add_param("volume", 0.5);
        write_result written = info(file_format::behavior3).write(doc);
        INFO(written.text);
        CHECK(written.problems.empty());
        CHECK(written.files.empty());
        CHECK(written.text.find(R"("name": "Wait",
            "input": ["wait"])") != std::string::npos);
        CHECK(written.text.find(R"("name": "Repeat",)") != std::string::npos);
        CHECK(written.text.find(R"("name": "Repeat",
            "children")") != std::string::npos);  // no count: for ever
        CHECK(written.text.find(R"("name": "canopy.Wait",
            "args": {"seconds": 1.5})") != std::string::npos);
        CHECK(written.text.find(R"("name": "JustSuccess")") != std::string::npos);
        CHECK(written.text.find(R"("name": "RetryUntilSuccess",)") != std::string::npos);
        CHECK(written.text.find(R"("args": {"count": 3})") != std::string::npos);
        CHECK(written.text.find(R"("name": "canopy.Parallel")") != std::string::npos);
        CHECK(written.text.find(R"("input": ["", "mode"])") != std::string::npos);
        CHECK(written.text.find(R"("output": ["said"])") != std::string::npos);
        CHECK(written.text.find(
                  R"({"name": "wait", "desc": "", "type": "number", "default": 2.5})") !=
              std::string::npos);
        tree_document again = read_clean(written.text);
        CHECK(document_text(again, true) == "main guard\ntree guard\n" + records_text(t, true));
    }

    TEST_CASE("every type name the writer writes reads back as the same name") {
        tree_document doc;
        record_set& t = doc.trees.emplace_back();
        t.set_name("names");
        const char* names[] = {"Sequence",
                               "ReactiveSequence",
                               "Not",
                               "Inverter",
                               "JustSuccess",
                               "AlwaysSuccess",
                               "ForceSuccess",
                               "behavior3.Parallel",
                               "behavior3.Sequence",
                               "Parallel",
                               "canopy.X",
                               "Switch",
                               "Delay",
                               "AlwaysRunning",
                               "RepeatUntilFailure",
                               "RepeatUntilSuccess",
                               "Check",
                               "MemSequence"};
        std::int64_t id = 1;
        t.add(id, 0, "Selector");
        for (const char* name : names) t.add(++id, 1, name);
        tree_document again = write_and_read(doc);
        CHECK(records_text(again.trees.front()) == records_text(t));
        // The classic flavour's names mean nothing special to the nested one.
        CHECK(nested(R"({"id": 1, "name": "MemSequence"})") == "1<0 MemSequence\n");
        CHECK(read_clean(R"({"root": "a", "nodes": {"a": {"name": "A"}}})").implicit_keys);
    }

    TEST_CASE("writes each tree of a document in a file of its own, subtrees by path") {
        tree_document doc;
        doc.main_tree = "main";
        {
            record_set& sub = doc.trees.emplace_back();
            sub.set_name("patrol/left");
            sub.add(1, 0, "Wait");
            sub.add_param("seconds", 1.0);
        }
        {
            record_set& main = doc.trees.emplace_back();
            main.set_name("main");
            main.add(1, 0, "Sequence");
            main.add(2, 1, "SubTree", "go left");
            main.add_param("tree", std::string("patrol/left"));
            main.add_param("_autoremap", true);
            main.add(3, 1, "SubTree");
            main.add_param("file", std::string("other/x.json"));
            main.add_param("_autoremap", true);
        }
        write_result written = info(file_format::behavior3).write(doc);
        CHECK(written.problems.empty());
        REQUIRE(written.files.size() == 1);
        CHECK(written.files[0].first == "patrol_left.json");
        tree_document main = read_clean(written.text, "out/main.json");
        CHECK(document_text(main) ==
              "main main\ntree main\n1<0 Sequence\n"
              "2<1 SubTree \"go left\" file=\"patrol_left.json\" _autoremap=true\n"
              "3<1 SubTree file=\"other/x.json\" _autoremap=true\n");
        tree_document sub = read_clean(written.files[0].second);
        CHECK(document_text(sub) == "main patrol/left\ntree patrol/left\n1<0 Wait seconds=1d\n");
    }

    TEST_CASE("reports what behavior3 cannot express, naming the record") {
        auto problems = [](const std::function<void(record_set&)>& fill) {
            tree_document doc;
            fill(doc.trees.emplace_back());
            return info(file_format::behavior3).write(doc).problems;
        };
        auto only_problem = [](const std::vector<diagnostic>& found, std::int64_t id) {
            REQUIRE(found.size() == 1);
            CHECK(found[0].code == diagnostic_code::not_expressible);
            CHECK(found[0].path.empty());
            CHECK(found[0].record_id == id);
            return found[0].message;
        };
        CHECK(only_problem(problems([](record_set& t) { t.add_with_type_id(1, 0, 4); }), 1) ==
              "node 1 names its type by the numeric id 4; behavior3 names types");
        only_problem(problems([](record_set& t) {
                         t.add(1, 0, "Sequence");
                         t.add(2, 1, "SubTree");
                         t.add_param("file", std::string("x.json"));
                     }),
                     2);  // no _autoremap: a blackboard of its own
        CHECK(only_problem(problems([](record_set& t) {
                               t.add(1, 0, "SubTree");
                               t.add_param("tree", std::string("elsewhere"));
                               t.add_param("_autoremap", true);
                           }),
                           1)
                  .find("a tree of an included file; behavior3 has no includes") !=
              std::string::npos);
        only_problem(problems([](record_set& t) {
                         t.add(1, 0, "SubTree");
                         t.add_param("file", std::string("x.json"));
                         t.add_param("_autoremap", true);
                         t.add_param("goal", std::string("{target}"));
                     }),
                     1);
        only_problem(problems([](record_set& t) {
                         t.add(1, 0, "IfThenElse");
                         t.add(2, 1, "A");
                         t.add(3, 1, "B");
                     }),
                     1);
        CHECK(problems([](record_set& t) {
                  t.add(1, 0, "A");
                  t.add(2, 0, "B");
              }).size() == 1);
        CHECK(info(file_format::behavior3).write(tree_document{}).problems.size() == 1);
    }

    TEST_CASE("every tree in data/ written as behavior3 loads back as the same tree") {
        registry reg = testing::test_registry();
        for (const auto& entry : fs::directory_iterator(fs::path(CANOPY_SOURCE_DIR) / "data")) {
            if (!format_for_path(entry.path())) continue;
            CAPTURE(entry.path());
            std::shared_ptr<const tree> original = load_file(entry.path(), reg);
            const std::string text = write_text(*original, file_format::behavior3);
            INFO(text);
            load_result again = try_load_text(text, file_format::behavior3, reg, "written.json");
            for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(again);
            CHECK(to_canopy_text(*again.tree) == to_canopy_text(*original));
            CHECK(write_text(*again.tree, file_format::behavior3) == text);
            // The program's keys the tree never names are not a behavior3 tree's variables.
            for (const blackboard_key& key : original->keys()) {
                CAPTURE(key.name);
                const auto same =
                    std::find_if(again.tree->keys().begin(), again.tree->keys().end(),
                                 [&](const blackboard_key& k) { return k.name == key.name; });
                if (same == again.tree->keys().end()) {
                    CHECK(std::any_of(reg.keys().begin(), reg.keys().end(),
                                      [&](const blackboard_key& k) { return k.name == key.name; }));
                    continue;
                }
                CHECK(same->initial == key.initial);
            }
            check_same_params(*original, *again.tree, reg);
        }
    }

    TEST_CASE("ports, outputs, file keys and awkward text survive a behavior3 round trip") {
        registry reg = testing::runtime_registry();
        reg.add<testing::output_port_leaf>("Counter", 400);
        const std::string text = R"({"name": "quotes \" and <tags> & ünïcode",
          "blackboard": {"mode": {"type": "string", "default": "a \"b\" <c>\n"},
                         "wait": {"type": "number", "default": 0.1},
                         "health": {"type": "number", "default": 80}},
          "nodes": [
            {"id": 10, "type": "Sequence", "describe": "line one\nline two\t\"quoted\""},
            {"id": -3, "parentId": 10, "type": "Wait", "params": {"seconds": "{wait}"}},
            {"id": 7, "parentId": 10, "type": "Counter", "params": {"total": "count"}},
            {"id": 8, "parentId": 10, "type": "Counter"},
            {"id": 9, "parentId": 10, "type": "CheckBlackboard",
             "params": {"key": "mode", "op": "!=", "value": "x & <y>"}},
            {"id": 11, "parentId": 10, "type": "Repeat", "params": {"count": "{count}"}},
            {"id": 12, "parentId": 11, "type": "AlwaysSuccess"}]})";
        load_result loaded = try_load_text(text, file_format::flat_json, reg, "t.json");
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        const std::string written = write_text(*loaded.tree, file_format::behavior3);
        INFO(written);
        load_result again = try_load_text(written, file_format::behavior3, reg, "w.json");
        for (const diagnostic& d : again.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(again);
        CHECK(to_canopy_text(*again.tree) == to_canopy_text(*loaded.tree));
        CHECK(again.tree->name() == loaded.tree->name());
        CHECK(write_text(*again.tree, file_format::behavior3) == written);
        // The file's keys come back as they were; the program's keys the tree never names are
        // not a behavior3 tree's variables.
        for (const blackboard_key& key : loaded.tree->keys()) {
            CAPTURE(key.name);
            const auto same =
                std::find_if(again.tree->keys().begin(), again.tree->keys().end(),
                             [&](const blackboard_key& k) { return k.name == key.name; });
            if (!key.from_file) continue;
            REQUIRE(same != again.tree->keys().end());
            CHECK(same->type == key.type);
            CHECK(same->initial == key.initial);
            CHECK(same->from_file);
        }
        check_same_params(*loaded.tree, *again.tree, reg);
        CHECK(written.find(R"("args": {"total": "{count}"})") != std::string::npos);
    }

    TEST_CASE("survives corrupted files: diagnostics or a document, never a crash") {
        const std::string samples[] = {
            R"({"name": "t", "vars": [{"name": "v", "desc": "", "type": "number", "default": 1}],
  "root": {"id": 1, "name": "Sequence", "children": [
    {"id": 2, "name": "Wait", "args": {"time": 1.5}, "input": ["v"]},
    {"id": 3, "name": "Sequence", "path": "sub.json", "disabled": false},
    {"id": 4, "name": "Repeat", "args": {"count": 2}, "children": [{"id": 5, "name": "Log"}]}]}})",
            R"({"trees": [{"id": "t1", "title": "a", "root": "x", "nodes": {
  "x": {"name": "MemSequence", "children": ["y", "z"]}, "y": {"name": "t2", "category": "tree"},
  "z": {"name": "Wait", "properties": {"milliseconds": 10}}}},
  {"id": "t2", "title": "b", "root": "q", "nodes": {"q": {"name": "Inverter", "child": "r"},
  "r": {"name": "Succeeder"}}}], "custom_nodes": [{"name": "A", "category": "action"}]})",
            R"([{"name": "Wait", "type": "Action", "input": ["t?"], "args": [{"name": "time",
  "type": "float", "desc": "", "default": [1, {"a": null}]}]}])"};
        registry reg = testing::test_registry();
        std::uint64_t state = 7;
        auto next = [&state] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            return state;
        };
        int documents = 0;
        for (const std::string& original : samples) {
            for (int round = 0; round < 700; ++round) {
                std::string text = original;
                for (int edits = 1 + static_cast<int>(next() % 3); edits > 0; --edits) {
                    const std::size_t at = next() % text.size();
                    switch (next() % 3) {
                        case 0: text.erase(at, 1 + next() % 6); break;
                        case 1: text.insert(at, 1, "{}[]\",:0aZ-"[next() % 12]); break;
                        default: text[at] = "{}[]\",:0aZ-"[next() % 12]; break;
                    }
                    if (text.empty()) text = " ";
                }
                read_result r = read_behavior3(text);
                for (const diagnostic& d : r.diagnostics) {
                    CHECK(d.where.line >= 1);  // every problem is located
                }
                if (r.diagnostics.empty()) ++documents;
                (void)info(file_format::behavior3).write(r.document);
                // The loader builds a document's first tree: node definitions alone have none
                // (a loader that takes models-only documents is still to come).
                if (!r.document.trees.empty()) {
                    (void)try_load_text(text, file_format::behavior3, reg, "t.json");
                }
            }
        }
        CHECK(documents > 0);
    }

    TEST_CASE("every corpus file reads, or is refused for a real defect") {
        const fs::path dirs[] = {corpus_folder() / "behavior3-json",
                                 corpus_folder() / "layouts" / "behavior3editor-sample"};
        if (!fs::exists(dirs[0])) {
            MESSAGE("skipped: no corpus at " << corpus_folder().string());
            return;
        }
        int files = 0;
        int round_trips = 0;
        for (const fs::path& dir : dirs) {
            for (const auto& entry : fs::recursive_directory_iterator(dir)) {
                if (!entry.is_regular_file()) continue;
                CAPTURE(entry.path());
                ++files;
                const std::string text = read_file_text(entry.path());
                read_result r = read_behavior3(text, entry.path().string());
                if (entry.path().extension() == ".b3-workspace") {
                    // Not a tree file (the loader refuses its extension); read anyway, it
                    // says what it is.
                    CHECK(only(r, diagnostic_code::unexpected_element).where.line == 1);
                    continue;
                }
                // Detection routes each to this reader.
                CHECK(detect_format(entry.path(), text) == file_format::behavior3);
                INFO(diagnostics_text(r));
                CHECK(r.diagnostics.empty());
                CHECK((!r.document.trees.empty() || !r.document.models.empty()));
                if (r.document.trees.empty()) continue;
                // Round trip: written as behavior3 and read again, the same trees.
                write_result written = info(file_format::behavior3).write(r.document);
                INFO(document_text(r.document));
                // (MechWipf's trees give their own Wait a 'time': Canopy's Wait is written
                // escaped, canopy.Wait, so that it does not read back as behavior3's.)
                for (const diagnostic& d : written.problems) FAIL_CHECK(to_string(d));
                std::string got = document_text(read_clean(written.text, "w.json"), true);
                for (const auto& [file, body] : written.files) {
                    got += document_text(read_clean(body, file), true);
                }
                // Each tree alone, the main tree first (the one named, else the first that no
                // tree uses), subtrees by file.
                std::set<std::string> used;
                for (const record_set& tree : r.document.trees) {
                    for (std::size_t i = 0; i < tree.size(); ++i) {
                        for (const auto* p = tree.params_begin(i); p != tree.params_end(i); ++p) {
                            if (tree.type_name(i) == "SubTree" && p->name == "tree")
                                used.insert(std::get<std::string>(p->value));
                        }
                    }
                }
                const record_set* main = nullptr;
                for (const record_set& tree : r.document.trees) {
                    if (tree.name() == r.document.main_tree) main = &tree;
                }
                for (const record_set& tree : r.document.trees) {
                    if (main == nullptr && used.count(tree.name()) == 0) main = &tree;
                }
                std::vector<const record_set*> order{main};
                for (const record_set& tree : r.document.trees) {
                    if (&tree != main) order.push_back(&tree);
                }
                std::string expected;
                for (const record_set* tree : order) {
                    expected += "main " + tree->name() + "\ntree " + tree->name() + "\n" +
                                records_text(*tree, true);
                }
                CHECK(got == as_files(expected));
                ++round_trips;
            }
        }
        CHECK(files >= 20);
        CHECK(round_trips >= 15);
    }

    TEST_CASE(
        "the behavior3editor sample loads strictly once its game's leaves are registered, and "
        "ticks") {
        const fs::path sample = corpus_folder() / "layouts" / "behavior3editor-sample" / "workdir";
        if (!fs::exists(sample)) {
            MESSAGE("skipped: no corpus at " << corpus_folder().string());
            return;
        }
        // The game's own nodes, with the arguments and slots its node config
        // (node-config.b3-setting) gives them, as the game's program would register them.
        bool enemy_near = false;
        registry reg;
        register_builtin_nodes(reg);
        register_behavior3_nodes(reg);
        const param_spec input = param_spec::optional("input1", 0.0);
        const param_spec output = param_spec::output_port("output1", param_type::number);
        auto succeed = [](context&) { return status::success; };
        reg.add_condition(
            "FindEnemy", [&enemy_near](context&) { return enemy_near; }, std::nullopt,
            {param_spec::optional("x", std::int64_t{0}), param_spec::optional("y", std::int64_t{0}),
             param_spec::optional("w", std::int64_t{0}), param_spec::optional("h", std::int64_t{0}),
             param_spec::optional("count", std::string()), output});
        reg.add_action("Attack", succeed, std::nullopt, {input});
        reg.add_action("MoveToTarget", succeed, std::nullopt, {input});
        reg.add_action("GetHp", succeed, std::nullopt, {output});
        reg.add_condition("Cmp", [](context&) { return true; }, std::nullopt,
                          {param_spec::optional("value", std::string()),
                           param_spec::optional("gt", std::int64_t{0}),
                           param_spec::optional("ge", std::int64_t{0}),
                           param_spec::optional("eq", std::int64_t{0}),
                           param_spec::optional("le", std::int64_t{0}),
                           param_spec::optional("lt", std::int64_t{0}), input});
        reg.add_action("MoveToPos", succeed, std::nullopt,
                       {param_spec::required("x", param_type::integer),
                        param_spec::required("y", param_type::integer)});
        reg.add_action("Idle", succeed);

        for (const char* name : {"hero.json", "subtree1.json", "subtree2.json"}) {
            CAPTURE(name);
            const load_result loaded = try_load_file(sample / name, reg);
            for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
            REQUIRE(loaded);
            agent a(loaded.tree);
            CHECK(a.tick(0.1) != status::idle);
        }
        // hero: no enemy near, so both FindEnemy sequences fail and the third (GetHp, Cmp,
        // MoveToPos) succeeds; with one, it attacks and then waits 10 s (behavior3.Wait).
        const load_result hero = try_load_file(sample / "hero.json", reg);
        REQUIRE(hero);
        agent calm(hero.tree);
        CHECK(calm.tick(1.0) == status::success);
        enemy_near = true;
        agent fighting(hero.tree);
        std::string statuses;
        for (int t = 0; t < 12; ++t) statuses += to_string(fighting.tick(1.0)).front();
        CHECK(statuses.find('r') == 0);
        CHECK(statuses.find('s') != std::string::npos);
        // monster.json gives the action GetHp a child (a subtree), which the editor draws and
        // behavior3-ts never runs: a leaf with a child is refused, at the leaf.
        const load_result monster = try_load_file(sample / "monster.json", reg);
        CHECK_FALSE(monster);
        REQUIRE_FALSE(monster.diagnostics.empty());
        CHECK(monster.diagnostics.front().where.line == 20);
        CHECK(monster.diagnostics.front().message.find("'GetHp' is a leaf") != std::string::npos);
    }

    TEST_CASE("corpus trees load through the loader as far as their node types are known") {
        const fs::path sample = corpus_folder() / "layouts" / "behavior3editor-sample" / "workdir";
        if (!fs::exists(sample)) {
            MESSAGE("skipped: no corpus at " << corpus_folder().string());
            return;
        }
        registry reg = testing::test_registry();
        // subtree1.json uses only nodes Canopy has: Sequence, Log and the family's Wait.
        load_result loaded = try_load_file(sample / "subtree1.json", reg);
        for (const diagnostic& d : loaded.diagnostics) FAIL_CHECK(to_string(d));
        REQUIRE(loaded);
        CHECK(to_canopy_text(*loaded.tree) ==
              "Sequence \"新建行为树\" #1\n  Log #2\n  behavior3.Wait #3\n");
        // hero.json's game nodes are not registered: the loader says which.
        load_result hero = try_load_file(sample / "hero.json", reg);
        CHECK_FALSE(hero);
        CHECK(
            std::any_of(hero.diagnostics.begin(), hero.diagnostics.end(), [](const diagnostic& d) {
                return d.code == diagnostic_code::unknown_type && d.where.line == 20;
            }));
    }
}
